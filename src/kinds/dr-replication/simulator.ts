import { describeState, plannedValue, type ObservedCluster } from './observed.js';
import { makesPrimary, stepAddress, type Step } from './steps.js';

/**
 * A pure model of the spec's DR state table, applied to what the planner observed. The planner
 * builds its sequence with it and then proves the sequence with it; the model-based tests run
 * it against their in-memory world. Nothing here talks to a server or mutates its inputs.
 */
export interface SimState {
  clusters: ReadonlyMap<string, ObservedCluster>;
  /**
   * Unreachable clusters that may be DR primaries (an old primary not back yet): no step may
   * make a primary while there is one, unless --allow-unreachable-primary said they are not.
   */
  unseen: ReadonlySet<string>;
  /** secondary → the primary that issued it a still unused activation token. */
  activation: ReadonlyMap<string, string>;
  /** Clusters that generated a key pair for their activation token in this sequence. */
  publicKeys: ReadonlySet<string>;
}

export type StepResult = { ok: true; state: SimState } | { ok: false; reason: string };

export function initialState(clusters: ReadonlyMap<string, ObservedCluster>, unseen: ReadonlySet<string> = new Set()): SimState {
  return { clusters, unseen, activation: new Map(), publicKeys: new Set() };
}

/** The reachable DR primaries of a state, sorted. */
export function primariesOf(state: SimState): string[] {
  return [...state.clusters].filter(([, c]) => c.state === 'primary').map(([n]) => n).sort();
}

/** One step's effect, or why the step cannot run from this state. */
export function applyStep(state: SimState, step: Step): StepResult {
  const self = state.clusters.get(step.cluster);
  if (!self) return fail(`${step.cluster} is not part of the replication set`);
  if (self.state === 'unreachable') return fail(`${step.cluster} is unreachable`);
  const expect = (want: ObservedCluster['state']): string | undefined =>
    self.state === want ? undefined : `${step.cluster} is ${describeState(self)}, not ${describeState({ state: want } as ObservedCluster)}`;

  switch (step.op) {
    case 'enable-primary': {
      const bad = expect('disabled');
      if (bad) return fail(bad);
      return ok(
        withCluster(state, step.cluster, {
          state: 'primary',
          clusterId: plannedValue('the cluster id', step.cluster),
          knownSecondaries: [],
          primaryClusterAddr: step.primaryClusterAddr || plannedValue('the cluster address', step.cluster),
        }),
      );
    }
    case 'demote': {
      if (self.state !== 'primary') return fail(expect('primary')!);
      return ok(withCluster(state, step.cluster, { state: 'secondary', clusterId: self.clusterId, secondaryId: '', primaryClusterAddr: '' }));
    }
    case 'disable-primary': {
      const bad = expect('primary');
      if (bad) return fail(bad);
      return ok(withCluster(state, step.cluster, { state: 'disabled' }));
    }
    case 'promote': {
      if (self.state !== 'secondary') return fail(expect('secondary')!);
      return ok(
        withCluster(state, step.cluster, {
          state: 'primary',
          clusterId: self.clusterId,
          knownSecondaries: [],
          primaryClusterAddr: step.primaryClusterAddr || plannedValue('the cluster address', step.cluster),
        }),
      );
    }
    case 'generate-public-key': {
      if (self.state !== 'disabled' && self.state !== 'secondary') return fail(`${step.cluster} is ${describeState(self)}: only a secondary-to-be makes a key pair`);
      return ok({ ...state, publicKeys: new Set([...state.publicKeys, step.cluster]) });
    }
    case 'secondary-token': {
      if (self.state !== 'primary') return fail(expect('primary')!);
      if (step.secondary === step.cluster) return fail(`${step.cluster} cannot be its own secondary`);
      if (self.knownSecondaries.includes(step.secondary)) return fail(`${step.cluster} already knows a secondary "${step.secondary}"; it must be revoked first`);
      if (!state.publicKeys.has(step.secondary)) return fail(`${step.secondary} has made no key pair for its activation token`);
      return ok({ ...state, activation: new Map([...state.activation, [step.secondary, step.cluster]]) });
    }
    case 'enable-secondary':
    case 'update-primary': {
      const primary = state.clusters.get(step.primary);
      if (primary?.state !== 'primary') return fail(`${step.primary} is ${describeState(primary)}, not DR primary`);
      if (state.activation.get(step.cluster) !== step.primary) return fail(`${step.cluster} holds no activation token from ${step.primary}`);
      if (step.op === 'enable-secondary') {
        const bad = expect('disabled');
        if (bad) return fail(bad);
      } else {
        if (self.state !== 'secondary') return fail(expect('secondary')!);
        if (self.clusterId !== primary.clusterId) return fail(`${step.cluster} belongs to another replication set than ${step.primary}`);
      }
      const joined = withCluster(state, step.cluster, {
        state: 'secondary',
        clusterId: primary.clusterId,
        secondaryId: step.cluster,
        primaryClusterAddr: primary.primaryClusterAddr,
      });
      const registered = withCluster(joined, step.primary, {
        ...primary,
        knownSecondaries: [...new Set([...primary.knownSecondaries, step.cluster])].sort(),
      });
      const activation = new Map(registered.activation);
      activation.delete(step.cluster);
      return ok({ ...registered, activation });
    }
    case 'revoke-secondary': {
      if (self.state !== 'primary') return fail(expect('primary')!);
      const activation = new Map(state.activation);
      if (activation.get(step.secondaryId) === step.cluster) activation.delete(step.secondaryId);
      const next = withCluster(state, step.cluster, { ...self, knownSecondaries: self.knownSecondaries.filter((id) => id !== step.secondaryId) });
      return ok({ ...next, activation });
    }
    case 'disable-secondary': {
      const bad = expect('secondary');
      if (bad) return fail(bad);
      return ok(withCluster(state, step.cluster, { state: 'disabled' }));
    }
    case 'delete-operation-token':
      return ok(state);
  }
}

export type SimulationResult =
  | { ok: true; before: SimState[]; final: SimState }
  | { ok: false; index: number; reason: string };

/**
 * Runs a whole sequence and checks the invariant at every step: a step that makes a primary
 * starts from a state with no primary, reachable or unseen; after every step there is at most
 * one primary, or, from a state that already had several (a returning old primary), strictly
 * fewer. `before[i]` is the state step i starts from (what its guards expect).
 */
export function simulate(initial: SimState, steps: readonly Step[]): SimulationResult {
  let state = initial;
  const before: SimState[] = [];
  for (const [index, step] of steps.entries()) {
    before.push(state);
    if (makesPrimary(step)) {
      const others = [...primariesOf(state), ...state.unseen].filter((n) => n !== step.cluster);
      if (others.length > 0) {
        return { ok: false, index, reason: `${stepAddress(step)} would make a second DR primary: ${others.join(', ')} ${others.length === 1 ? 'is' : 'are'} primary or unreachable (may be primary)` };
      }
    }
    const result = applyStep(state, step);
    if (!result.ok) return { ok: false, index, reason: `${stepAddress(step)}: ${result.reason}` };
    const was = primariesOf(state);
    const now = primariesOf(result.state);
    if (now.length > 1 && now.length >= was.length) {
      return { ok: false, index, reason: `${stepAddress(step)} would leave ${now.length} DR primaries (${now.join(', ')})` };
    }
    state = result.state;
  }
  return { ok: true, before, final: state };
}

function withCluster(state: SimState, name: string, cluster: ObservedCluster): SimState {
  return { ...state, clusters: new Map([...state.clusters, [name, cluster]]) };
}

function ok(state: SimState): StepResult {
  return { ok: true, state };
}

function fail(reason: string): StepResult {
  return { ok: false, reason };
}
