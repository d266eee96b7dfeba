import { createHash } from 'node:crypto';
import type { StoreOp } from '../storage/journal.js';
import type { KvStore } from '../storage/kv-store.js';
import { addressAllowed } from '../../values/index.js';
import type { JsonObject } from '../util/json.js';
import { randomBase62 } from '../util/random.js';
import { goTime } from '../util/go-time.js';

export type TokenType = 'service' | 'batch';

/** A token as stored (under the SHA-256 of its id: the store never holds usable tokens). */
export interface TokenEntry {
  accessor: string;
  policies: string[];
  meta: Record<string, string> | null;
  display_name: string;
  /** Path of the login that issued it, within its namespace (`auth/ldap/login/alice`). */
  path: string;
  /** The namespace it was issued in ('' for the root; absent in entries stored before this field). */
  namespace?: string;
  entity_id: string;
  /** Unix seconds. */
  creation_time: number;
  creation_ttl: number;
  /** Epoch milliseconds; null: never expires (root). */
  expires_at_ms: number | null;
  explicit_max_ttl: number;
  period: number;
  /** Uses left; 0 is unlimited. */
  num_uses: number;
  bound_cidrs: string[];
  type: TokenType;
  orphan: boolean;
  renewable: boolean;
  /** Epoch milliseconds of its last renewal; absent until renewed. */
  last_renewal_ms?: number;
}

/** An authenticated token. */
export interface Caller {
  readonly token: string;
  readonly entry: TokenEntry;
  readonly isRoot: boolean;
}

export interface NewToken {
  policies: string[];
  displayName: string;
  path: string;
  /** The namespace of the issuing mount; '' (the default) is the root. */
  namespace?: string;
  meta?: Record<string, string>;
  entityId?: string;
  /** Seconds until expiry, already resolved (see token-ttl.ts). */
  ttl: number;
  explicitMaxTtl?: number;
  period?: number;
  numUses?: number;
  boundCidrs?: string[];
  type?: TokenType;
  /** Without a parent (logins, create-orphan); default true. */
  orphan?: boolean;
  /** Default: service tokens with a TTL are renewable. */
  renewable?: boolean;
  /**
   * The password of the login that issued it, for the method's renewal check (Vault keeps it
   * in the token's InternalData). Held in memory only: never stored, so never in `--data`.
   */
  loginPassword?: string;
}

/** The token's last use was taken by a concurrent request. */
export class TokenUsedUp extends Error {}

const TOKEN_PREFIX = 'sys/token/id/';

export class TokenStore {
  private readonly rootEntry: TokenEntry;
  /** Login passwords by storage key: in this process's memory only (see NewToken.loginPassword). */
  private readonly loginPasswords = new Map<string, string>();

  constructor(
    private readonly store: KvStore,
    readonly rootToken: string,
    rootCreatedAt: number,
    private readonly now: () => number = Date.now,
  ) {
    this.rootEntry = {
      accessor: randomBase62(24),
      policies: ['root'],
      meta: null,
      display_name: 'root',
      path: 'auth/token/root',
      entity_id: '',
      creation_time: Math.floor(rootCreatedAt / 1000),
      creation_ttl: 0,
      expires_at_ms: null,
      explicit_max_ttl: 0,
      period: 0,
      num_uses: 0,
      bound_cidrs: [],
      type: 'service',
      orphan: true,
      renewable: false,
    };
  }

  /** The token's entry when it exists, has not expired and may be used from this address. */
  authenticate(token: string | undefined, clientAddress: string): Caller | undefined {
    if (token === undefined) return undefined;
    if (token === this.rootToken) return { token, entry: this.rootEntry, isRoot: true };
    const entry = this.store.get(storageKey(token)) as TokenEntry | undefined;
    if (!entry) return undefined;
    if (entry.expires_at_ms !== null && entry.expires_at_ms <= this.now()) {
      this.loginPasswords.delete(storageKey(token));
      void this.store.delete(storageKey(token)).catch(() => undefined); // lazy clean-up; failure is harmless
      return undefined;
    }
    if (!addressAllowed(entry.bound_cidrs, clientAddress)) return undefined;
    return { token, entry, isRoot: entry.policies.includes('root') };
  }

  /**
   * Counts one use of a limited-use token. The caller that uses the last one is still served,
   * then the token is gone. Returns the caller as it stands after this use.
   */
  async use(caller: Caller): Promise<Caller> {
    if (caller.entry.num_uses === 0) return caller;
    // Re-read: a concurrent request may have used the token since it was authenticated.
    const current = this.store.get(storageKey(caller.token)) as TokenEntry | undefined;
    if (!current) throw new TokenUsedUp();
    const left = current.num_uses - 1;
    const entry = { ...current, num_uses: left };
    if (left === 0) {
      this.loginPasswords.delete(storageKey(caller.token));
      await this.store.delete(storageKey(caller.token));
      return { ...caller, entry }; // the service also shows 0 on the last use
    }
    await this.store.put(storageKey(caller.token), entry);
    return { ...caller, entry };
  }

  async create(params: NewToken): Promise<{ token: string; entry: TokenEntry }> {
    const type = params.type ?? 'service';
    const token = (type === 'batch' ? 'hvb.' : 'hvs.') + randomBase62(type === 'batch' ? 92 : 24);
    const now = this.now();
    const entry: TokenEntry = {
      accessor: type === 'batch' ? '' : randomBase62(24),
      policies: params.policies,
      meta: params.meta ?? null,
      display_name: params.displayName,
      path: params.path,
      namespace: params.namespace ?? '',
      entity_id: params.entityId ?? '',
      creation_time: Math.floor(now / 1000),
      creation_ttl: params.ttl,
      expires_at_ms: params.ttl > 0 ? now + params.ttl * 1000 : null,
      explicit_max_ttl: params.explicitMaxTtl ?? 0,
      period: params.period ?? 0,
      num_uses: params.numUses ?? 0,
      bound_cidrs: params.boundCidrs ?? [],
      type,
      orphan: params.orphan ?? true,
      renewable: type === 'service' && (params.renewable ?? true),
    };
    await this.store.put(storageKey(token), entry as unknown as JsonObject);
    if (params.loginPassword !== undefined && type === 'service') this.loginPasswords.set(storageKey(token), params.loginPassword);
    return { token, entry };
  }

  /** The password of the login that issued this token, while this process has it (not after a restart). */
  loginPassword(caller: Caller): string | undefined {
    return this.loginPasswords.get(storageKey(caller.token));
  }

  /**
   * Deletions of every stored token issued under a path prefix (`auth/ldap/`) of one namespace,
   * for one atomic write: disabling `team-a/auth/ldap` leaves the root's `auth/ldap` tokens alone.
   * Their login passwords are forgotten at once (a write that then fails leaves tokens that can
   * no longer renew, never a password kept for a token that is gone).
   */
  revocationsUnder(pathPrefix: string, namespace: string): StoreOp[] {
    const keys = this.store.keysUnder(TOKEN_PREFIX).filter((key) => {
      const entry = this.store.get(key) as TokenEntry | undefined;
      return entry !== undefined && (entry.namespace ?? '') === namespace && entry.path.startsWith(pathPrefix);
    });
    for (const key of keys) this.loginPasswords.delete(key);
    return keys.map((key) => ({ key, value: null }));
  }

  /** The entry of a token that exists and has not expired (auth/token/lookup); never the caller check of authenticate(). */
  lookup(token: string): Caller | undefined {
    if (token === this.rootToken) return { token, entry: this.rootEntry, isRoot: true };
    const entry = this.store.get(storageKey(token)) as TokenEntry | undefined;
    if (!entry || (entry.expires_at_ms !== null && entry.expires_at_ms <= this.now())) return undefined;
    return { token, entry, isRoot: entry.policies.includes('root') };
  }

  /**
   * The token with this accessor, for lookup-accessor: the store holds tokens only under their
   * hash, so the answer's `token` is '' (the service blanks the id of that answer anyway).
   */
  lookupAccessor(accessor: string): Caller | undefined {
    if (accessor === '') return undefined;
    if (accessor === this.rootEntry.accessor) return { token: '', entry: this.rootEntry, isRoot: true };
    for (const key of this.store.keysUnder(TOKEN_PREFIX)) {
      const entry = this.store.get(key) as TokenEntry | undefined;
      if (entry?.accessor !== accessor) continue;
      if (entry.expires_at_ms !== null && entry.expires_at_ms <= this.now()) return undefined;
      return { token: '', entry, isRoot: entry.policies.includes('root') };
    }
    return undefined;
  }

  /**
   * Renews a renewable token: its lease becomes the increment asked for (else its period, else
   * its original TTL) from now, capped by its explicit max TTL and, unless periodic, by the
   * system max TTL counted from its creation. Returns the new lease in seconds.
   */
  async renew(caller: Caller, incrementSeconds: number, systemMaxTtl: number): Promise<{ caller: Caller; ttl: number }> {
    const e = caller.entry;
    const now = this.now();
    const created = e.creation_time * 1000;
    let wanted = e.period > 0 ? e.period : incrementSeconds > 0 ? incrementSeconds : e.creation_ttl;
    let maxExpiry = e.period > 0 ? Number.POSITIVE_INFINITY : created + systemMaxTtl * 1000;
    if (e.explicit_max_ttl > 0) maxExpiry = Math.min(maxExpiry, created + e.explicit_max_ttl * 1000);
    const expiry = Math.min(now + wanted * 1000, maxExpiry);
    wanted = Math.max(0, Math.floor((expiry - now) / 1000));
    return { caller: await this.extend(caller, wanted), ttl: wanted };
  }

  /** The token's lease made `ttlSeconds` from now (a renewal whose lease was worked out elsewhere). */
  async extend(caller: Caller, ttlSeconds: number): Promise<Caller> {
    const now = this.now();
    const entry: TokenEntry = { ...caller.entry, expires_at_ms: now + ttlSeconds * 1000, last_renewal_ms: now };
    await this.store.put(storageKey(caller.token), entry as unknown as JsonObject);
    return { ...caller, entry };
  }

  async revoke(token: string): Promise<void> {
    this.loginPasswords.delete(storageKey(token));
    await this.store.delete(storageKey(token));
  }

  /** The lookup-self answer. */
  describe(caller: Caller): JsonObject {
    const e = caller.entry;
    const remaining = e.expires_at_ms === null ? 0 : Math.max(0, Math.floor((e.expires_at_ms - this.now()) / 1000));
    const data: JsonObject = {
      accessor: e.accessor,
      creation_time: e.creation_time,
      creation_ttl: e.creation_ttl,
      display_name: e.display_name,
      entity_id: e.entity_id,
      expire_time: e.expires_at_ms === null ? null : goTime(e.expires_at_ms),
      explicit_max_ttl: e.explicit_max_ttl,
      id: caller.token,
      issue_time: goTime(e.creation_time * 1000),
      // handleLookup shows the lease's last renewal once there is one.
      ...(e.last_renewal_ms === undefined
        ? {}
        : { last_renewal: goTime(e.last_renewal_ms), last_renewal_time: Math.floor(e.last_renewal_ms / 1000) }),
      meta: e.meta,
      num_uses: e.num_uses,
      orphan: e.orphan,
      path: e.path,
      policies: e.policies,
      renewable: e.renewable,
      ttl: remaining,
      type: e.type,
    };
    // The service adds these two only when they are set.
    if (e.period > 0) data.period = e.period;
    if (e.bound_cidrs.length > 0) data.bound_cidrs = e.bound_cidrs;
    return data;
  }
}

function storageKey(token: string): string {
  return TOKEN_PREFIX + createHash('sha256').update(token).digest('hex');
}
