import type { ReadAhead } from '../kinds/kind.js';

/**
 * One plan's work started ahead for its access review (kinds/kind.ts ReadAhead), by key. A
 * rejection is observed at once, so that work the review never takes (the plan failed first)
 * is no unhandled rejection; the review that takes it sees the rejection as it is.
 */
export class ReadAheadWork implements ReadAhead {
  readonly #started = new Map<string, Promise<unknown>>();

  start(key: string, work: Promise<unknown>): void {
    work.catch(() => undefined);
    this.#started.set(key, work);
  }

  take(key: string): Promise<unknown> | undefined {
    const work = this.#started.get(key);
    this.#started.delete(key);
    return work;
  }
}
