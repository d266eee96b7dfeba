import type { JsonObject } from '../../core/json.js';
import { commaListOf } from '../../values/index.js';

/**
 * Which mounts of a namespace list which managed keys, from the `sys/mounts` and `sys/auth`
 * tables: `{ "transit/": ["k1"], "auth/ldap/": ["k2"] }`, only mounts that list any, sorted.
 * Nothing else of the tables is kept, so a saved plan goes stale only when key usage changes.
 */
export function keyUsers(mounts: JsonObject | null, auth: JsonObject | null): JsonObject {
  const entries: Array<[string, string[]]> = [
    ...listed(mounts, ''),
    ...listed(auth, 'auth/'),
  ];
  return Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function listed(table: JsonObject | null, prefix: string): Array<[string, string[]]> {
  const out: Array<[string, string[]]> = [];
  for (const [path, entry] of Object.entries(table ?? {})) {
    const keys = allowedKeys(entry);
    if (keys.length > 0) out.push([`${prefix}${path}`, keys]);
  }
  return out;
}

/** allowed_managed_keys of one mount entry (a list, or a comma string), trimmed and sorted. */
function allowedKeys(entry: unknown): string[] {
  if (entry === null || typeof entry !== 'object') return [];
  const config = (entry as { config?: unknown }).config;
  if (config === null || typeof config !== 'object') return [];
  const value = (config as { allowed_managed_keys?: unknown }).allowed_managed_keys;
  const items = value === undefined ? [] : (commaListOf(value) ?? []);
  return [...new Set(items.filter((v) => v !== ''))].sort();
}

/** The mounts (as listed in `users`) that list key `name`. */
export function mountsUsing(users: JsonObject | undefined, name: string): string[] {
  return Object.entries(users ?? {})
    .filter(([, keys]) => Array.isArray(keys) && keys.includes(name))
    .map(([path]) => path);
}
