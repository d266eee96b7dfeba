/**
 * The embedded server (`lockstep serve`): a faithful emulator of the secrets service's
 * administrative API, one independent cluster per name, each on its own port. Usable by any
 * HTTP client; nothing here depends on the reconciler.
 */
import { join } from 'node:path';
import { SYSTEM_DEFAULT_TTL } from './auth/token-ttl.js';
import type { TokenType } from './auth/token-store.js';
import { Cluster } from './cluster.js';
import { FaultInjector, type FaultRule } from './faults.js';
import { Distance } from './http/distance.js';
import type { KeyBackendOptions } from '../adapters/kms/types.js';
import { resolveKeyBackendOptions } from './managed-keys/options.js';
import { loadRestores, type RestoreOption } from './snapshots/restore.js';
import { writeInitOut } from './replication/init-out.js';
import { ensurePrivateDir } from './storage/private-dir.js';
import { defaultedKeySplit, keySplitProblem } from './replication/root-key.js';
import type { Clock } from './util/clock.js';
import { readRelease, type Release } from '../values/index.js';

export type { FaultRule } from './faults.js';
export { parseRestoreSpecs, type RestoreOption } from './snapshots/restore.js';
export { readInitOutKeyShares } from './replication/init-out.js';
export type { Clock, Timer } from './util/clock.js';

export interface ServerOptions {
  /** Cluster names (default ['default']). */
  clusters?: string[];
  /** Port of the first cluster, the next ones follow (port+1, ...); 0: a random port for each. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Persist under this directory, one sub-directory per cluster; in memory when absent. */
  dataDir?: string;
  /** The root token of every cluster; otherwise each keeps its stored one or gets a random one. */
  rootToken?: string;
  /** Receives operational log lines (never request bodies). */
  log?: (line: string) => void;
  /**
   * Start from snapshots: a file for the first cluster, or files by cluster name. Each is
   * verified before any cluster starts; its state replaces the cluster's (also under dataDir).
   */
  restore?: RestoreOption;
  /**
   * Key shares (hex or base64) that open snapshots sealed by other clusters: one list per root
   * key (`serve --restore-keys FILE` reads them from a file --init-out wrote). A cluster's own
   * root key and its DR set's are always at hand.
   */
  restoreKeys?: string[][];
  /** kms_library stanzas, NAME → PATH (`serve --kms-library NAME=PATH`), for pkcs11 managed keys. */
  kmsLibraries?: Record<string, string>;
  /**
   * How managed keys reach their backends (endpoint overrides, extra CAs, environment for the
   * spec's PROVA_/PROVC_ fallbacks); default: from the process environment (managed-keys/options.ts).
   */
  keyBackends?: KeyBackendOptions;
  /** Root key shares made at a cluster's first start (default 1). */
  keyShares?: number;
  /** Shares that rebuild the root key (default 1; at least 2 when there are several shares). */
  keyThreshold?: number;
  /** Writes each cluster's address, root token and root key shares here as JSON (mode 0600). */
  initOut?: string;
  /**
   * The time every cluster lives by: timestamps, token and activation-token lifetimes, snapshot
   * schedules. Default: the system clock; tests pass one they advance themselves.
   */
  clock?: Clock;
  /** `serve --latency MS`: every answer leaves this long after its request came (http/distance.ts). */
  latencyMs?: number;
  /** `serve --rate-limit N`: 429 with Retry-After beyond N requests in flight, per cluster. */
  rateLimit?: number;
  /**
   * The release each named cluster reports (`serve --cluster-version NAME=VERSION`), e.g.
   * `1.21.1+ent`; the others report version.ts EMULATED_VERSION. An upgrade is rehearsed by
   * starting again on the same `dataDir` with another release, as the service is upgraded.
   */
  clusterVersions?: Record<string, string>;
  /** Tests: how the latency is waited for (default: a timer). */
  wait?: (ms: number) => Promise<void>;
}

export interface RunningCluster {
  name: string;
  port: number;
  /** http://<host>:<port>/v1 */
  baseUrl: string;
  rootToken: string;
  /** The root key shares (hex) made when the cluster was initialised; DR secondaries use their primary's. */
  keyShares: string[];
  keyThreshold: number;
  /** Initialised by this start (`serve` shows the shares only then). */
  initialised: boolean;
}

/** A token to create directly (tests): not reachable over HTTP. */
export interface MintTokenOptions {
  cluster?: string;
  policies: string[];
  /** Seconds; default 768h. */
  ttl?: number;
  numUses?: number;
  boundCidrs?: string[];
  type?: TokenType;
  period?: number;
  explicitMaxTtl?: number;
  displayName?: string;
  meta?: Record<string, string>;
}

export interface RunningServer {
  clusters: RunningCluster[];
  /** Test hook: matching requests fail with the rule's status instead of being served. */
  injectFault(rule: FaultRule): void;
  clearFaults(): void;
  /** Test hook: creates a token in a cluster's token store; returns the token. */
  mintToken(options: MintTokenOptions): Promise<string>;
  /** Requests received by all clusters so far, and those refused by `rateLimit` (benchmarks). */
  stats(): { requests: number; refused: number };
  close(): Promise<void>;
}

const CLUSTER_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

export async function startServer(opts: ServerOptions = {}): Promise<RunningServer> {
  const names = opts.clusters ?? ['default'];
  checkNames(names);
  const host = opts.host ?? '127.0.0.1';
  const firstPort = opts.port ?? 0;
  const log = opts.log ?? (() => undefined);
  const faults = new FaultInjector();
  // Checked before anything is read from it or written to it.
  if (opts.dataDir !== undefined) await ensurePrivateDir(opts.dataDir);
  const restores = await loadRestores(opts.restore, names, {
    shares: opts.restoreKeys ?? [],
    dirOf: (name) => (opts.dataDir === undefined ? undefined : join(opts.dataDir, name)),
  });
  const releases = clusterReleases(opts.clusterVersions ?? {}, names);
  const keyBackends = resolveKeyBackendOptions(opts);
  const keySplit = defaultedKeySplit(opts.keyShares, opts.keyThreshold);
  const splitProblem = keySplitProblem(keySplit);
  if (splitProblem) throw new Error(`invalid key shares: ${splitProblem}`);
  const distanced = (opts.latencyMs ?? 0) > 0 || opts.rateLimit !== undefined;
  const distances = names.map(() =>
    distanced
      ? new Distance({ latencyMs: opts.latencyMs ?? 0, ...(opts.rateLimit !== undefined ? { rateLimit: opts.rateLimit } : {}), ...(opts.wait ? { wait: opts.wait } : {}) })
      : undefined,
  );
  const started: Cluster[] = [];
  try {
    for (const [i, name] of names.entries()) {
      started.push(
        await Cluster.start({
          name,
          host,
          port: firstPort === 0 ? 0 : firstPort + i,
          dir: opts.dataDir === undefined ? undefined : join(opts.dataDir, name),
          rootToken: opts.rootToken,
          restore: restores.get(name),
          keyBackends,
          keySplit,
          faults,
          ...(distances[i] ? { distance: distances[i] } : {}),
          log,
          clock: opts.clock,
          ...(releases.has(name) ? { release: releases.get(name)! } : {}),
        }),
      );
    }
  } catch (err) {
    await Promise.all(started.map((c) => c.close()));
    throw err;
  }

  const urlHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  let closing: Promise<void> | undefined;
  const clusters: RunningCluster[] = started.map((c) => ({
    name: c.name,
    port: c.port,
    baseUrl: `http://${urlHost}:${c.port}/v1`,
    rootToken: c.rootToken,
    keyShares: c.initialisation.keyShares,
    keyThreshold: c.initialisation.keyThreshold,
    initialised: c.initialisation.created,
  }));
  if (opts.initOut !== undefined) {
    try {
      await writeInitOut(opts.initOut, clusters);
    } catch (err) {
      await Promise.all(started.map((c) => c.close()));
      throw err;
    }
  }
  return {
    clusters,
    injectFault: (rule) => faults.add(rule),
    clearFaults: () => faults.clear(),
    mintToken: async (options) => {
      const cluster = options.cluster === undefined ? started[0]! : started.find((c) => c.name === options.cluster);
      if (!cluster) throw new Error(`no cluster named ${options.cluster}`);
      const { token } = await cluster.tokens.create({
        policies: options.policies,
        displayName: options.displayName ?? 'token',
        path: 'auth/token/create',
        meta: options.meta,
        ttl: options.ttl ?? SYSTEM_DEFAULT_TTL,
        numUses: options.numUses,
        boundCidrs: options.boundCidrs,
        type: options.type,
        period: options.period,
        explicitMaxTtl: options.explicitMaxTtl,
      });
      return token;
    },
    stats: () => ({ requests: started.reduce((n, c) => n + c.requestsServed, 0), refused: distances.reduce((n, d) => n + (d?.refused ?? 0), 0) }),
    close: () => (closing ??= Promise.all(started.map((c) => c.close())).then(() => undefined)),
  };
}

/** Each `--cluster-version` names a cluster of this server and a release the service could report. */
function clusterReleases(versions: Readonly<Record<string, string>>, names: readonly string[]): Map<string, Release> {
  const releases = new Map<string, Release>();
  for (const [name, text] of Object.entries(versions)) {
    if (!names.includes(name)) throw new Error(`--cluster-version ${name}=${text}: no cluster named "${name}" (clusters: ${names.join(', ')})`);
    const read = readRelease(text);
    if (read.kind === 'refused') throw new Error(`--cluster-version ${name}=${text}: ${read.reason}`);
    releases.set(name, read.value);
  }
  return releases;
}

function checkNames(names: string[]): void {
  if (names.length === 0) throw new Error('at least one cluster is needed');
  for (const name of names) {
    if (!CLUSTER_NAME.test(name)) throw new Error(`invalid cluster name "${name}" (letters, digits, "_", ".", "-")`);
  }
  const duplicate = names.find((n, i) => names.indexOf(n) !== i);
  if (duplicate !== undefined) throw new Error(`cluster "${duplicate}" is named twice`);
}
