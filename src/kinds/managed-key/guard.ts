import type { JsonObject } from '../../core/json.js';
import type { Change, Refusal } from '../../core/plan.js';
import type { LiveState } from '../../core/resource.js';
import { locateKey, usersAddress } from './addresses.js';
import { MANAGED_KEY_USERS } from './types.js';
import { mountsUsing } from './users.js';

/** Deletes of keys that a mount still lists: refused, naming the mounts. */
export function deleteRefusals(changes: readonly Change[], live: LiveState): Refusal[] {
  const users = new Map<string, JsonObject>();
  for (const r of live.resources) if (r.resourceType === MANAGED_KEY_USERS) users.set(r.address.toString(), r.attrs);
  return changes.flatMap((c) => {
    const at = c.action === 'delete' ? locateKey(c.address) : undefined;
    if (!at) return [];
    const mounts = mountsUsing(users.get(usersAddress(at).toString()), at.name);
    if (mounts.length === 0) return [];
    return [
      {
        address: c.address,
        message: `${c.address}: cannot delete managed key "${at.name}" (${c.reason}): it is listed in allowed_managed_keys of ${mounts.length === 1 ? 'mount' : 'mounts'} ${mounts.join(', ')}; remove it there first`,
      },
    ];
  });
}
