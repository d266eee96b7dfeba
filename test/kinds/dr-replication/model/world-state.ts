/**
 * The in-memory world of the model-based tests: N clusters with the spec's DR state (modes,
 * cluster ids, activation tokens single-use/TTL/revocation, operation tokens and their
 * generation, wipes, which primary a secondary follows) plus the bookkeeping the properties
 * check. Requests are served by world-endpoints.ts; clients reach it through client.ts.
 */
export type Mode = 'disabled' | 'primary' | 'secondary';

export interface ActivationToken {
  token: string;
  id: string;
  issuer: string;
  clusterId: string;
  primaryClusterAddr: string;
  expiresAt: number;
  publicKey: string;
  used: boolean;
  revoked: boolean;
}

export interface Attempt {
  nonce: string;
  otp: string;
  progress: number;
  given: string[];
}

export interface WorldCluster {
  name: string;
  reachable: boolean;
  mode: Mode;
  clusterId: string;
  /** Its own cluster address (what a primary gives out when none is configured). */
  clusterAddr: string;
  /** Primary: the address given to secondaries. Secondary: its primary's; '' when it follows none. */
  primaryClusterAddr: string;
  knownSecondaries: Set<string>;
  secondaryId: string;
  /** A secondary that finished its initial sync (promote's safety check). */
  synced: boolean;
  /** Bumped by every wipe. */
  dataGeneration: number;
  publicKey: string | undefined;
  operationTokens: Set<string>;
  attempt: Attempt | undefined;
  /** A primary that was unreachable when another cluster became primary (the documented exception). */
  stalePrimary: boolean;
  wal: number;
  /** The release it reports in sys/health (an upgrade changes it). */
  release: string;
}

export interface GeneratedToken {
  cluster: string;
  delivered: boolean;
  deleted: boolean;
  deleteAttempted: boolean;
  apply: number;
}

export interface ApplyContextFlags {
  allowDestructive: boolean;
  allowUnreachablePrimary: boolean;
}

export const SHARES = ['0a1b2c3d4e5f60718293a4b5c6d7e8f9', 'q83v0ZTF4FbYx2mQp1kR9w==', 'ffeeddccbbaa99887766554433221100'];
export const SHARE_THRESHOLD = 2;
/** Share texts as the world accepts them: hex and base64 both decode to the same bytes. */
export const SHARE_BYTES = SHARES.map((s) => (/^[0-9a-f]+$/i.test(s) ? Buffer.from(s, 'hex') : Buffer.from(s, 'base64')).toString('hex'));

export class World {
  readonly clusters = new Map<string, WorldCluster>();
  readonly activation: ActivationToken[] = [];
  readonly generated = new Map<string, GeneratedToken>();
  /** Every secret text the world ever produced or holds: the canary set. */
  readonly secrets = new Set<string>(SHARES);
  readonly violations: string[] = [];
  /** Every request that reached a client (`cluster METHOD path`), faulted ones included. */
  readonly requests: string[] = [];
  /** Wipes (secondary enable) and orphanings (secondary/primary disable), with whether --allow-destructive was given. */
  readonly destructive: Array<{ cluster: string; what: string; allowed: boolean }> = [];
  clock = 0;
  applyNumber = 0;
  context: ApplyContextFlags | undefined;
  #counter = 0;

  constructor(names: readonly string[]) {
    for (const name of names) {
      this.clusters.set(name, {
        name,
        reachable: true,
        mode: 'disabled',
        clusterId: '',
        clusterAddr: `https://${name}.internal:8201`,
        primaryClusterAddr: '',
        knownSecondaries: new Set(),
        secondaryId: '',
        synced: false,
        dataGeneration: 0,
        publicKey: undefined,
        operationTokens: new Set(),
        attempt: undefined,
        stalePrimary: false,
        wal: 0,
        release: '1.21.0+ent',
      });
    }
  }

  cluster(name: string): WorldCluster {
    const c = this.clusters.get(name);
    if (!c) throw new Error(`no cluster ${name} in the world`);
    return c;
  }

  /** Deterministic unique text (the tests' randomness comes from fast-check only). */
  unique(prefix: string, length = 0): string {
    const base = `${prefix}${(++this.#counter).toString(36)}x`;
    return length > base.length ? base + 'Z'.repeat(length - base.length) : base;
  }

  secret(prefix: string, length = 0): string {
    const s = this.unique(prefix, length);
    this.secrets.add(s);
    return s;
  }

  /** Does secondary `s` follow primary `p` (registered, same set, pointed at it)? */
  follows(s: WorldCluster, p: WorldCluster): boolean {
    return (
      s.mode === 'secondary' &&
      p.mode === 'primary' &&
      s.clusterId === p.clusterId &&
      s.primaryClusterAddr !== '' &&
      s.primaryClusterAddr === p.primaryClusterAddr &&
      p.knownSecondaries.has(s.secondaryId)
    );
  }

  /** Time passes: secondaries that follow a reachable primary catch up. */
  tick(seconds = 600): void {
    this.clock += seconds;
    for (const s of this.clusters.values()) {
      const p = [...this.clusters.values()].find((c) => c.reachable && this.follows(s, c));
      if (p && s.reachable) s.synced = true;
    }
  }

  setReachable(name: string, reachable: boolean): void {
    this.cluster(name).reachable = reachable;
    this.checkPrimaries('a cluster came back');
  }

  /**
   * Called when `name` has just become primary (I2): any other reachable primary, of any set,
   * is a violation; an unreachable one becomes the documented stale primary, which only
   * --allow-unreachable-primary may create.
   */
  primaryCreated(name: string): void {
    for (const other of this.clusters.values()) {
      if (other.name === name || other.mode !== 'primary') continue;
      if (other.reachable) {
        this.violations.push(`${name} was made primary while ${other.name} (reachable) was primary`);
      } else {
        other.stalePrimary = true;
        if (!this.context?.allowUnreachablePrimary) this.violations.push(`${name} became primary while ${other.name} (unreachable) was primary, without --allow-unreachable-primary`);
      }
    }
    this.checkPrimaries(`${name} became primary`);
  }

  /**
   * (I1) Among reachable clusters, at most one primary per replication set (cluster id), a
   * documented stale primary (back after an unplanned failover) excepted until it is demoted.
   */
  checkPrimaries(when: string): void {
    const bySet = new Map<string, string[]>();
    for (const c of this.clusters.values()) {
      if (!c.reachable || c.mode !== 'primary' || c.stalePrimary) continue;
      bySet.set(c.clusterId, [...(bySet.get(c.clusterId) ?? []), c.name]);
    }
    for (const names of bySet.values()) if (names.length > 1) this.violations.push(`two primaries of one set (${names.join(', ')}) after: ${when}`);
  }

  wipe(c: WorldCluster): void {
    c.dataGeneration++;
    c.operationTokens.forEach((t) => this.tokenGone(t));
    c.operationTokens.clear();
    c.attempt = undefined;
    this.recordDestructive(c, 'wipe (secondary enable)');
  }

  recordDestructive(c: WorldCluster, what: string): void {
    this.destructive.push({ cluster: c.name, what, allowed: this.context?.allowDestructive === true });
  }

  tokenGone(token: string): void {
    const g = this.generated.get(token);
    if (g) g.deleted = true;
  }
}
