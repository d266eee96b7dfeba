/**
 * max_parallel: a counting semaphore per key, shared by every backend instance of the same key
 * in the process (the server may build a new adapter per request).
 */
export class Semaphore {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private limit: number) {}

  setLimit(limit: number): void {
    this.limit = limit;
    this.drain();
  }

  async run<T>(fn: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await fn();
    } finally {
      this.active -= 1;
      this.drain();
    }
  }

  private acquire(): Promise<void> {
    if (this.active < this.limit) {
      this.active += 1;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private drain(): void {
    while (this.active < this.limit && this.waiting.length > 0) {
      this.active += 1;
      this.waiting.shift()!();
    }
  }
}

const semaphores = new Map<string, Semaphore>();

/** The semaphore of a key identity, created or re-limited to `limit`. */
export function keySemaphore(identity: string, limit: number): Semaphore {
  let s = semaphores.get(identity);
  if (!s) {
    s = new Semaphore(limit);
    semaphores.set(identity, s);
  } else {
    s.setLimit(limit);
  }
  return s;
}
