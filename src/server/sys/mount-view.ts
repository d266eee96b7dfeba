import { SYSTEM_DEFAULT_TTL, SYSTEM_MAX_TTL } from '../auth/token-ttl.js';
import { readDuration } from '../../values/index.js';
import { badRequest } from '../http/reply.js';
import { toList, toStr } from '../util/fields.js';
import type { JsonObject } from '../util/json.js';
import type { Release } from '../../values/index.js';
import { builtinPluginVersion } from '../version.js';
import type { MountEntry } from './mount-table.js';

/**
 * Types of the service's builtin plugin registry, whose mount entries carry a
 * `deprecation_status` (the token method and the system, identity and cubbyhole mounts are
 * not registry plugins and carry none).
 */
const REGISTRY_TYPES = new Set(['ldap', 'kv', 'jwt', 'approle']);

/**
 * How sys/auth and sys/mounts show a mount in their listings (vault/logical_system.go
 * mountInfo): `allowed_managed_keys` only when set, `deprecation_status` for registry plugins,
 * `running_plugin_version` as a builtin of this release.
 */
export function mountListing(mount: MountEntry, release: Release): JsonObject {
  const config: JsonObject = {
    default_lease_ttl: mount.config.default_lease_ttl,
    max_lease_ttl: mount.config.max_lease_ttl,
    force_no_cache: mount.config.force_no_cache,
  };
  if (mount.config.allowed_managed_keys.length > 0) config.allowed_managed_keys = mount.config.allowed_managed_keys;
  // mountInfo: passthrough_request_headers only when set.
  if (mount.config.passthrough_request_headers?.length) config.passthrough_request_headers = mount.config.passthrough_request_headers;
  if (mount.kind === 'auth') config.token_type = authTokenType(mount);
  const deprecation: JsonObject = REGISTRY_TYPES.has(mount.type) ? { deprecation_status: 'supported' } : {};
  return {
    ...deprecation,
    type: mount.type,
    description: mount.description,
    accessor: mount.accessor,
    uuid: mount.uuid,
    config,
    local: mount.local,
    seal_wrap: mount.seal_wrap,
    external_entropy_access: false,
    options: mount.options,
    plugin_version: '',
    running_plugin_version: builtinPluginVersion(release),
    running_sha256: '',
  };
}

/**
 * An auth mount's token_type (entry.Config.TokenType): an enabled method's is default-service
 * (handleEnableAuth: "" is TokenTypeDefaultService), and so is the root's token method's
 * (vault/auth.go setupCredentials sets it on `token` only); a namespace's `ns_token` keeps the
 * zero value, TokenTypeDefault, shown `default`.
 */
function authTokenType(mount: MountEntry): string {
  return mount.type === 'ns_token' ? 'default' : 'default-service';
}

/** Keyed by path, in path order (the service's JSON maps come out sorted). */
export function mountsListing(mounts: MountEntry[], release: Release): JsonObject {
  const sorted = [...mounts].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return Object.fromEntries(sorted.map((m) => [m.path, mountListing(m, release)]));
}

/** The tune read: effective lease TTLs (system values when unset). */
export function tuneView(mount: MountEntry): JsonObject {
  const view: JsonObject = {
    description: mount.description,
    default_lease_ttl: mount.config.default_lease_ttl || SYSTEM_DEFAULT_TTL,
    max_lease_ttl: mount.config.max_lease_ttl || SYSTEM_MAX_TTL,
    force_no_cache: mount.config.force_no_cache,
  };
  if (mount.config.allowed_managed_keys.length > 0) view.allowed_managed_keys = mount.config.allowed_managed_keys;
  if (mount.options && Object.keys(mount.options).length > 0) view.options = mount.options; // handleTuneReadCommon: len(Options) > 0
  if (mount.kind === 'auth') view.token_type = authTokenType(mount);
  return view;
}

/**
 * A tune write (vault/logical_system.go handleTuneWriteCommon): the members given replace the
 * stored ones, others are left alone. The lease TTLs are parsed by hand there, so a bad one is
 * refused with the parser's own words, and a max below the default (both set) is refused.
 */
export function applyTune(mount: MountEntry, body: JsonObject): MountEntry {
  const config = { ...mount.config };
  let description = mount.description;
  if ('description' in body) description = toStr('description', body.description);
  if ('default_lease_ttl' in body) config.default_lease_ttl = leaseTtl(body.default_lease_ttl) ?? config.default_lease_ttl;
  if ('max_lease_ttl' in body) config.max_lease_ttl = leaseTtl(body.max_lease_ttl) ?? config.max_lease_ttl;
  if (config.default_lease_ttl !== 0 && config.max_lease_ttl !== 0 && config.max_lease_ttl < config.default_lease_ttl) {
    throw badRequest(`backend max lease TTL of ${config.max_lease_ttl} would be less than backend default lease TTL of ${config.default_lease_ttl}`);
  }
  if ('allowed_managed_keys' in body) config.allowed_managed_keys = toList('allowed_managed_keys', body.allowed_managed_keys);
  return { ...mount, description, config };
}

/** "system" means the system value, stored as 0; "" (or null) leaves the stored value. */
function leaseTtl(value: unknown): number | undefined {
  if (value === 'system') return 0;
  if (value === '' || value === null) return undefined;
  const read = readDuration(value);
  if (read.kind === 'refused') throw badRequest(read.reason);
  return read.value.seconds;
}
