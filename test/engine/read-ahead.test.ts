import { describe, expect, it } from 'vitest';
import { ReadAheadWork } from '../../src/engine/read-ahead.js';

describe('ReadAheadWork', () => {
  it('hands what was started once; work never taken is dropped without an unhandled rejection', async () => {
    const work = new ReadAheadWork();
    const abandoned: string[] = [];
    work.start('a', Promise.resolve(1), () => abandoned.push('a'));
    work.start('b', Promise.reject(new Error('nobody takes this')), () => abandoned.push('b'));
    await expect(work.take('a')).resolves.toBe(1);
    expect(work.take('a')).toBeUndefined();
    expect(work.take('c')).toBeUndefined();
    await new Promise((r) => setImmediate(r));
    // What the plan ends without taking is abandoned, once; what was taken is the taker's.
    work.abandonUntaken();
    work.abandonUntaken();
    expect(abandoned).toEqual(['b']);
  });
});
