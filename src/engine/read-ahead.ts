import type { ReadAhead } from '../kinds/kind.js';

/**
 * One plan's work started ahead for its access review (kinds/kind.ts ReadAhead), by key. A
 * rejection is observed at once, so that work the review never takes (the plan failed first)
 * is no unhandled rejection; the review that takes it sees the rejection as it is. What is left
 * untaken when the plan ends is abandoned (`abandonUntaken`).
 */
export class ReadAheadWork implements ReadAhead {
  readonly #started = new Map<string, { work: Promise<unknown>; abandon: () => void }>();

  start(key: string, work: Promise<unknown>, abandon: () => void): void {
    work.catch(() => undefined);
    this.#started.set(key, { work, abandon });
  }

  take(key: string): Promise<unknown> | undefined {
    const started = this.#started.get(key);
    this.#started.delete(key);
    return started?.work;
  }

  /** Abandons what no review took: the plan is over. */
  abandonUntaken(): void {
    for (const { abandon } of this.#started.values()) abandon();
    this.#started.clear();
  }
}
