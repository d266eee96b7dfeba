/**
 * Releases as the service reports them (version/version.go VersionNumber:
 * `<version>[-<prerelease>][+<metadata>]`), ordered by semantic version with the build metadata
 * (`+ent`, `+ent.hsm`, `+prem`, `+ent.fips1403`) left out, as hashicorp/go-version compares them.
 */
import { describe, expect, it } from 'vitest';
import { compareReleases, readRelease, type Release } from '../../src/values/index.js';

function release(text: string): Release {
  const read = readRelease(text);
  if (read.kind === 'refused') throw new Error(read.reason);
  return read.value;
}

describe('release', () => {
  it('reads what the service reports, keeping it as reported', () => {
    for (const text of ['1.21.0+ent', '1.21.0+ent.hsm', '1.20.4+prem', '1.21.0-rc1+ent', '1.15.2+ent.hsm.fips1402', '2.6.2', '1.21.0']) {
      expect(release(text).reported).toBe(text);
    }
    expect(release('1.21.0-rc1+ent.hsm').version).toBe('1.21.0-rc1');
  });

  it('orders by semantic version; builds of one release are the same release', () => {
    const order = ['1.9.10+ent', '1.20.4+prem', '1.21.0-rc1+ent', '1.21.0+ent', '1.21.1+ent.hsm', '1.22.0'];
    for (let i = 0; i + 1 < order.length; i++) {
      expect(compareReleases(release(order[i]!), release(order[i + 1]!)), `${order[i]} < ${order[i + 1]}`).toBeLessThan(0);
      expect(compareReleases(release(order[i + 1]!), release(order[i]!))).toBeGreaterThan(0);
    }
    expect(compareReleases(release('1.21.0+ent'), release('1.21.0+ent.hsm'))).toBe(0);
    expect(compareReleases(release('1.21.0+ent'), release('1.21.0'))).toBe(0);
  });

  it('refuses what the service never reports, saying what a release looks like', () => {
    for (const bad of ['', 'banana', '1.21', 'v1.21.0', ' 1.21.0', '1.21.0 ', '01.21.0', '1.21.0+', `1.21.0+${'x'.repeat(80)}`]) {
      expect(readRelease(bad).kind, JSON.stringify(bad)).toBe('refused');
    }
    expect(readRelease(1.21)).toEqual({ kind: 'refused', reason: 'expected a release such as 1.21.0+ent' });
    expect(readRelease('1.21')).toMatchObject({ reason: expect.stringContaining('such as 1.21.0+ent') });
  });
});
