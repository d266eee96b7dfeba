/**
 * The one place that says what in an answer is legitimately random, per server and per run:
 * request ids, uuids, accessors, token ids, namespace ids, timestamps, cluster ids and names,
 * release versions, the seconds a TTL lost while the corpus ran, and the order of a LIST's keys. Each is replaced by a
 * placeholder that keeps what is not random (a token's prefix, a mount accessor's type), so a
 * difference there still shows.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
/** Service, batch and recovery tokens of both lineages: `hvs.` / `s.` and the rest. */
const TOKEN = /^(hvs|hvb|hvr|s|b|r)\.[A-Za-z0-9_-]{20,}(\.[A-Za-z0-9]+)?$/;
/** A mount's accessor: its type, then 8 random hex digits. */
const MOUNT_ACCESSOR = /^([a-z0-9_-]+?)_[0-9a-f]{8}$/;
/** A release version, `1.21.0+ent` or `2.6.2`, inside a plugin version too (`v2.6.2+builtin.bao`). */
const RELEASE = /\d+\.\d+\.\d+/;

/** Values at these keys are times wherever they are (numbers of seconds, or RFC 3339). */
const TIME_KEYS = new Set(['server_time_utc', 'creation_time', 'issue_time', 'expire_time', 'last_renewal_time', 'last_renewal', 'commit_date', 'build_date']);
/** Values at these keys are random per server (when not empty). */
const RANDOM_KEYS = new Set(['request_id', 'cluster_id', 'cluster_name', 'entity_id', 'lease_id']);
/** TTLs that count down while the corpus runs: compared to the minute. */
const COUNTDOWN_KEYS = new Set(['ttl']);
/** Versions at these keys (the rest of the string, e.g. `+builtin.bao`, is kept). */
const VERSION_KEYS = new Set(['version', 'running_plugin_version']);

export function normalise(value: unknown, key?: string): unknown {
  // A LIST's keys: OpenBao lists namespaces from a Go map, in no order.
  if (Array.isArray(value) && key === 'keys') return value.map((item) => normalise(item)).sort();
  if (Array.isArray(value)) return value.map((item) => normalise(item));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, normalise(v, k)]));
  }
  if (key !== undefined) {
    if (TIME_KEYS.has(key) && (typeof value === 'number' || (typeof value === 'string' && value !== ''))) return '<time>';
    if (RANDOM_KEYS.has(key) && typeof value === 'string' && value !== '') return `<${key}>`;
    if (COUNTDOWN_KEYS.has(key) && typeof value === 'number' && value > 0) return `<~${Math.round(value / 60) * 60}s>`;
    if (VERSION_KEYS.has(key) && typeof value === 'string') return value.replace(RELEASE, '<version>');
    if (key === 'accessor' && typeof value === 'string' && value !== '') return accessor(value);
    if (key === 'id' && typeof value === 'string' && value !== '' && !TOKEN.test(value)) return '<id>';
  }
  if (typeof value === 'string') {
    if (UUID.test(value)) return '<uuid>';
    if (RFC3339.test(value)) return '<time>';
    if (TOKEN.test(value)) return `<token ${value.split('.')[0]!}.>`;
  }
  return value;
}

function accessor(value: string): string {
  const mount = MOUNT_ACCESSOR.exec(value);
  return mount ? `${mount[1]!}_<hex>` : '<accessor>';
}
