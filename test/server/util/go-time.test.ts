import { describe, expect, it } from 'vitest';
import { goTime } from '../../../src/server/util/go-time.js';

// Go's encoding/json writes a time.Time with time.RFC3339Nano (time/format.go): the fraction's
// trailing zeros dropped, none at all on a whole second.
describe('goTime', () => {
  it('writes times as Go writes a time.Time in UTC', () => {
    expect(goTime(Date.UTC(2026, 0, 2, 3, 4, 5))).toBe('2026-01-02T03:04:05Z');
    expect(goTime(Date.UTC(2026, 0, 2, 3, 4, 5, 500))).toBe('2026-01-02T03:04:05.5Z');
    expect(goTime(Date.UTC(2026, 0, 2, 3, 4, 5, 120))).toBe('2026-01-02T03:04:05.12Z');
    expect(goTime(Date.UTC(2026, 0, 2, 3, 4, 5, 7))).toBe('2026-01-02T03:04:05.007Z');
    expect(goTime(Date.UTC(2026, 0, 2, 3, 4, 0))).toBe('2026-01-02T03:04:00Z');
    expect(goTime(0)).toBe('1970-01-01T00:00:00Z');
  });
});
