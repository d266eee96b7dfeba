import { Address } from '../core/address.js';
import { sameFieldValue } from '../core/field-comparison.js';
import { copyJson, type JsonObject } from '../core/json.js';
import type { Change, Unmanaged } from '../core/plan.js';
import type { DesiredResource, DesiredState, LiveResource, LiveState, ManagedCollection } from '../core/resource.js';

export interface DiffOptions {
  /** `apply --sync-secrets`: re-send write-only fields of objects that otherwise match. */
  syncSecrets: boolean;
}

export interface DiffResult {
  changes: Change[];
  unmanaged: Unmanaged[];
}

/**
 * Compares desired with live objects, field by field, both already normalised the same way.
 * Pure: reads nothing, writes nothing, returns changes in address order (ordering by
 * dependencies is order/'s job).
 */
export function diffResources(desired: DesiredState, live: LiveState, opts: DiffOptions): DiffResult {
  // By address text: an AddressMap would wrap each of thousands of entries once more.
  const liveByAddress = new Map<string, LiveResource>();
  for (const r of live.resources) liveByAddress.set(r.address.toString(), r);

  const changes: Change[] = [];
  for (const want of desired.resources) {
    const have = liveByAddress.get(want.address.toString());
    const change = have ? updateOf(want, have, opts) : createOf(want);
    if (change) changes.push(change);
  }

  const unmanaged: Unmanaged[] = [];
  for (const { have, collection } of undeclaredMembers(desired, live)) {
    if (collection.prune) changes.push(deleteOf(have, collection.deleteLoses));
    else unmanaged.push({ address: have.address, resourceType: have.resourceType });
  }

  changes.sort((a, b) => Address.compare(a.address, b.address));
  unmanaged.sort((a, b) => Address.compare(a.address, b.address));
  return { changes, unmanaged };
}

/** The live objects directly in a managed collection, of its member type, that no desired object is. */
function undeclaredMembers(desired: DesiredState, live: LiveState): Array<{ have: LiveResource; collection: ManagedCollection }> {
  // Nothing read (an apply that creates everything) or no collection managed: none to look for.
  if (live.resources.length === 0 || desired.collections.length === 0) return [];
  // Each collection looks only at the objects directly below it: one pass over the live objects
  // for all collections (looking through every live object per collection grew as their product).
  const byParent = new Map<string, LiveResource[]>();
  for (const have of live.resources) {
    const key = parentKey(have.address);
    if (key === undefined) continue;
    const siblings = byParent.get(key);
    if (siblings) siblings.push(have);
    else byParent.set(key, [have]);
  }
  let declared: Set<string> | undefined;
  const found: Array<{ have: LiveResource; collection: ManagedCollection }> = [];
  for (const collection of desired.collections) {
    for (const have of byParent.get(collection.address.toString()) ?? []) {
      declared ??= new Set(desired.resources.map((r) => r.address.toString()));
      if (have.resourceType !== collection.memberType || declared.has(have.address.toString())) continue;
      found.push({ have, collection });
    }
  }
  return found;
}

/** The text of the address right above `a` (as Address.toString() writes it); none for a top-level one. */
function parentKey(a: Address): string | undefined {
  if (a.segments.length === 0) return undefined;
  // Segments never hold "/" (core/path-segment.ts): the last one starts after the last "/".
  const path = a.path;
  return `${a.cluster}:${path.slice(0, Math.max(0, path.lastIndexOf('/')))}`;
}

function writeOnlyNames(want: DesiredResource): string[] {
  return Object.keys(want.writeOnly).sort();
}

/** Write-only fields the manifest leaves unset: sent as `''` (a Secret, even an empty one, is set). */
function clearedNames(want: DesiredResource): string[] {
  return Object.keys(want.writeOnly)
    .filter((k) => want.writeOnly[k] === '')
    .sort();
}

/**
 * Write-only fields whose presence differs from what the server says it holds, when it says
 * (a managed key's pin reads back "redacted" when set): a secret to clear that the server
 * holds, or a secret the manifest sets that the server lacks. Values are never compared.
 * Without the server's word (the LDAP config) there is nothing to compare: a cleared field
 * then goes with the next write of its object, and `apply --sync-secrets` sends it now.
 */
function writeOnlyPresenceChanges(want: DesiredResource, have: LiveResource): string[] {
  if (have.writeOnlySet === undefined) return [];
  const held = new Set(have.writeOnlySet);
  return Object.keys(want.writeOnly).filter((k) => (want.writeOnly[k] === '') === held.has(k));
}

function createOf(want: DesiredResource): Change {
  return {
    address: want.address,
    resourceType: want.resourceType,
    action: 'create',
    reason: 'declared',
    before: null,
    after: copyJson(want.attrs),
    changedFields: Object.keys(want.attrs).sort(),
    writeOnlyFields: writeOnlyNames(want),
    sensitiveFields: [...want.sensitiveFields].sort(),
    clearedFields: clearedNames(want),
    destructive: false,
    dependsOn: [...want.dependsOn],
    guards: [],
    notes: [],
  };
}

/**
 * The fields an update of `have` to `want` changes (write-only ones by presence, when the server
 * says), sorted. Most objects match: nothing is built for them but an empty list.
 */
export function changedFieldsOf(want: DesiredResource, have: LiveResource): string[] {
  const lacked = lackedBy(have);
  const changedFields: string[] = [];
  for (const k of Object.keys(want.attrs)) {
    if (!lacked?.has(k) && !sameFieldValue(want.comparedAs?.[k], want.attrs[k], have.attrs[k])) changedFields.push(k);
  }
  changedFields.push(...writeOnlyPresenceChanges(want, have));
  return changedFields.sort();
}

/** What an update of `have` to `want` writes: the manifest's fields, less those the server's release lacks. */
export function writtenBy(want: DesiredResource, have: LiveResource): JsonObject {
  const lacked = lackedBy(have);
  return lacked ? Object.fromEntries(Object.entries(want.attrs).filter(([k]) => !lacked.has(k))) : want.attrs;
}

function lackedBy(have: LiveResource): ReadonlySet<string> | undefined {
  return have.lackedFields !== undefined && have.lackedFields.length > 0 ? new Set(have.lackedFields) : undefined;
}

function updateOf(want: DesiredResource, have: LiveResource, opts: DiffOptions): Change | undefined {
  const changedFields = changedFieldsOf(want, have);
  const writeOnly = writeOnlyNames(want);
  const resend = changedFields.length === 0 && opts.syncSecrets && writeOnly.length > 0;
  if (changedFields.length === 0 && !resend) return undefined;
  return {
    address: want.address,
    resourceType: want.resourceType,
    action: 'update',
    reason: resend ? 'sync-secrets' : 'declared',
    before: copyJson(have.attrs),
    after: copyJson(writtenBy(want, have)),
    changedFields,
    writeOnlyFields: writeOnly,
    sensitiveFields: [...want.sensitiveFields].sort(),
    clearedFields: clearedNames(want),
    destructive: false,
    dependsOn: [...want.dependsOn],
    guards: [],
    notes: [],
  };
}

function deleteOf(have: LiveResource, loses: string | undefined): Change {
  return {
    address: have.address,
    resourceType: have.resourceType,
    action: 'delete',
    reason: 'prune',
    before: copyJson(have.attrs),
    after: null,
    changedFields: Object.keys(have.attrs).sort(),
    writeOnlyFields: [],
    sensitiveFields: [],
    destructive: loses !== undefined,
    dependsOn: [],
    guards: [],
    notes: loses === undefined ? [] : [loses],
  };
}
