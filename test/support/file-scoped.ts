import { afterAll, beforeAll } from 'vitest';

/**
 * Something the tests of one file share (a server, a directory): made by `start` before them,
 * ended by `stop` after them. The getter gives it to tests and to hooks that run after that
 * beforeAll, and says so when called before.
 */
export function useForFile<T>(start: () => Promise<T>, stop: (value: T) => Promise<void>, timeoutMs?: number): () => T {
  let value: T | undefined;
  beforeAll(async () => {
    value = await start();
  }, timeoutMs);
  afterAll(async () => {
    if (value !== undefined) await stop(value);
  });
  return () => {
    if (value === undefined) throw new Error('made in beforeAll: read it in a test or a later hook');
    return value;
  };
}
