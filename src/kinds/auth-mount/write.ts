import { assertNever, type Change } from '../../core/plan.js';
import type { DesiredResource } from '../../core/resource.js';
import type { ClusterClient } from '../../client/types.js';

/**
 * Carries out a change of an `auth.mount`: enabling the method is `POST <ns>/sys/auth/<mount>`
 * with its type, at the change's own address. Not retried: enabling twice is refused (the
 * path is in use), so a retry after a lost answer would fail a write that worked.
 */
export async function applyAuthMountChange(change: Change, desired: DesiredResource | undefined, client: ClusterClient): Promise<void> {
  switch (change.action) {
    case 'create':
      if (!desired) throw new Error(`${change.address}: no desired object to write`);
      await client.write(change.address, { type: desired.attrs['type'] }, { idempotent: false });
      return;
    case 'update':
      // The plan never has one (a mount of another type is refused when read, kinds/auth-mount/
      // read.ts); enabling again would be refused as "path is already in use", or disable first.
      throw new Error(`${change.address}: lockstep never updates auth methods (their type is fixed once enabled)`);
    case 'delete':
      // Disabling a method deletes everything below it, logins and tokens included.
      throw new Error(`${change.address}: lockstep never disables auth methods`);
    case 'transition':
      throw new Error(`${change.address}: auth mounts have no transitions`);
    default:
      assertNever(change.action);
  }
}
