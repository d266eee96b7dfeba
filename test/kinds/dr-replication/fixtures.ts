import type { ClusterTarget } from '../../../src/core/cluster.js';
import type { SourcePos } from '../../../src/core/diagnostics.js';
import type { JsonObject } from '../../../src/core/json.js';
import type { LiveState } from '../../../src/core/resource.js';
import { Secret } from '../../../src/core/secret.js';
import { statusAddress } from '../../../src/kinds/dr-replication/addresses.js';
import { drReplicationKind } from '../../../src/kinds/dr-replication/index.js';
import type { DrReplicationData, SecondaryEntry } from '../../../src/kinds/dr-replication/types.js';
import type { KindContext, KindPlan, PlanFlags } from '../../../src/kinds/kind.js';
import type { LoadedDocument, ResolvedDocument, ValuePath } from '../../../src/load/document.js';
import { pathKey } from '../../../src/load/value-path.js';

/** A loaded document whose positions are distinct per path (line = order of first query). */
export function loadedDocument(value: unknown, file = 'dr.yaml'): LoadedDocument {
  const lines = new Map<string, number>();
  const pos = (path: ValuePath = []): SourcePos => {
    const key = pathKey(path);
    if (!lines.has(key)) lines.set(key, lines.size + 1);
    return { file, line: lines.get(key)!, column: 1 + path.length };
  };
  return { file, absoluteFile: `/work/${file}`, index: 0, value, pos, keyPos: pos, needlePos: (path) => pos(path), textPos: () => undefined };
}

export interface DocSpec {
  name?: string;
  primary: string;
  secondaries?: SecondaryEntry[];
  primaryClusterAddr?: string;
  operationTokens?: Record<string, string>;
  keyShares?: string[];
  secondaryTokenTtl?: string | number;
  acknowledge?: string[];
  file?: string;
}

/** A resolved DrReplication document (secrets as Secret objects, as prepare leaves them). */
export function drDoc(spec: DocSpec): ResolvedDocument {
  const data: DrReplicationData = {
    apiVersion: 'lockstep/v1',
    kind: 'DrReplication',
    name: spec.name ?? 'prod',
    primary: spec.primary,
    ...(spec.secondaries ? { secondaries: spec.secondaries } : {}),
    ...(spec.primaryClusterAddr ? { primaryClusterAddr: spec.primaryClusterAddr } : {}),
    ...(spec.operationTokens
      ? { operationTokens: Object.fromEntries(Object.entries(spec.operationTokens).map(([k, v]) => [k, new Secret(v, `env:${k.toUpperCase()}_DR_TOKEN`)])) }
      : {}),
    ...(spec.keyShares ? { keyShares: spec.keyShares.map((s, i) => new Secret(s, `file:shares/${i + 1}`)) } : {}),
    ...(spec.secondaryTokenTtl !== undefined ? { secondaryTokenTtl: spec.secondaryTokenTtl } : {}),
    ...(spec.acknowledge ? { acknowledge: spec.acknowledge } : {}),
  };
  return { source: loadedDocument(data, spec.file), kind: 'DrReplication', data: data as unknown as Record<string, unknown> };
}

export function kindContext(names: readonly string[]): KindContext {
  const clusters = new Map<string, ClusterTarget>(
    names.map((name) => [name, { name, address: `http://${name}.test/v1`, auth: { method: 'token' as const, token: new Secret(`root-${name}`, `env:${name}`) }, authSource: 'test', insecureSkipVerify: false }]),
  );
  return { clusters, prune: false };
}

export const NO_FLAGS: PlanFlags = { syncSecrets: false, allowUnreachablePrimary: false, force: false };


/** Status reports as the service answers them ('down': unreachable). */
export type StatusSpec = 'down' | { mode: 'disabled' } | JsonObject;

export const primaryStatus = (clusterId: string, knownSecondaries: string[], addr = 'https://east:8201'): JsonObject => ({
  reachable: true,
  mode: 'primary',
  cluster_id: clusterId,
  state: 'running',
  known_secondaries: knownSecondaries,
  primary_cluster_addr: addr,
});

export const secondaryStatus = (clusterId: string, secondaryId: string, primaryAddr = 'https://east:8201'): JsonObject => ({
  reachable: true,
  mode: 'secondary',
  cluster_id: clusterId,
  state: 'stream-wals',
  connection_state: 'ready',
  primary_cluster_addr: primaryAddr,
  known_primary_cluster_addrs: [primaryAddr],
  secondary_id: secondaryId,
});

export const DISABLED: JsonObject = { reachable: true, mode: 'disabled' };
export const DOWN: JsonObject = { reachable: false };

/** A LiveState holding one status per cluster, as read() builds it. */
export function liveOf(statuses: Record<string, JsonObject>): LiveState {
  return {
    resources: Object.entries(statuses).map(([name, attrs]) => ({ address: statusAddress(name), resourceType: 'dr.status', attrs })),
    observed: {},
    notes: [],
  };
}

export const SHARE_TEXTS = ['0a1b2c3d4e5f60718293a4b5c6d7e8f9', 'q83v0ZTF4FbYx2mQp1kR9w=='];

/** The kind's plan for one document against the given statuses (every named cluster is known). */
export function planFor(spec: DocSpec, statuses: Record<string, JsonObject>, flags: Partial<PlanFlags> = {}): KindPlan {
  const desired = drReplicationKind.desired([drDoc(spec)], kindContext(Object.keys(statuses)));
  return drReplicationKind.plan!(desired, liveOf(statuses), { ...NO_FLAGS, ...flags });
}

/** The messages of the plan's refusals. */
export function refusals(plan: KindPlan): string[] {
  return plan.errors.map((e) => e.message);
}

/** The plan's step addresses, in order. */
export function addresses(plan: KindPlan): string[] {
  return plan.changes.map((c) => c.address.toString());
}
