/**
 * Small builders shared by the unit tests of the reconciler's pure core (core, diff, order,
 * apply, planfile, render): every object starts empty and a test overrides only what it is about.
 */
import { Address } from '../../src/core/address.js';
import type { JsonObject } from '../../src/core/json.js';
import { PLAN_FORMAT_VERSION, type Change, type Plan } from '../../src/core/plan.js';
import type { DesiredResource, DesiredState, LiveResource, LiveState, ManagedCollection } from '../../src/core/resource.js';
import type { Secret } from '../../src/core/secret.js';

/** `east:<path>`: every unit test lives on one cluster unless it says otherwise. */
export const east = (path: string): Address => new Address('east', path);

export function change(partial: Partial<Change> & Pick<Change, 'address' | 'action'>): Change {
  return {
    resourceType: 'test.object',
    reason: 'declared',
    before: null,
    after: null,
    changedFields: [],
    writeOnlyFields: [],
    sensitiveFields: [],
    destructive: false,
    dependsOn: [],
    guards: [],
    notes: [],
    ...partial,
  };
}

/** A create at `east:<path>` depending on `east:<dep>` for each dep. */
export function create(path: string, ...deps: string[]): Change {
  return change({ address: east(path), action: 'create', dependsOn: deps.map(east) });
}

export function del(path: string, reason: Change['reason'] = 'prune'): Change {
  return change({ address: east(path), action: 'delete', reason });
}

export function desired(
  address: Address,
  attrs: JsonObject,
  more: { resourceType?: string; writeOnly?: Record<string, Secret | string>; sensitiveFields?: string[]; dependsOn?: Address[] } = {},
): DesiredResource {
  return {
    address,
    resourceType: more.resourceType ?? 'test.object',
    attrs,
    writeOnly: more.writeOnly ?? {},
    sensitiveFields: more.sensitiveFields ?? [],
    dependsOn: more.dependsOn ?? [],
  };
}

export function live(address: Address, attrs: JsonObject, resourceType = 'test.object'): LiveResource {
  return { address, resourceType, attrs };
}

export function desiredState(resources: DesiredResource[], collections: ManagedCollection[] = []): DesiredState {
  return { resources, collections };
}

export function liveState(resources: LiveResource[]): LiveState {
  return { resources, observed: {}, notes: [] };
}

export function plan(changes: Change[], more: Partial<Plan> = {}): Plan {
  return { formatVersion: PLAN_FORMAT_VERSION, changes, unmanaged: [], notes: [], ...more };
}

/** Freezes a value and everything reachable from it, so a test fails on any mutation. */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value as object)) deepFreeze(v);
  }
  return value;
}

/** Every value reachable from `value` (objects, arrays and leaves), for "no X anywhere" checks. */
export function walk(value: unknown, visit: (v: unknown) => void): void {
  visit(value);
  if (value !== null && typeof value === 'object') for (const v of Object.values(value)) walk(v, visit);
}

/** Address strings of changes, for readable order assertions. */
export const addrs = (changes: readonly { address: Address }[]): string[] => changes.map((c) => String(c.address));
