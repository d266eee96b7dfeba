import type { KvStore } from '../storage/kv-store.js';
import type { StoreOp } from '../storage/journal.js';
import type { JsonObject } from '../util/json.js';
import { randomHex, newUuid } from '../util/random.js';
import { badRequest } from '../http/reply.js';

export type MountKind = 'auth' | 'secret';

interface MountConfig {
  default_lease_ttl: number;
  max_lease_ttl: number;
  force_no_cache: boolean;
  allowed_managed_keys: string[];
  /** Set on the built-in sys/ and identity/ mounts only (vault/mount.go requiredMountTable). */
  passthrough_request_headers?: string[];
}

/** An enabled auth method or mounted secrets engine. */
export interface MountEntry {
  kind: MountKind;
  /** With a trailing slash and without `auth/`: "ldap/", "secret/". */
  path: string;
  type: string;
  description: string;
  accessor: string;
  /** Its data lives under `<auth|logical>/<uuid>/`, so a re-enabled path starts empty. */
  uuid: string;
  local: boolean;
  seal_wrap: boolean;
  options: Record<string, string> | null;
  config: MountConfig;
}

export interface NewMount {
  type: string;
  description?: string;
  local?: boolean;
  seal_wrap?: boolean;
  options?: Record<string, string> | null;
  config?: Partial<MountConfig>;
}

const TABLE_KEYS: Record<MountKind, string> = { auth: 'core/auth', secret: 'core/mounts' };

/** Mounts every cluster starts with (a dev-mode server's set). */
const DEFAULT_MOUNTS: Array<NewMount & { kind: MountKind; path: string }> = [
  { kind: 'auth', path: 'token/', type: 'token', description: 'token based credentials' },
  { kind: 'secret', path: 'cubbyhole/', type: 'cubbyhole', description: 'per-token private secret storage', local: true },
  { kind: 'secret', path: 'identity/', type: 'identity', description: 'identity store', config: { passthrough_request_headers: ['Authorization'] } },
  { kind: 'secret', path: 'secret/', type: 'kv', description: 'key/value secret storage', options: { version: '2' } },
  // vault/mount.go requiredMountTable: the system mount is seal-wrapped and passes Accept through.
  { kind: 'secret', path: 'sys/', type: 'system', description: 'system endpoints used for control, policy and debugging', seal_wrap: true, config: { passthrough_request_headers: ['Accept'] } },
];

/** Built-in mounts that cannot be removed or mounted twice, and their namespace variants (vault/mount.go singletonMounts). */
const RESERVED_TYPES = new Set(['token', 'cubbyhole', 'identity', 'system', 'ns_token', 'ns_cubbyhole', 'ns_identity', 'ns_system']);

/** Where a namespace's tables live; the root namespace's are `core/auth` and `core/mounts`. */
export interface MountTableScope {
  /** Prefix of the table keys: '' for the root namespace. */
  keyPrefix: string;
  /** The table of a namespace nothing was written to yet (see namespaces/); default empty. */
  initial?: (kind: MountKind) => MountEntry[];
}

/** The mount tables, kept in the store (`core/auth`, `core/mounts`) like the service does. */
export class MountTable {
  constructor(
    private readonly store: KvStore,
    private readonly scope: MountTableScope = { keyPrefix: '' },
  ) {}

  private tableKey(kind: MountKind): string {
    return this.scope.keyPrefix + TABLE_KEYS[kind];
  }

  /** Writes the default tables into a store that has none (a new cluster). */
  async ensureDefaults(): Promise<void> {
    const ops: StoreOp[] = [];
    for (const kind of ['auth', 'secret'] as const) {
      if (this.store.get(this.tableKey(kind)) !== undefined) continue;
      const entries = DEFAULT_MOUNTS.filter((m) => m.kind === kind).map((m) => newEntry(kind, m.path, m));
      ops.push({ key: this.tableKey(kind), value: entries as unknown as JsonObject[] });
    }
    if (ops.length > 0) await this.store.write(ops);
  }

  list(kind: MountKind): MountEntry[] {
    return (this.store.get(this.tableKey(kind)) as MountEntry[] | undefined) ?? this.scope.initial?.(kind) ?? [];
  }

  /** Exact lookup; `path` with or without the trailing slash. */
  get(kind: MountKind, path: string): MountEntry | undefined {
    const wanted = normalisePath(path);
    return this.list(kind).find((m) => m.path === wanted);
  }

  /**
   * The mount `path` falls in, by longest prefix (vault/router.go MatchingMountEntry, which
   * logical_system.go handleReadMount asks): `secret/`, `secret/x` and `secret/tune/` are in `secret/`.
   */
  matching(kind: MountKind, path: string): MountEntry | undefined {
    const wanted = normalisePath(path);
    let best: MountEntry | undefined;
    for (const mount of this.list(kind)) {
      if (wanted.startsWith(mount.path) && (!best || mount.path.length > best.path.length)) best = mount;
    }
    return best;
  }

  /** The auth mount serving `path` (given after "auth/"), by longest prefix. */
  resolveAuth(path: string): { mount: MountEntry; rest: string } | undefined {
    let best: MountEntry | undefined;
    for (const mount of this.list('auth')) {
      if ((path + '/').startsWith(mount.path) && (!best || mount.path.length > best.path.length)) best = mount;
    }
    if (!best) return undefined;
    return { mount: best, rest: path.slice(best.path.length) };
  }

  async mount(kind: MountKind, path: string, spec: NewMount): Promise<MountEntry> {
    const normalised = normalisePath(path);
    if (normalised === '/') throw badRequest('path cannot be empty');
    if (RESERVED_TYPES.has(spec.type)) throw badRequest(`cannot mount a new "${spec.type}" backend`);
    const entries = this.list(kind);
    const clash = entries.find((m) => normalised.startsWith(m.path) || m.path.startsWith(normalised));
    // vault/auth.go enableCredentialInternal and vault/mount.go mountInternal return a
    // CodedError(409), but logical_system.go handleError answers it with an error response too,
    // and sdk/logical/response_util.go RespondErrorCommon then answers that response's text with
    // 400: the coded error, and its 409, never reach the client.
    if (clash) throw badRequest(`path is already in use at ${clash.path}`);
    const entry = newEntry(kind, normalised, spec);
    await this.store.put(this.tableKey(kind), [...entries, entry] as unknown as JsonObject[]);
    return entry;
  }

  /**
   * Removes the mount and all of its data at once, with `alsoRemove` (e.g. the tokens it
   * issued) in the same atomic write; absent paths are fine (as the service).
   */
  async unmount(kind: MountKind, path: string, alsoRemove: (entry: MountEntry) => StoreOp[] = () => []): Promise<void> {
    const entries = this.list(kind);
    const entry = entries.find((m) => m.path === normalisePath(path));
    if (!entry) return;
    if (RESERVED_TYPES.has(entry.type)) throw badRequest(`cannot unmount "${entry.path}"`);
    const remaining = entries.filter((m) => m !== entry);
    const dataOps = this.store.keysUnder(storagePrefix(entry)).map((key): StoreOp => ({ key, value: null }));
    await this.store.write([{ key: this.tableKey(kind), value: remaining as unknown as JsonObject[] }, ...dataOps, ...alsoRemove(entry)]);
  }

  async tune(kind: MountKind, path: string, change: (entry: MountEntry) => MountEntry): Promise<void> {
    const entries = this.list(kind);
    const entry = entries.find((m) => m.path === normalisePath(path));
    if (!entry) throw badRequest(`cannot tune non-existent mount: ${normalisePath(path)}`);
    const updated = entries.map((m) => (m === entry ? change(m) : m));
    await this.store.put(this.tableKey(kind), updated as unknown as JsonObject[]);
  }
}

/** Where a mount's own data lives in the store. */
export function storagePrefix(mount: MountEntry): string {
  return `${mount.kind === 'auth' ? 'auth' : 'logical'}/${mount.uuid}/`;
}

/** "ldap", "/ldap/" and "ldap/" are one path: "ldap/". */
function normalisePath(path: string): string {
  return path.replace(/^\/+/, '').replace(/\/*$/, '/');
}

function newEntry(kind: MountKind, path: string, spec: NewMount): MountEntry {
  return {
    kind,
    path,
    type: spec.type,
    description: spec.description ?? '',
    accessor: `${kind === 'auth' ? 'auth_' : ''}${spec.type}_${randomHex(4)}`,
    uuid: newUuid(),
    local: spec.local ?? false,
    seal_wrap: spec.seal_wrap ?? false,
    options: spec.options ?? null,
    config: {
      default_lease_ttl: spec.config?.default_lease_ttl ?? 0,
      max_lease_ttl: spec.config?.max_lease_ttl ?? 0,
      force_no_cache: spec.config?.force_no_cache ?? false,
      allowed_managed_keys: spec.config?.allowed_managed_keys ?? [],
      ...(spec.config?.passthrough_request_headers ? { passthrough_request_headers: spec.config.passthrough_request_headers } : {}),
    },
  };
}
