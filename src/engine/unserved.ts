import { Diagnostics } from '../core/diagnostics.js';
import type { DesiredState, LiveState } from '../core/resource.js';
import { reportedVersion, servesFeature, UnservedPathError } from '../kinds/feature.js';
import type { ClientPool, KindModule, ReadOptions } from '../kinds/kind.js';
import type { ResolvedDocument } from '../load/document.js';
import type { Prepared } from '../validate/types.js';

/** A kind the manifests use, with its desired state. */
export interface KindInUse {
  kind: KindModule;
  state: DesiredState;
}

/**
 * Where a kind's feature is not served (kinds/feature.ts), as one located error per document on
 * that cluster (`file:line:column: error: cluster "east" (version 2.6.2 in sys/health) does not
 * serve managed keys: ...`), and what is left to plan: each kind's desired state without the
 * objects on those clusters. The same for every kind and every command: plan, apply, check and
 * export learn it here, from one probe per kind and cluster, or from a kind's read that met
 * "unsupported path" (readServed).
 */
export class UnservedFeatures {
  readonly diags = new Diagnostics();
  readonly #versions = new Map<string, Promise<string | undefined>>();
  /** Documents already reported: each is one error, however many of its clusters lack the feature. */
  readonly #reported = new Set<ResolvedDocument>();

  constructor(
    private readonly prepared: Prepared,
    private readonly pool: ClientPool,
  ) {}

  /** Probes each kind's feature on the clusters its documents name; returns the kinds with what is left of their states. */
  async probe(kinds: readonly KindInUse[]): Promise<KindInUse[]> {
    const answers = await Promise.all(
      kinds.map(async ({ kind, state }) => {
        const clusters = this.#clustersOf(kind);
        const served = await Promise.all(clusters.map((cluster) => this.#serves(kind, cluster)));
        const unserved = clusters.filter((_, i) => !served[i]);
        if (unserved.length > 0) await this.#report(kind, unserved, kind.feature.probe ? `${kind.feature.probe.method} ${kind.feature.probe.path}` : undefined);
        return { kind, state: unserved.reduce<DesiredState | undefined>((s, cluster) => s && withoutCluster(kind, s, cluster), state) };
      }),
    );
    return answers.filter((k): k is KindInUse => k.state !== undefined);
  }

  /**
   * The kind's read; a read that meets "unsupported path" on a cluster (the probe could not
   * tell, e.g. a kind without one) reports that cluster's documents and reads the rest again.
   * Undefined when nothing of the kind is left to read.
   */
  async readServed(kind: KindModule, state: DesiredState, opts: ReadOptions = {}): Promise<{ state: DesiredState; live: LiveState } | undefined> {
    let left: DesiredState | undefined = state;
    while (left) {
      try {
        return { state: left, live: await kind.read(left, this.pool, opts) };
      } catch (err) {
        if (!(err instanceof UnservedPathError)) throw err;
        await this.#report(kind, [err.cluster], `${err.method} ${err.path}`);
        left = withoutCluster(kind, left, err.cluster);
      }
    }
    return undefined;
  }

  /** The clusters a kind's documents are on; a kind that names its clusters itself (DR) concerns them all. */
  #clustersOf(kind: KindModule): string[] {
    if (kind.placement === 'none') return [...this.prepared.clusters.keys()].sort();
    const docs = this.prepared.documents.get(kind.kind) ?? [];
    return [...new Set(docs.map((d) => (d.data as { cluster?: unknown }).cluster).filter((c): c is string => typeof c === 'string'))].sort();
  }

  async #serves(kind: KindModule, cluster: string): Promise<boolean> {
    let client;
    try {
      client = this.pool.get(cluster);
    } catch {
      return true; // a cluster lockstep cannot talk to: the kind's own reads say so
    }
    return servesFeature(client, kind.feature);
  }

  /** One error at each document of `kind` on `clusters` (all of them for a kind that names its clusters itself). */
  async #report(kind: KindModule, clusters: string[], request: string | undefined): Promise<void> {
    const servers = describeServers(await Promise.all(clusters.map(async (c) => describeServer(c, await this.#version(c)))));
    const answered = request === undefined ? '' : `: ${request} answered 404 "unsupported path"`;
    const message = `${servers} ${clusters.length === 1 ? 'does' : 'do'} not serve ${kind.feature.name}${answered}; this ${kind.kind} is neither read nor written there`;
    for (const doc of this.prepared.documents.get(kind.kind) ?? []) {
      if (this.#reported.has(doc)) continue;
      if (kind.placement !== 'none' && !clusters.includes((doc.data as { cluster?: unknown }).cluster as string)) continue;
      this.#reported.add(doc);
      this.diags.error(message, doc.source.keyPos(['kind']));
    }
  }

  #version(cluster: string): Promise<string | undefined> {
    let version = this.#versions.get(cluster);
    if (!version) {
      version = Promise.resolve()
        .then(() => reportedVersion(this.pool.get(cluster)))
        .catch(() => undefined);
      this.#versions.set(cluster, version);
    }
    return version;
  }
}

/** `cluster "east" (version 2.6.2 in sys/health)`: how messages name a server that lacks a feature. */
export function describeServer(cluster: string, version: string | undefined): string {
  return version === undefined ? `cluster "${cluster}"` : `cluster "${cluster}" (version ${version} in sys/health)`;
}

/** `cluster "east" (...)`, or `cluster "east" (...) and cluster "west" (...)`. */
function describeServers(servers: string[]): string {
  return servers.length <= 1 ? (servers[0] ?? '') : `${servers.slice(0, -1).join(', ')} and ${servers.at(-1)!}`;
}

/** `state` without the objects on `cluster`; undefined when nothing is left, or the kind spans clusters (DR). */
function withoutCluster(kind: KindModule, state: DesiredState, cluster: string): DesiredState | undefined {
  if (kind.placement === 'none') return undefined;
  const resources = state.resources.filter((r) => r.address.cluster !== cluster);
  const collections = state.collections.filter((c) => c.address.cluster !== cluster);
  return resources.length === 0 && collections.length === 0 ? undefined : { resources, collections };
}
