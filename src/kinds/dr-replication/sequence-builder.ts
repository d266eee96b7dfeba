import type { ObservedCluster } from './observed.js';
import { applyStep, type SimState } from './simulator.js';
import { stepAddress, type Step } from './steps.js';

export interface SetNote {
  severity: 'info' | 'warning';
  /** The cluster the note is about; the set itself when absent. */
  cluster?: string;
  message: string;
}

/**
 * Collects a set's steps while simulating them, so every later decision sees the state the
 * earlier steps leave. Local to one planning call: the planner stays pure.
 */
export class SequenceBuilder {
  readonly steps: Step[] = [];
  readonly notes: SetNote[] = [];
  readonly errors: string[] = [];
  #state: SimState;

  constructor(initial: SimState) {
    this.#state = initial;
  }

  get state(): SimState {
    return this.#state;
  }

  /** The simulated state of a cluster now (unreachable when it is not in scope). */
  cluster(name: string): ObservedCluster {
    return this.#state.clusters.get(name) ?? { state: 'unreachable' };
  }

  get refused(): boolean {
    return this.errors.length > 0;
  }

  /** Adds a step; a step the simulated state does not allow is a refusal, never a silent skip. */
  emit(step: Step): boolean {
    if (this.refused) return false;
    const result = applyStep(this.#state, step);
    if (!result.ok) {
      this.refuse(`cannot plan ${stepAddress(step)}: ${result.reason}`);
      return false;
    }
    this.steps.push(step);
    this.#state = result.state;
    return true;
  }

  refuse(message: string): void {
    this.errors.push(message);
  }

  note(severity: SetNote['severity'], message: string, cluster?: string): void {
    this.notes.push(cluster === undefined ? { severity, message } : { severity, message, cluster });
  }
}

/** `a`, `a and b`, `a, b and c`. */
export function listNames(names: readonly string[]): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/** `is` or `are` for a list of names. */
export function isAre(names: readonly string[]): string {
  return names.length === 1 ? 'is' : 'are';
}
