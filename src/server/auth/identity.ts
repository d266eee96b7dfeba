import type { StoreOp } from '../storage/journal.js';
import type { KvStore } from '../storage/kv-store.js';
import { newUuid } from '../util/random.js';

/**
 * The identity store, reduced to what logins show: one entity per (auth mount, alias name),
 * so repeated logins of one user carry the same entity_id.
 */
/** Deletions of the aliases of one auth mount (when it is disabled). */
export function aliasRemovals(store: KvStore, mountAccessor: string): StoreOp[] {
  return store.keysUnder(`identity/alias/${mountAccessor}/`).map((key) => ({ key, value: null }));
}

export async function entityIdFor(store: KvStore, mountAccessor: string, alias: string): Promise<string> {
  const key = `identity/alias/${mountAccessor}/${alias}`;
  const existing = store.get(key) as { entity_id: string } | undefined;
  if (existing) return existing.entity_id;
  const entityId = newUuid();
  await store.put(key, { entity_id: entityId });
  return entityId;
}
