import { Address } from '../core/address.js';
import { sameFieldValue } from '../core/field-comparison.js';
import { copyJson } from '../core/json.js';
import type { Change, Unmanaged } from '../core/plan.js';
import type { DesiredResource, DesiredState, LiveResource, LiveState } from '../core/resource.js';

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
  return new LiveDiff(desired, opts).finish(live);
}

/**
 * diffResources, fed the live objects one by one as they are read (the engine compares each
 * while the other reads are in flight: engine/idle-work.ts), then finished with the whole live
 * state. The result is diffResources's whatever was fed, in whatever order: objects never fed
 * are compared at the end, and an address met twice (which no read makes) has the whole live
 * state compared again, in its order, as diffResources always did. Nothing fed (an apply that
 * creates everything reads next to nothing), the desired objects are never indexed.
 */
export class LiveDiff {
  readonly #desired: DesiredState;
  readonly #opts: DiffOptions;
  /** Desired objects by address text (the last one of an address, as an AddressMap keeps), once something is fed. */
  readonly #wanted = new Map<string, DesiredResource>();
  #indexed = 0;
  /** Each live object fed, by address text, with its comparison against #wanted's. */
  #compared = new Map<string, { have: LiveResource; change: Change | undefined }>();
  /** The live objects fed directly below each address (text), for the collections' unmanaged objects. */
  #byParent = new Map<string, LiveResource[]>();
  #fed = new Set<LiveResource>();
  #addressMetTwice = false;

  constructor(desired: DesiredState, opts: DiffOptions) {
    this.#desired = desired;
    this.#opts = opts;
  }

  /** Indexes up to `count` more desired objects; false once all are. (Lets the index be built in slices too.) */
  indexSome(count: number): boolean {
    const resources = this.#desired.resources;
    const end = Math.min(resources.length, this.#indexed + count);
    for (let i = this.#indexed; i < end; i++) this.#wanted.set(resources[i]!.address.toString(), resources[i]!);
    this.#indexed = end;
    return end < resources.length;
  }

  /** Compares one live object with its desired counterpart, now. */
  feed(have: LiveResource): void {
    // The same object told twice is compared once.
    if (this.#fed.has(have)) return;
    this.indexSome(Infinity);
    const key = have.address.toString();
    const earlier = this.#compared.get(key);
    if (earlier !== undefined && earlier.have !== have) this.#addressMetTwice = true;
    this.#fed.add(have);
    const want = this.#wanted.get(key);
    this.#compared.set(key, { have, change: want ? updateOf(want, have, this.#opts) : undefined });
    const parent = parentKey(have.address);
    if (parent === undefined) return;
    const siblings = this.#byParent.get(parent);
    if (siblings) siblings.push(have);
    else this.#byParent.set(parent, [have]);
  }

  /** The changes and unmanaged objects, given every live object read. */
  finish(live: LiveState): DiffResult {
    if (this.#fed.size === 0) return this.#allAtOnce(live);
    for (const have of live.resources) if (!this.#fed.has(have)) this.feed(have);
    if (this.#addressMetTwice) this.#again(live);

    const changes: Change[] = [];
    for (const want of this.#desired.resources) {
      const key = want.address.toString();
      const compared = this.#compared.get(key);
      // An address declared twice (validation refuses it) is compared for each of its declarations.
      const change = compared === undefined ? createOf(want) : this.#wanted.get(key) === want ? compared.change : updateOf(want, compared.have, this.#opts);
      if (change) changes.push(change);
    }
    return this.#withUndeclared(changes, this.#byParent, (key) => this.#wanted.has(key));
  }

  /** Nothing was fed: each desired object looks its live one up (no index of the desired ones). */
  #allAtOnce(live: LiveState): DiffResult {
    const liveByAddress = new Map<string, LiveResource>();
    for (const r of live.resources) liveByAddress.set(r.address.toString(), r);
    const changes: Change[] = [];
    for (const want of this.#desired.resources) {
      const have = liveByAddress.get(want.address.toString());
      const change = have ? updateOf(want, have, this.#opts) : createOf(want);
      if (change) changes.push(change);
    }
    let declared: Set<string> | undefined;
    const isDeclared = (key: string): boolean => (declared ??= new Set(this.#desired.resources.map((r) => r.address.toString()))).has(key);
    return this.#withUndeclared(changes, byParentOf(live.resources, this.#desired), isDeclared);
  }

  /**
   * The live objects directly in a managed collection, of its member type, that no desired
   * object is: a delete each where the collection is pruned, else unmanaged. Sorted by address.
   */
  #withUndeclared(changes: Change[], byParent: ReadonlyMap<string, readonly LiveResource[]>, isDeclared: (key: string) => boolean): DiffResult {
    const unmanaged: Unmanaged[] = [];
    // Each collection looks only at the objects directly below it (looking through every live
    // object per collection grew as their product).
    for (const collection of this.#desired.collections) {
      for (const have of byParent.get(collection.address.toString()) ?? []) {
        if (have.resourceType !== collection.memberType || isDeclared(have.address.toString())) continue;
        if (collection.prune) changes.push(deleteOf(have, collection.deleteLoses));
        else unmanaged.push({ address: have.address, resourceType: have.resourceType });
      }
    }
    changes.sort((a, b) => Address.compare(a.address, b.address));
    unmanaged.sort((a, b) => Address.compare(a.address, b.address));
    return { changes, unmanaged };
  }

  /** Everything compared again from the live state, in its order: the last object of an address counts. */
  #again(live: LiveState): void {
    this.#compared = new Map();
    this.#byParent = new Map();
    this.#fed = new Set();
    for (const have of live.resources) this.feed(have);
  }
}

/** The live objects by the text of the address right above them; none when no collection is managed (nothing would look). */
function byParentOf(resources: readonly LiveResource[], desired: DesiredState): Map<string, LiveResource[]> {
  const byParent = new Map<string, LiveResource[]>();
  if (desired.collections.length === 0) return byParent;
  for (const have of resources) {
    const key = parentKey(have.address);
    if (key === undefined) continue;
    const siblings = byParent.get(key);
    if (siblings) siblings.push(have);
    else byParent.set(key, [have]);
  }
  return byParent;
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

function updateOf(want: DesiredResource, have: LiveResource, opts: DiffOptions): Change | undefined {
  // Most objects match: nothing is built for them but the (empty) list of changed fields.
  const lacked = have.lackedFields !== undefined && have.lackedFields.length > 0 ? new Set(have.lackedFields) : undefined;
  const changedFields: string[] = [];
  for (const k of Object.keys(want.attrs)) {
    if (!lacked?.has(k) && !sameFieldValue(want.comparedAs?.[k], want.attrs[k], have.attrs[k])) changedFields.push(k);
  }
  changedFields.push(...writeOnlyPresenceChanges(want, have));
  changedFields.sort();
  const writeOnly = writeOnlyNames(want);
  const resend = changedFields.length === 0 && opts.syncSecrets && writeOnly.length > 0;
  if (changedFields.length === 0 && !resend) return undefined;
  const after = lacked ? Object.fromEntries(Object.entries(want.attrs).filter(([k]) => !lacked.has(k))) : want.attrs;
  return {
    address: want.address,
    resourceType: want.resourceType,
    action: 'update',
    reason: resend ? 'sync-secrets' : 'declared',
    before: copyJson(have.attrs),
    after: copyJson(after),
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
