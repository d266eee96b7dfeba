/**
 * `sys/managed-keys`: list, create/update, read and delete managed keys of the request's
 * namespace, and test/sign them through their backend.
 */
import type { ApiRequest } from '../http/api-request.js';
import { ApiError, badRequest, keyList, noContent, notFound, ok, written, type Reply } from '../http/reply.js';
import type { Route } from '../http/router.js';
import { newUuid } from '../util/random.js';
import { isManagedKeyType, MANAGED_KEY_TYPES, type ManagedKeyType } from './fields.js';
import { mountsUsingKey } from './guard.js';
import { ManagedKeyStore, type StoredManagedKey } from './key-store.js';
import { testSign } from './test-sign.js';
import { managedKeyView } from './view.js';
import { applyKeyWrite } from './write.js';

export const managedKeyRoutes: Route[] = [
  { pattern: 'sys/managed-keys/:type/?', access: 'acl', handlers: { list: listKeys } },
  { pattern: 'sys/managed-keys/:type/:name/test/sign', access: 'acl', handlers: { update: testSignKey } },
  { pattern: 'sys/managed-keys/:type/:name', access: 'acl', handlers: { read: readKey, update: writeKey, delete: deleteKey } },
];

function keyStore(req: ApiRequest): ManagedKeyStore {
  return new ManagedKeyStore(req.cluster.store, req.cluster.namespace);
}

function pathType(req: ApiRequest): ManagedKeyType {
  const type = req.params.type!;
  if (!isManagedKeyType(type)) throw badRequest(`unsupported managed key type "${type}"; one of ${MANAGED_KEY_TYPES.join(', ')}`);
  return type;
}

/** The key named in the path, if it exists with the path's type. */
function keyOfPath(req: ApiRequest): StoredManagedKey | undefined {
  const type = pathType(req);
  const key = keyStore(req).get(req.params.name!);
  return key?.type === type ? key : undefined;
}

function listKeys(req: ApiRequest): Reply {
  return keyList(keyStore(req).names(pathType(req)));
}

function readKey(req: ApiRequest): Reply {
  const key = keyOfPath(req);
  if (!key) throw notFound();
  return ok(managedKeyView(key));
}

async function writeKey(req: ApiRequest): Promise<Reply> {
  const type = pathType(req);
  const name = req.params.name!;
  const store = keyStore(req);
  const existing = store.get(name);
  if (existing && existing.type !== type) {
    throw badRequest(`a managed key named "${name}" already exists with type ${existing.type}; names are unique across all types in the namespace`);
  }
  const backends = req.cluster.keyBackends;
  const write = applyKeyWrite(type, name, existing?.config ?? {}, req.body, {
    kmsLibraries: Object.keys(backends.kmsLibraries ?? {}),
    env: backends.env ?? process.env,
  });
  if (write.problems.length > 0) throw new ApiError(400, write.problems);
  await store.put({ name, type, uuid: existing?.uuid ?? newUuid(), config: write.config });
  return written([], write.ignored);
}

/** Refused while a mount of the namespace lists the key; deleting an absent key is fine. */
async function deleteKey(req: ApiRequest): Promise<Reply> {
  const key = keyOfPath(req);
  if (!key) return noContent();
  const users = mountsUsingKey(req.cluster.mounts, key.name);
  if (users.length > 0) {
    throw badRequest(`managed key "${key.name}" cannot be deleted: it is listed in allowed_managed_keys of ${users.map((m) => `"${m}"`).join(', ')}`);
  }
  await keyStore(req).delete(key.name);
  return noContent();
}

/** A failure is also logged (its message is already redacted of the key's secrets). */
async function testSignKey(req: ApiRequest): Promise<Reply> {
  const key = keyOfPath(req);
  if (!key) throw notFound();
  try {
    await testSign(key, req.body, req.cluster.keyBackends);
  } catch (err) {
    if (err instanceof ApiError) req.cluster.log(`managed key ${keyAddress(req, key)}: test/sign failed: ${err.errors.join('; ')}`);
    throw err;
  }
  return noContent();
}

function keyAddress(req: ApiRequest, key: StoredManagedKey): string {
  const path = `sys/managed-keys/${key.type}/${key.name}`;
  return req.cluster.namespace === '' ? path : `${req.cluster.namespace}/${path}`;
}
