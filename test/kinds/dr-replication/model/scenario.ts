import fc from 'fast-check';
import type { Fault } from './client.js';

export interface DesiredSet {
  primary: string;
  secondaries: string[];
}

export type Action =
  | { type: 'desire'; set: DesiredSet }
  /** Change the desired primary to one of the desired secondaries (the old primary becomes one). */
  | { type: 'failover'; to: number }
  /** The desired primary goes down. */
  | { type: 'primary-outage' }
  | { type: 'outage'; cluster: string }
  | { type: 'recover'; cluster: string }
  | { type: 'tick' }
  | { type: 'apply'; allowDestructive: boolean; allowUnreachablePrimary: boolean; force: boolean; fault: Fault | null };

export interface Scenario {
  names: string[];
  /** Bootstrapped (clean apply) before the actions, unless the scenario starts from scratch. */
  initial: DesiredSet;
  bootstrap: boolean;
  actions: Action[];
}

/** The desired set after a failover action: one of the secondaries becomes primary. */
export function failover(set: DesiredSet, to: number): DesiredSet {
  if (set.secondaries.length === 0) return set;
  const primary = set.secondaries[to % set.secondaries.length]!;
  return { primary, secondaries: [...set.secondaries.filter((s) => s !== primary), set.primary] };
}

export function desiredSetArb(names: readonly string[]): fc.Arbitrary<DesiredSet> {
  return fc
    .constantFrom(...names)
    .chain((primary) => fc.shuffledSubarray(names.filter((n) => n !== primary)).map((secondaries) => ({ primary, secondaries })));
}

const faultArb: fc.Arbitrary<Fault | null> = fc.option(
  fc.record({ at: fc.nat({ max: 25 }), kind: fc.constantFrom('before' as const, 'after' as const, 'server-error' as const, 'outage' as const) }),
  { freq: 2 },
);

function actionArb(names: readonly string[]): fc.Arbitrary<Action> {
  const cluster = fc.constantFrom(...names);
  return fc.oneof(
    { weight: 1, arbitrary: desiredSetArb(names).map((set): Action => ({ type: 'desire', set })) },
    { weight: 2, arbitrary: fc.nat({ max: 3 }).map((to): Action => ({ type: 'failover', to })) },
    { weight: 1, arbitrary: fc.constant<Action>({ type: 'primary-outage' }) },
    { weight: 1, arbitrary: cluster.map((c): Action => ({ type: 'outage', cluster: c })) },
    { weight: 1, arbitrary: cluster.map((c): Action => ({ type: 'recover', cluster: c })) },
    { weight: 1, arbitrary: fc.constant<Action>({ type: 'tick' }) },
    {
      weight: 5,
      arbitrary: fc
        .record({
          allowDestructive: fc.boolean(),
          allowUnreachablePrimary: fc.boolean(),
          force: fc.boolean(),
          fault: faultArb,
        })
        .map((a): Action => ({ type: 'apply', ...a })),
    },
  );
}

/** Small sequences over N clusters: each is fast, many of them find the rare orders. */
export function scenarioArb(clusterCount: number): fc.Arbitrary<Scenario> {
  const names = ['a', 'b', 'c', 'd', 'e'].slice(0, clusterCount);
  return fc.record({
    names: fc.constant(names),
    initial: desiredSetArb(names),
    bootstrap: fc.oneof({ weight: 4, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
    actions: fc.array(actionArb(names), { minLength: 2, maxLength: 8 }),
  });
}
