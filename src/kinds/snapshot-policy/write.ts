import { assertNever, type Change } from '../../core/plan.js';
import type { DesiredResource } from '../../core/resource.js';
import type { ApplyContext } from '../kind.js';
import { withSudoHint } from './sudo.js';
import { SNAPSHOT_CONFIG } from './types.js';

/**
 * Carries out one snapshot-configuration change. A write sends the whole configuration (every
 * field of its storage type, defaults included, so a field changed behind lockstep's back is
 * reset) plus the credentials the manifest gives: they are write-only and go with every write.
 * Whole-object writes are idempotent, so the client may retry them.
 */
export async function applySnapshotChange(change: Change, desired: DesiredResource | undefined, { client }: ApplyContext): Promise<void> {
  if (change.resourceType !== SNAPSHOT_CONFIG) throw new Error(`${change.address}: unknown snapshot resource type ${change.resourceType}`);
  // The change's own segments, encoded by the client: never text split again.
  const path = change.address;
  const cluster = change.address.cluster;
  switch (change.action) {
    case 'create':
    case 'update': {
      if (!desired) throw new Error(`${change.address}: no desired object to write`);
      await withSudoHint(cluster, () => client.write(path, { ...desired.attrs, ...desired.writeOnly }, { idempotent: true }));
      return;
    }
    case 'delete':
      await withSudoHint(cluster, () => client.delete(path));
      return;
    case 'transition':
      throw new Error(`${change.address}: snapshot configurations have no transitions`);
    default:
      assertNever(change.action);
  }
}
