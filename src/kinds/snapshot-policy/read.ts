import type { Address } from '../../core/address.js';
import type { JsonObject } from '../../core/json.js';
import type { DesiredState, LiveResource, LiveState } from '../../core/resource.js';
import type { ClientPool } from '../kind.js';
import { addressableNames, listNames, readShaped } from '../live-read.js';
import { configAddress, scopeOfCollection, type SnapshotScope } from './addresses.js';
import { snapshotAttrs } from './attrs.js';
import { SNAPSHOT_SECRET_FIELDS } from './fields.js';
import { SNAPSHOT_CONFIG_SHAPE } from './live-shapes.js';
import { withSudoHint } from './sudo.js';
import { SNAPSHOT_CONFIG } from './types.js';

/**
 * Reads every collection of snapshot configurations the desired state manages (LIST, then one
 * GET each, in parallel under the client's concurrency bound), so unlisted ones can be shown as
 * unmanaged or pruned. Credentials read back as "redacted" or not at all: only whether each is
 * set is kept (writeOnlySet), so a credential the manifest dropped shows as one to clear.
 */
export async function readSnapshotPolicies(desired: DesiredState, clients: ClientPool): Promise<LiveState> {
  const live: LiveState = { resources: [], observed: {}, notes: [] };
  await Promise.all(
    desired.collections.map(async (collection) => {
      await readScope(scopeOfCollection(collection.address), collection.address, clients, live);
    }),
  );
  // Desired configurations the server does not have: read and found missing.
  for (const r of desired.resources) if (!(r.address.toString() in live.observed)) record(live, r.address, null);
  return live;
}

async function readScope(scope: SnapshotScope, collection: Address, clients: ClientPool, live: LiveState): Promise<void> {
  const client = clients.get(scope.cluster);
  const listed = await withSudoHint(scope.cluster, () => listNames(client, collection.path));
  live.observed[collection.toString()] = [...listed].sort();
  await Promise.all(
    addressableNames(listed, collection, 'a snapshot policy', live.notes).map(async (name) => {
      const address = configAddress(scope, name);
      const data = await withSudoHint(scope.cluster, () => readShaped(client, address.path, SNAPSHOT_CONFIG_SHAPE));
      if (data) push(live, { address, resourceType: SNAPSHOT_CONFIG, attrs: liveAttrs(data), writeOnlySet: heldCredentials(data) });
      else record(live, address, null);
    }),
  );
}

/** The credential fields the server says it holds ("redacted"; an unset one is left out). */
function heldCredentials(data: JsonObject): string[] {
  return SNAPSHOT_SECRET_FIELDS.filter((name) => data[name] !== undefined && data[name] !== null && data[name] !== '').sort();
}

/** A live configuration in the desired attrs' form. */
function liveAttrs(data: JsonObject): JsonObject {
  return snapshotAttrs(data);
}

function push(live: LiveState, r: LiveResource): void {
  live.resources.push(r);
  // Which secrets the server holds is part of what the plan read: a saved plan is stale when it changes.
  record(live, r.address, r.writeOnlySet === undefined ? r.attrs : { ...r.attrs, '(write-only set)': r.writeOnlySet });
}

function record(live: LiveState, address: Address, attrs: JsonObject | null): void {
  live.observed[address.toString()] = attrs;
}
