import { jsonText, type JsonObject } from '../../core/json.js';
import type { Release } from '../../values/index.js';
import type { Guard } from '../../core/plan.js';
import { statusAddress } from './addresses.js';
import { describeState, isPlannedValue, type ObservedCluster } from './observed.js';
import type { SimState } from './simulator.js';
import type { Step } from './steps.js';

/**
 * A step's guards: the expected DR state of every cluster it involves, as the simulation says
 * they are just before it. Apply re-reads them and refuses on any difference. Steps that make a
 * primary involve every cluster in scope: nothing may have become primary meanwhile. The release
 * each reported is expected too: an upgrade since the plan may have changed which order is safe.
 */
export function guardsFor(step: Step, before: SimState, releases: ReadonlyMap<string, Release>): Guard[] {
  return involvedClusters(step, before).map((name) => guardOf(name, before.clusters.get(name) ?? { state: 'unreachable' }, releases.get(name)));
}

function involvedClusters(step: Step, before: SimState): string[] {
  switch (step.op) {
    case 'enable-primary':
    case 'promote':
      return [step.cluster, ...[...before.clusters.keys()].filter((n) => n !== step.cluster).sort()];
    case 'enable-secondary':
    case 'update-primary':
      return [step.cluster, step.primary];
    case 'demote':
    case 'disable-primary':
    case 'generate-public-key':
    case 'secondary-token':
    case 'revoke-secondary':
    case 'disable-secondary':
    case 'delete-operation-token':
      return [step.cluster];
  }
}

function guardOf(name: string, state: ObservedCluster, release: Release | undefined): Guard {
  const expect = expectationOf(state);
  return {
    address: statusAddress(name),
    description: `${name} is ${describeState(state)}${release ? ` on ${release.reported}` : ''}`,
    expect: release && state.state !== 'unreachable' ? { ...expect, release: release.reported } : expect,
  };
}

/** The stable status fields a guard compares (planned values are unknown until apply). */
function expectationOf(state: ObservedCluster): JsonObject {
  switch (state.state) {
    case 'unreachable':
      return { reachable: false };
    case 'disabled':
      return { mode: 'disabled' };
    case 'primary':
    case 'secondary':
      return isPlannedValue(state.clusterId) ? { mode: state.state } : { mode: state.state, cluster_id: state.clusterId };
  }
}

/**
 * Why a status (attrs as read, or `{reachable: false}`) does not meet a guard; undefined when
 * it does. The message says what the cluster is now and what the plan expected.
 */
export function guardMismatch(cluster: string, expect: JsonObject, actual: JsonObject): string | undefined {
  if (expect['reachable'] === false) {
    return actual['reachable'] === false ? undefined : `${cluster} is reachable again (mode ${jsonText(actual['mode'])}), expected unreachable`;
  }
  if (actual['reachable'] !== true) return `${cluster} is now unreachable, expected ${jsonText(expect['mode'])}`;
  if (expect['mode'] !== undefined && actual['mode'] !== expect['mode']) {
    return `${cluster} is now ${jsonText(actual['mode'])}, expected ${jsonText(expect['mode'])}`;
  }
  if (expect['cluster_id'] !== undefined && actual['cluster_id'] !== expect['cluster_id']) {
    return `${cluster} now has cluster id ${jsonText(actual['cluster_id'])}, expected ${jsonText(expect['cluster_id'])}`;
  }
  if (expect['release'] !== undefined && actual['release'] !== expect['release']) {
    return `${cluster} now reports release ${jsonText(actual['release'] ?? '(none)')}, expected ${jsonText(expect['release'])} (upgraded since the plan?)`;
  }
  return undefined;
}
