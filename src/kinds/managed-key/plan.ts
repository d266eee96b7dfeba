import { AddressMap } from '../../core/address.js';
import type { Change } from '../../core/plan.js';
import type { DesiredState, LiveResource, LiveState } from '../../core/resource.js';
import { diffResources } from '../../diff/diff.js';
import type { KindPlan, PlanFlags } from '../kind.js';
import { locateKey, scopeKey } from './addresses.js';
import { isDesiredManagedKey, KEY_DELETE_LOSES, type DesiredManagedKey } from './desired.js';
import { deleteRefusals } from './guard.js';
import { credentialNotes, writeOnlyNotes } from './notes.js';
import { MANAGED_KEY } from './types.js';


/**
 * The kind's plan hook. The generic diff, plus what it cannot know: a key whose type changed is
 * a replace (delete at the old type, then create at the new one, both destructive); every
 * delete is destructive and is refused at plan time while a mount lists the key in
 * allowed_managed_keys (the server would refuse it half-way through apply). Pure.
 */
export function planManagedKeys(desired: DesiredState, live: LiveState, flags: PlanFlags): KindPlan {
  const keys = desired.resources.filter(isDesiredManagedKey);
  const liveKeys = live.resources.filter((r) => r.resourceType === MANAGED_KEY);
  const diff = diffResources(desired, { ...live, resources: liveKeys }, { syncSecrets: flags.syncSecrets });

  const replaced = new AddressMap<DesiredManagedKey>();
  for (const key of keys) {
    const old = sameNameOtherType(key, liveKeys);
    if (old) replaced.set(old.address, key);
  }
  const changes: Change[] = [];
  for (const change of diff.changes) {
    if (change.action === 'delete' && replaced.has(change.address)) continue; // becomes the replace's delete
    // A delete is destructive already: the key collections say what it loses (desired.ts).
    changes.push(change.action === 'delete' ? change : withVerifyNote(change, keys));
  }
  for (const [oldAddress, key] of replaced.entries()) {
    const old = liveKeys.find((r) => r.address.equals(oldAddress))!;
    const i = changes.findIndex((c) => c.address.equals(key.address));
    if (i >= 0) changes[i] = replaceCreate(changes[i]!, old);
    changes.push(replaceDelete(old, key));
  }
  const unmanaged = diff.unmanaged.filter((u) => !replaced.has(u.address));
  return { changes, unmanaged, notes: [...credentialNotes(keys), ...writeOnlyNotes(keys, changes)], errors: deleteRefusals(changes, live) };
}

function sameNameOtherType(key: DesiredManagedKey, liveKeys: readonly LiveResource[]): LiveResource | undefined {
  return liveKeys.find((r) => {
    const at = locateKey(r.address);
    return at !== undefined && at.name === key.name && at.type !== key.keyType && scopeKey(at) === scopeKey(locateKey(key.address)!);
  });
}

function replaceCreate(create: Change, old: LiveResource): Change {
  const from = locateKey(old.address)!.type;
  return {
    ...create,
    reason: 'replace',
    destructive: true,
    dependsOn: [...create.dependsOn, old.address],
    notes: [...create.notes, `replaces the ${from} key of the same name (a key's type cannot change in place; names are unique across types)`],
  };
}

function replaceDelete(old: LiveResource, key: DesiredManagedKey): Change {
  return {
    address: old.address,
    resourceType: MANAGED_KEY,
    action: 'delete',
    reason: 'replace',
    before: structuredClone(old.attrs),
    after: null,
    changedFields: Object.keys(old.attrs).sort(),
    writeOnlyFields: [],
    sensitiveFields: [],
    destructive: true,
    dependsOn: [],
    guards: [],
    notes: [`type changes to ${key.keyType}: the key is deleted, then created as ${key.address}`, KEY_DELETE_LOSES],
  };
}

function withVerifyNote(change: Change, keys: readonly DesiredManagedKey[]): Change {
  const key = keys.find((k) => k.address.equals(change.address));
  if (!key?.verify || (change.action !== 'create' && change.action !== 'update')) return change;
  const options = [key.verify.hash_algorithm, key.verify.use_pss ? 'PSS' : undefined].filter(Boolean).join(', ');
  return { ...change, notes: [...change.notes, `then test/sign${options ? ` (${options})` : ''}: a key that cannot sign fails the apply`] };
}

