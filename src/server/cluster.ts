import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { KeyBackendOptions } from '../adapters/kms/types.js';
import { TokenStore } from './auth/token-store.js';
import { loadIdentity } from './cluster-identity.js';
import type { FaultInjector } from './faults.js';
import type { Distance } from './http/distance.js';
import { MAX_HEADER_BYTES } from './http/head-rewriter.js';
import { ListFront } from './http/list-front.js';
import { createRequestListener } from './http/pipeline.js';
import { apiOrigin } from './replication/api-origin.js';
import { DrReplication } from './replication/dr-replication.js';
import type { KeySplit } from './replication/root-key.js';
import { resolveRoute, unroutedErrors } from './routes.js';
import type { ClusterServices } from './services.js';
import type { DecodedSnapshot } from './snapshots/format.js';
import { restoreInto } from './snapshots/restore.js';
import { SnapshotScheduler } from './snapshots/scheduler.js';
import { snapshotKeyOf, type SnapshotKey } from './snapshots/snapshot-key.js';
import { Barrier } from './storage/barrier.js';
import { lockDir, type DirLock } from './storage/dir-lock.js';
import { KvStore } from './storage/kv-store.js';
import { MountTable } from './sys/mount-table.js';
import { systemClock, type Clock } from './util/clock.js';
import type { Release } from '../values/index.js';
import { DEFAULT_RELEASE } from './version.js';

export interface ClusterOptions {
  name: string;
  host: string;
  /** 0: a random free port. */
  port: number;
  /** This cluster's own directory; in memory only when absent. */
  dir?: string;
  /** Fixed root token; otherwise the stored one, or a new random one. */
  rootToken?: string;
  /** A verified snapshot whose state replaces the store's before anything else reads it. */
  restore?: DecodedSnapshot;
  /** How managed keys reach their backends (managed-keys/options.ts). */
  keyBackends?: KeyBackendOptions;
  /** How the root key is split at the cluster's first start (default 1 share, threshold 1). */
  keySplit?: KeySplit;
  faults: FaultInjector;
  /** `serve --latency` / `--rate-limit`: this cluster's own (each cluster has its own quota). */
  distance?: Distance;
  log: (line: string) => void;
  /** Default: the system clock. */
  clock?: Clock;
  /** The release it reports (default: version.ts EMULATED_VERSION). */
  release?: Release;
}

/** One emulated cluster: its store, tokens, mounts and HTTP listener. */
export class Cluster implements ClusterServices {
  private constructor(
    readonly name: string,
    readonly id: string,
    readonly store: KvStore,
    readonly tokens: TokenStore,
    readonly mounts: MountTable,
    readonly log: (line: string) => void,
    readonly clock: Clock,
    private readonly lock: DirLock | undefined,
    private front: ListFront | undefined = undefined,
    private listeningPort = 0,
  ) {
    this.snapshots = new SnapshotScheduler(this, { clock });
  }

  /** Automated snapshots; started once the cluster listens, stopped by close(). */
  readonly snapshots: SnapshotScheduler;

  /** The root namespace; requests in other namespaces see a scoped view (namespaces/scope.ts). */
  readonly namespace = '';

  /** The release it reports; set by start(). */
  release: Release = DEFAULT_RELEASE;

  /** Set by start(). */
  keyBackends: KeyBackendOptions = {};

  /** DR replication; set by start(). */
  dr: DrReplication | undefined = undefined;

  /** The root key shares made at initialisation; `created`: that was this start. Set by start(). */
  initialisation = { keyShares: [] as string[], keyThreshold: 0, created: false };

  static async start(opts: ClusterOptions): Promise<Cluster> {
    const clock = opts.clock ?? systemClock;
    const lock = opts.dir === undefined ? undefined : await lockDir(opts.dir);
    let store: KvStore | undefined;
    try {
      const identity = await loadIdentity(opts.dir, opts.rootToken, opts.keySplit, clock.now());
      const opened = await KvStore.open(opts.dir === undefined ? undefined : { dir: opts.dir, barrier: new Barrier(Buffer.from(identity.storage_key, 'hex')) });
      store = opened.store;
      if (opened.droppedBytes > 0) {
        opts.log(`cluster ${opts.name}: ignored ${opened.droppedBytes} bytes of an incomplete last write in the store log`);
      }
      if (opts.restore) await restoreInto(store, opts.restore);
      const mounts = new MountTable(store);
      await mounts.ensureDefaults();
      const tokens = new TokenStore(store, identity.root_token, identity.created_at_ms, () => clock.now());
      const cluster = new Cluster(opts.name, identity.cluster_id, store, tokens, mounts, opts.log, clock, lock);
      cluster.keyBackends = opts.keyBackends ?? {};
      cluster.release = opts.release ?? DEFAULT_RELEASE;
      cluster.storageType = opts.dir === undefined ? 'inmem' : 'file';
      cluster.initialisation = { keyShares: identity.key_shares, keyThreshold: identity.key_threshold, created: identity.created };
      cluster.dr = await DrReplication.open(
        { clusterName: opts.name, store, mounts, log: opts.log, now: () => clock.now(), dir: opts.dir, apiAddr: () => apiOrigin(opts.host, cluster.port) },
        { root_key: identity.root_key, key_threshold: identity.key_threshold },
      );
      await cluster.listen(opts);
      cluster.dr.start();
      cluster.snapshots.start();
      return cluster;
    } catch (err) {
      await store?.close();
      await lock?.release();
      throw err;
    }
  }

  get keySplit(): { shares: number; threshold: number } {
    return { shares: this.initialisation.keyShares.length, threshold: this.initialisation.keyThreshold };
  }

  /** Set by start(): `file` when the cluster persists under a directory. */
  storageType = 'inmem';

  /** Snapshots are sealed with the root key of the data held: the cluster's own, or its DR set's. */
  snapshotKey(): SnapshotKey {
    if (!this.dr) throw new Error('cluster not started');
    return snapshotKeyOf(this.dr.dataKeys.root_key);
  }

  /** Requests received so far (benchmarks count requests per resource with it). */
  requestsServed = 0;

  get port(): number {
    return this.listeningPort;
  }

  get rootToken(): string {
    return this.tokens.rootToken;
  }

  /** Stops serving, lets pending writes become durable, releases the data directory. */
  async close(): Promise<void> {
    await this.dr?.close();
    await this.snapshots.stop();
    await this.front?.close();
    this.front = undefined;
    await this.store.close();
    await this.lock?.release();
  }

  private async listen(opts: ClusterOptions): Promise<void> {
    const listener = createRequestListener({
      cluster: this,
      faults: opts.faults,
      resolve: (path) => resolveRoute(this, path),
      unrouted: (path, operation) => unroutedErrors(this, path, operation),
      ...(opts.distance ? { distance: opts.distance } : {}),
    });
    const serve = (req: IncomingMessage, res: ServerResponse): void => {
      this.requestsServed++;
      listener(req, res);
    };
    // Go's header limit, not Node's 16 KB: a long path is the service's to answer (404), not a 431.
    const http = createHttpServer({ maxHeaderSize: MAX_HEADER_BYTES }, serve);
    // `Expect: 100-continue`: the pipeline sends 100 Continue only once it reads the body.
    http.on('checkContinue', serve);
    // Longer than clients' idle keep-alive, so the server is not the side closing mid-request.
    http.keepAliveTimeout = 65_000;
    http.headersTimeout = 66_000;
    this.front = new ListFront(http);
    this.listeningPort = await this.front.listen(opts.port, opts.host);
  }
}
