import type { Address } from '../../core/address.js';
import type { JsonObject } from '../../core/json.js';
import type { DesiredState, LiveResource, LiveState } from '../../core/resource.js';
import type { ClusterClient } from '../../client/types.js';
import type { ClientPool } from '../kind.js';
import { addressableNames, listNames, MOUNT_TABLE_SHAPE, readShaped } from '../live-read.js';
import { collectionAddress, keyAddress, locateKey, scopedPath, scopeKey, usersAddress, type KeyScope } from './addresses.js';
import { keyAttrs } from './attrs.js';
import { secretFieldsOf } from './fields.js';
import { MANAGED_KEY_SHAPES } from './live-shapes.js';
import { KEY_TYPES, MANAGED_KEY, MANAGED_KEY_USERS, type KeyType } from './types.js';
import { keyUsers } from './users.js';

/**
 * Reads every namespace the desired keys live in: each type's keys in full (LIST, then one GET
 * each, in parallel under the client's concurrency bound), and the mount tables (`sys/mounts`,
 * `sys/auth`) whose allowed_managed_keys decide whether a key may be deleted.
 */
export async function readManagedKeys(desired: DesiredState, clients: ClientPool): Promise<LiveState> {
  const scopes = new Map<string, KeyScope>();
  for (const r of desired.resources) {
    const at = locateKey(r.address);
    if (at) scopes.set(scopeKey(at), { cluster: at.cluster, namespace: at.namespace });
  }
  const live: LiveState = { resources: [], observed: {}, notes: [] };
  await Promise.all([...scopes.values()].map((scope) => readScope(scope, clients.get(scope.cluster), live)));
  return live;
}

async function readScope(scope: KeyScope, client: ClusterClient, live: LiveState): Promise<void> {
  await Promise.all([...KEY_TYPES.map((type) => readType(scope, type, client, live)), readUsers(scope, client, live)]);
}

async function readType(scope: KeyScope, type: KeyType, client: ClusterClient, live: LiveState): Promise<void> {
  const collection = collectionAddress(scope, type);
  const listed = await listNames(client, collection.path);
  live.observed[collection.toString()] = [...listed].sort();
  await Promise.all(
    addressableNames(listed, collection, 'a managed key', live.notes).map(async (name) => {
      const address = keyAddress(scope, type, name);
      const data = await readShaped(client, address.path, MANAGED_KEY_SHAPES[type]);
      if (data) push(live, { address, resourceType: MANAGED_KEY, attrs: keyAttrs(type, data), writeOnlySet: heldSecrets(type, data) });
      else record(live, address, null);
    }),
  );
}

async function readUsers(scope: KeyScope, client: ClusterClient, live: LiveState): Promise<void> {
  const [mounts, auth] = await Promise.all([
    readShaped(client, scopedPath(scope, 'sys/mounts'), MOUNT_TABLE_SHAPE),
    readShaped(client, scopedPath(scope, 'sys/auth'), MOUNT_TABLE_SHAPE),
  ]);
  push(live, { address: usersAddress(scope), resourceType: MANAGED_KEY_USERS, attrs: keyUsers(mounts, auth) });
}

/** The secret fields the server says it holds: it reads them back as "redacted", and leaves out the unset ones. */
function heldSecrets(type: KeyType, data: Readonly<Record<string, unknown>>): string[] {
  return secretFieldsOf(type)
    .map((f) => f.name)
    .filter((name) => data[name] !== undefined && data[name] !== null && data[name] !== '')
    .sort();
}

function push(live: LiveState, r: LiveResource): void {
  live.resources.push(r);
  // Which secrets the server holds is part of what the plan read: a saved plan is stale when it changes.
  record(live, r.address, r.writeOnlySet === undefined ? r.attrs : { ...r.attrs, '(write-only set)': r.writeOnlySet });
}

function record(live: LiveState, address: Address, attrs: JsonObject | null): void {
  live.observed[address.toString()] = attrs;
}
