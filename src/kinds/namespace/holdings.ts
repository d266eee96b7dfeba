import { jsonText, type JsonObject } from '../../core/json.js';
import type { ClusterClient } from '../../client/types.js';
import { UnservedPathError } from '../feature.js';
import { listNames, MOUNT_TABLE_SHAPE, readShaped } from '../live-read.js';

/**
 * What a namespace holds besides what every new namespace has: auth methods other than its
 * token method, secrets engines other than cubbyhole, identity and sys, child namespaces, ACL
 * policies other than `default`, managed keys. The service deletes a namespace with everything
 * in it (OpenBao vault/namespace_store.go DeleteNamespace: only child namespaces stop it, 400
 * `unable to delete namespace containing child namespaces`; Vault answers 400 `child namespaces
 * exist under path ...`), so lockstep prunes only an empty one.
 */

/** Mount types every namespace is made with (vault/mount.go mountTypeNSToken and the others; the root's plain types too). */
const BUILT_IN_AUTH = new Set(['ns_token', 'token']);
const BUILT_IN_SECRETS = new Set(['ns_cubbyhole', 'ns_identity', 'ns_system', 'cubbyhole', 'identity', 'system']);
const BUILT_IN_POLICIES = new Set(['default', 'root']);
/** The managed key types of the service's API (sys/managed-keys/:type). */
const MANAGED_KEY_TYPES = ['pkcs11', 'provAkms', 'provBkeyvault', 'provCckms'];

/**
 * What `namespace` holds, one phrase each (`auth method ldap/`, `child namespace apps`),
 * sorted. A part the server does not serve (no managed keys or ACL policies on this server:
 * "unsupported path") holds nothing.
 */
export async function namespaceHoldings(client: ClusterClient, namespace: string): Promise<string[]> {
  const at = (path: string): string => `${namespace}/${path}`;
  const [auth, mounts, children, policies, ...keys] = await Promise.all([
    servedOrNone(readShaped(client, at('sys/auth'), MOUNT_TABLE_SHAPE)),
    servedOrNone(readShaped(client, at('sys/mounts'), MOUNT_TABLE_SHAPE)),
    servedOrNone(listNames(client, at('sys/namespaces'))),
    servedOrNone(listNames(client, at('sys/policies/acl'))),
    ...MANAGED_KEY_TYPES.map((type) => servedOrNone(listNames(client, at(`sys/managed-keys/${type}`)))),
  ]);
  return [
    ...mountsBeyond(auth, BUILT_IN_AUTH).map((path) => `auth method ${path}`),
    ...mountsBeyond(mounts, BUILT_IN_SECRETS).map((path) => `secrets engine ${path}`),
    ...(children ?? []).map((name) => `child namespace ${name.replace(/\/$/, '')}`),
    ...(policies ?? []).filter((name) => !BUILT_IN_POLICIES.has(name)).map((name) => `ACL policy ${name}`),
    ...MANAGED_KEY_TYPES.flatMap((type, i) => (keys[i] ?? []).map((name) => `managed key ${type}/${name}`)),
  ].sort();
}

/** The mount paths of a `sys/auth` or `sys/mounts` table whose type is not built in. */
function mountsBeyond(table: JsonObject | null | undefined, builtIn: ReadonlySet<string>): string[] {
  return Object.entries(table ?? {})
    .filter(([path, entry]) => path.endsWith('/') && !builtIn.has(jsonText((entry as JsonObject)['type'] ?? '')))
    .map(([path]) => path);
}

/** The answer, or undefined where the server has no such path at all. */
async function servedOrNone<T>(read: Promise<T>): Promise<T | undefined> {
  try {
    return await read;
  } catch (err) {
    if (err instanceof UnservedPathError) return undefined;
    throw err;
  }
}
