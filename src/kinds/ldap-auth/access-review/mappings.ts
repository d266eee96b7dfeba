import type { Address } from '../../../core/address.js';
import type { JsonObject, JsonValue } from '../../../core/json.js';
import type { Change } from '../../../core/plan.js';
import { canonicalName, type LocalUserMapping } from '../../../adapters/ldap/index.js';

/**
 * What one LDAP method decides a login with, on one side of the plan: its config (the
 * service's field names and value forms, as plan compares them) and its local groups and users
 * by stored name. `undefined` config: the method does not exist, so nobody logs in.
 */
export interface MethodMappings {
  config: JsonObject | undefined;
  groups: ReadonlyMap<string, readonly string[]>;
  users: ReadonlyMap<string, LocalUserMapping>;
}

/** The method's mappings as read from the server (the plan's observed objects); `config` when the caller has it already. */
export function mappingsBefore(method: Address, observed: Readonly<Record<string, JsonValue | null>>, config = configBefore(method, observed)): MethodMappings {
  const groups = new Map<string, readonly string[]>();
  const users = new Map<string, LocalUserMapping>();
  // Observed keys are Address texts (no address parsed for each of the plan's objects).
  const { groupsAt, usersAt } = memberPrefixes(method);
  for (const key of Object.keys(observed)) {
    const value = observed[key];
    if (!isObject(value)) continue;
    const group = memberOf(key, groupsAt);
    if (group !== undefined) groups.set(group, texts(value['policies']));
    const user = memberOf(key, usersAt);
    if (user !== undefined) users.set(user, { policies: texts(value['policies']), groups: texts(value['groups']) });
  }
  return { config, groups, users };
}

/** The mappings once the plan's changes under the method are made (what apply leaves); `config` when the caller has it already. */
export function mappingsAfter(method: Address, before: MethodMappings, changes: readonly Change[], config = configAfter(method, before.config, changes)): MethodMappings {
  const groups = new Map(before.groups);
  const users = new Map(before.users);
  const { groupsAt, usersAt } = memberPrefixes(method);
  for (const c of changes) {
    const after = afterOf(c);
    const group = memberOf(c.address.toString(), groupsAt);
    if (group !== undefined) {
      if (after) groups.set(group, texts(after['policies']));
      else groups.delete(group);
      continue;
    }
    const user = memberOf(c.address.toString(), usersAt);
    if (user !== undefined) {
      if (after) users.set(user, { policies: texts(after['policies']), groups: texts(after['groups']) });
      else users.delete(user);
    }
  }
  return { config, groups, users };
}

/** What a change of local mappings alone changes (affected-users.ts reads the users it can reach). */
export interface AffectedBy {
  /** Local groups whose policies change, added or deleted (stored names). */
  groups: ReadonlySet<string>;
  /** Local users that change, are added or deleted, or whose groups (before or after) name a changed group (stored names). */
  users: ReadonlySet<string>;
  /** case_sensitive_names, the same on both sides: how the login looks local groups up. */
  caseSensitive: boolean;
}

/** The local groups and users that differ between two sides with the same config, and the users whose groups name such a group. */
export function affectedBy(before: MethodMappings, after: MethodMappings, caseSensitive: boolean): AffectedBy {
  const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);
  const groups = changedKeys(before.groups, after.groups, sameList);
  const users = changedKeys(before.users, after.users, (a, b) => sameList(a.policies, b.policies) && sameList(a.groups, b.groups));
  // backend.go Login: a local user's groups are looked up lower-cased unless case-sensitive.
  const nameCase = { case_sensitive_names: caseSensitive };
  const localGroupOf = (g: string) => canonicalName(nameCase, g);
  for (const side of [before.users, after.users]) {
    for (const [name, user] of side) if (user.groups.some((g) => groups.has(localGroupOf(g)))) users.add(name);
  }
  return { groups, users, caseSensitive };
}

/** The keys on one side only, or whose values differ. */
function changedKeys<T>(before: ReadonlyMap<string, T>, after: ReadonlyMap<string, T>, same: (a: T, b: T) => boolean): Set<string> {
  const changed = new Set<string>();
  for (const [key, was] of before) {
    const is = after.get(key);
    if (is === undefined || !same(was, is)) changed.add(key);
  }
  for (const key of after.keys()) if (!before.has(key)) changed.add(key);
  return changed;
}

/** The method's config as read from the server; undefined when the method does not exist. */
export function configBefore(method: Address, observed: Readonly<Record<string, JsonValue | null>>): JsonObject | undefined {
  const config = observed[method.child('config').toString()];
  return isObject(config) ? config : undefined;
}

/** The method's config once the plan's changes are made (`before`: configBefore); undefined when it will not exist. */
export function configAfter(method: Address, before: JsonObject | undefined, changes: readonly Change[]): JsonObject | undefined {
  const configAt = method.child('config');
  let config = before;
  for (const c of changes) if (c.address.equals(configAt)) config = afterOf(c);
  return config;
}

function afterOf(c: Change): JsonObject | undefined {
  return c.action === 'delete' ? undefined : (c.after ?? undefined);
}

/** The texts a member of the method's groups and users starts with: the collection's address text and "/". */
function memberPrefixes(method: Address): { groupsAt: string; usersAt: string } {
  return { groupsAt: `${method.child('groups').toString()}/`, usersAt: `${method.child('users').toString()}/` };
}

/**
 * `name` when the address text `key` is `<collection>/<name>` (`prefix`: the collection's text
 * and "/"): no segment holds "/", so the name is what follows, if it has none.
 */
function memberOf(key: string, prefix: string): string | undefined {
  return key.startsWith(prefix) && key.length > prefix.length && !key.includes('/', prefix.length) ? key.slice(prefix.length) : undefined;
}

function isObject(v: JsonValue | null | undefined): v is JsonObject {
  return v !== null && v !== undefined && typeof v === 'object' && !Array.isArray(v);
}

function texts(v: JsonValue | undefined): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}
