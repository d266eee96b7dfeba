import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countOf, readDuration } from '../../src/values/index.js';

// #15.2: the schemas describe the value forms for editors and the first validation pass. They
// may be stricter than the service (a manifest says what it means) but never looser: every text
// a schema's duration or count pattern admits is one the shared parser (and so the service)
// reads.

const SCHEMAS = ['ldap-auth', 'snapshot-policy', 'dr-replication', 'managed-key'];

function patterns(schema: string): string[] {
  const text = readFileSync(new URL(`../../schemas/${schema}.schema.json`, import.meta.url), 'utf8');
  return [...text.matchAll(/"pattern": ("(?:[^"\\]|\\.)*")/g)].map((m) => JSON.parse(m[1]!) as string);
}

const durationPatterns = SCHEMAS.flatMap(patterns).filter((p) => p.includes('ms|'));
const countPatterns = SCHEMAS.flatMap(patterns).filter((p) => p === '^[0-9]+$');

describe('#15.2: schema patterns admit only what the shared parsers read', () => {
  it('finds the patterns', () => {
    expect(durationPatterns.length).toBeGreaterThanOrEqual(3);
    expect(countPatterns.length).toBeGreaterThanOrEqual(2);
  });

  it.each(durationPatterns)('duration pattern %s', (pattern) => {
    fc.assert(
      fc.property(fc.stringMatching(new RegExp(pattern)), (text) => {
        const read = readDuration(text);
        // Only an overflow of Go's int64 nanoseconds is left to the rules to report.
        if (read.kind === 'refused') expect(read.reason).toMatch(/invalid duration|multiplication of durations resulted in overflow|value out of range/);
      }),
      { numRuns: 500 },
    );
  });

  it.each(countPatterns)('count pattern %s', (pattern) => {
    fc.assert(
      fc.property(fc.stringMatching(new RegExp(pattern)).filter((t) => t.length < 15), (text) => {
        // Go's ParseInt base 0 reads a leading 0 as octal: "010" is 8, "08" is refused.
        if (!/^0[0-9]/.test(text)) expect(countOf(text)).toBe(Number(text));
      }),
      { numRuns: 300 },
    );
  });
});
