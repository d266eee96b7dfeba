import type { ApiRequest } from '../http/api-request.js';
import { badRequest, noContent, notFound, ok, unknownMembers, withIgnoredWarning, type Reply } from '../http/reply.js';
import type { Route } from '../http/router.js';
import { toStr } from '../util/fields.js';
import { isJsonObject, type JsonObject } from '../util/json.js';
import { JsonNumber } from '../../values/index.js';
import { isNamespaceSegment } from './path.js';
import { NamespaceRegistry, parentOf, type NamespaceEntry } from './registry.js';

/**
 * `sys/namespaces` (website/content/api-docs/system/namespaces.mdx): create, read, list, patch
 * (custom metadata) and delete the child namespaces of the namespace the request is in. Names
 * are relative to it.
 */
export const namespaceRoutes: Route[] = [
  { pattern: 'sys/namespaces/?', access: 'acl', handlers: { list } },
  { pattern: 'sys/namespaces/:name+', access: 'acl', handlers: { read, update: create, patch, delete: remove } },
];

function registry(req: ApiRequest): NamespaceRegistry {
  return new NamespaceRegistry(req.cluster.store);
}

/** The full path of the namespace a request names, checked. */
function target(req: ApiRequest): string {
  const name = req.params.name!.replace(/\/+$/, '');
  if (!name.split('/').every(isNamespaceSegment)) throw badRequest(`invalid namespace name "${name}"`);
  return req.cluster.namespace === '' ? name : `${req.cluster.namespace}/${name}`;
}

function view(entry: NamespaceEntry): JsonObject {
  return { id: entry.id, path: entry.path, custom_metadata: entry.custom_metadata };
}

/** The children's names with a trailing slash, and each one's entry under key_info; none is a 404. */
function list(req: ApiRequest): Reply {
  const children = registry(req).children(req.cluster.namespace);
  if (children.length === 0) throw notFound();
  const name = (entry: NamespaceEntry): string => `${entry.path.replace(/\/$/, '').split('/').at(-1)!}/`;
  return ok({ keys: children.map(name), key_info: Object.fromEntries(children.map((c) => [name(c), view(c)])) });
}

function read(req: ApiRequest): Reply {
  const entry = registry(req).get(target(req));
  if (!entry) throw notFound();
  return ok(view(entry));
}

async function create(req: ApiRequest): Promise<Reply> {
  const namespace = target(req);
  const names = registry(req);
  if (!names.exists(parentOf(namespace))) throw badRequest(`parent namespace of "${namespace}/" does not exist`);
  const created = ok(view(await names.put(namespace, metadataOf(req.body.custom_metadata))));
  // sys/ is a framework backend (sdk/framework/backend.go HandleRequest): body members that are
  // not the path's fields are warned about on the answer.
  return withIgnoredWarning(created, unknownMembers(req.body, ['path', 'custom_metadata']));
}

/**
 * `PATCH` (namespaces.mdx "Patch namespace"): a JSON merge patch of the custom metadata, a key
 * set to null removed, `custom_metadata: null` clearing them all (OpenBao
 * vault/logical_system_namespaces.go handleNamespacesPatch). A namespace that does not exist
 * is a 400 `namespace not found` (its coded 404 comes out of handleError as a 400).
 */
async function patch(req: ApiRequest): Promise<Reply> {
  const namespace = target(req);
  const names = registry(req);
  const entry = names.get(namespace);
  if (!('custom_metadata' in req.body)) throw badRequest('missing required field "custom_metadata"');
  const changes = req.body.custom_metadata;
  if (!entry) throw badRequest('namespace not found');
  if (changes === null) return ok(view(await names.put(namespace, {})));
  if (!isJsonObject(changes)) throw badRequest('custom_metadata must be a map of strings');
  const metadata: Record<string, string> = { ...entry.custom_metadata };
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) delete metadata[key];
    else if (typeof value === 'string') metadata[key] = value;
    else throw badRequest(`metadata patch can only have string or null values, got ${goTypeName(value)}`);
  }
  return ok(view(await names.put(namespace, metadata)));
}

/** The Go type encoding/json decodes a JSON value into, as `%T` prints it. */
function goTypeName(value: unknown): string {
  if (typeof value === 'number' || value instanceof JsonNumber) return 'json.Number';
  if (typeof value === 'boolean') return 'bool';
  return Array.isArray(value) ? '[]interface {}' : 'map[string]interface {}';
}

/**
 * Refused while it has child namespaces (400, worded as Vault answers: terraform-provider-vault
 * vault/resource_namespace.go namespaceDelete quotes it; OpenBao: `unable to delete namespace
 * containing child namespaces`); everything stored in it goes with it, its tokens too.
 */
async function remove(req: ApiRequest): Promise<Reply> {
  const namespace = target(req);
  const names = registry(req);
  if (!names.get(namespace)) return noContent();
  if (names.children(namespace).length > 0) throw badRequest(`child namespaces exist under path "${namespace}/", cannot remove`);
  await names.delete(namespace, req.cluster.tokens.revocationsUnder('', namespace));
  return noContent();
}

function metadataOf(raw: unknown): Record<string, string> | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!isJsonObject(raw)) throw badRequest('custom_metadata must be a map of strings');
  return Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, toStr(`custom_metadata.${k}`, v)]));
}
