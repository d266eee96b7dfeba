import { describe, expect, it } from 'vitest';
import { ReadAheadWork } from '../../src/engine/read-ahead.js';

describe('ReadAheadWork', () => {
  it('hands what was started once, to its key; holds one at a time; abandons what is left when the plan ends, and what comes after', async () => {
    const work = new ReadAheadWork();
    const abandoned: string[] = [];
    work.start('a', Promise.resolve(1), () => abandoned.push('a'));
    // Another while one is held: abandoned at once (a directory's connections are not opened for every method together).
    work.start('b', Promise.reject(new Error('nobody takes this')), () => abandoned.push('b'));
    expect(abandoned).toEqual(['b']);
    expect(work.take('b')).toBeUndefined();
    await expect(work.take('a')).resolves.toBe(1);
    expect(work.take('a')).toBeUndefined();

    work.start('c', Promise.resolve(3), () => abandoned.push('c'));
    work.abandonUntaken();
    work.abandonUntaken();
    expect(abandoned).toEqual(['b', 'c']);
    // Offered once the plan is over (another method's read still running when the plan failed): abandoned at once.
    work.start('d', Promise.reject(new Error('late')), () => abandoned.push('d'));
    expect(abandoned).toEqual(['b', 'c', 'd']);
    expect(work.take('d')).toBeUndefined();
    // No rejection left unhandled.
    await new Promise((r) => setImmediate(r));
  });
});
