import { describe, expect, it } from 'vitest';
import { ReadAheadWork } from '../../src/engine/read-ahead.js';

describe('ReadAheadWork', () => {
  it('hands what was started once; work never taken is dropped without an unhandled rejection', async () => {
    const work = new ReadAheadWork();
    work.start('a', Promise.resolve(1));
    work.start('b', Promise.reject(new Error('nobody takes this')));
    await expect(work.take('a')).resolves.toBe(1);
    expect(work.take('a')).toBeUndefined();
    expect(work.take('c')).toBeUndefined();
    await new Promise((r) => setImmediate(r));
  });
});
