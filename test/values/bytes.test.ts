import { describe, expect, test } from 'vitest';
import { formatBytesExact, formatDurationExact, parseBytes, parseBytesDetailed } from '../../src/values/index.js';

describe('sizes', () => {
  test.each([
    [10737418240, 10737418240],
    ['10737418240', 10737418240],
    ['10GiB', 10 * 1024 ** 3],
    ['10 GiB', 10 * 1024 ** 3],
    ['10gib', 10 * 1024 ** 3],
    ['500MB', 500_000_000],
    ['1.5GiB', 1610612736],
    ['1KB', 1000],
    ['1KiB', 1024],
    ['2TiB', 2 * 1024 ** 4],
    ['1PB', 1e15],
    ['512B', 512],
    ['0', 0],
  ])('%s is %d bytes', (text, bytes) => {
    expect(parseBytes(text)).toBe(bytes);
  });

  test.each(['10G', '10Gi', 'ten', '-1', '1.5', '10 GiB extra', '', '1e9'])('%s is not a size', (text) => {
    expect(parseBytes(text)).toBeUndefined();
  });

  test('fractions must come to whole bytes; sizes must fit', () => {
    expect(parseBytesDetailed('1.5B')).toEqual({ problem: 'fraction' });
    expect(parseBytesDetailed('0.3KiB')).toEqual({ problem: 'fraction' });
    expect(parseBytesDetailed('9000PiB')).toEqual({ problem: 'too-large' });
    expect(parseBytesDetailed(1.5)).toEqual({ problem: 'syntax' });
    expect(parseBytesDetailed(true)).toEqual({ problem: 'syntax' });
  });

  test('export writes exact sizes and durations the way people do', () => {
    expect(formatBytesExact(10 * 1024 ** 3)).toBe('10GiB');
    expect(formatBytesExact(500_000_000)).toBe('500MB');
    expect(formatBytesExact(1536 * 1024 ** 2)).toBe('1536MiB');
    expect(formatBytesExact(1000)).toBe(1000);
    expect(formatBytesExact(12345)).toBe(12345);
    for (const b of [10 * 1024 ** 3, 500_000_000, 1000, 12345, 3 * 1024 ** 5]) expect(parseBytes(formatBytesExact(b))).toBe(b);
    expect(formatDurationExact(86400)).toBe('24h');
    expect(formatDurationExact(5400)).toBe('90m');
    expect(formatDurationExact(61)).toBe('61s');
  });
});
