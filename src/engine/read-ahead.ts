import type { ReadAhead } from '../kinds/kind.js';

/**
 * One plan's work started ahead for its access review (kinds/kind.ts ReadAhead), by key. A
 * rejection is observed at once, so that work the review never takes (the plan failed first)
 * is no unhandled rejection; the review that takes it sees the rejection as it is.
 *
 * At most one piece of work at a time: the review reads its methods one after another, and a
 * plan of many methods must not open a directory's connections for each at once. Work offered
 * while another is held, or once the plan is over (a read of another method still running when
 * the plan failed), is abandoned at once, as is what is left untaken when the plan ends.
 */
export class ReadAheadWork implements ReadAhead {
  #held: { key: string; work: Promise<unknown>; abandon: () => void } | undefined;
  #ended = false;

  start(key: string, work: Promise<unknown>, abandon: () => void): void {
    work.catch(() => undefined);
    if (this.#ended || this.#held !== undefined) {
      abandon();
      return;
    }
    this.#held = { key, work, abandon };
  }

  take(key: string): Promise<unknown> | undefined {
    if (this.#held?.key !== key) return undefined;
    const { work } = this.#held;
    this.#held = undefined;
    return work;
  }

  /** The plan is over: abandons what no review took, and whatever is offered from now on. */
  abandonUntaken(): void {
    this.#ended = true;
    this.#held?.abandon();
    this.#held = undefined;
  }
}
