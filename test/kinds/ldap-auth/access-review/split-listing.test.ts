import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectFirst, searchUpToLimit, type LdapConnection, type LdapEntry } from '../../../../src/adapters/ldap/index.js';
import { listWithinLimit, nextPrefixes, sampledSplit, splitPart } from '../../../../src/kinds/ldap-auth/access-review/split-listing.js';
import { ldapSettingsFor, startSlapd, type Slapd } from '../../../support/slapd.js';

/**
 * The listing split by what the size limit let through: every entry found once, each search
 * within the limit, fewer searches where the directory allows more. 300 names spread unevenly
 * (most under "a", a few with capitals, one holding another's name as a second uid).
 */
const suffix = 'dc=example,dc=com';
const NAMES = [
  ...Array.from({ length: 200 }, (_, i) => `a${i}`),
  ...Array.from({ length: 60 }, (_, i) => `b-${i}`),
  ...Array.from({ length: 30 }, (_, i) => `Zed${i}`),
  ...Array.from({ length: 10 }, (_, i) => `é${i}`),
];
function ldif(): string {
  const out = [`dn: ou=many,${suffix}\nobjectClass: organizationalUnit\nou: many\n`];
  for (const [i, uid] of NAMES.entries()) out.push(`dn: uid=${uid},ou=many,${suffix}\nobjectClass: inetOrgPerson\nuid: ${uid}\n${i === 7 ? 'uid: b-0-also\n' : ''}cn: c ${uid}\nsn: s\n`);
  return out.join('\n') + '\n';
}

const limits = [10, 100] as const;
const slapds = new Map<number, Slapd>();
beforeAll(async () => {
  for (const limit of limits) slapds.set(limit, await startSlapd({ offlineLdif: ldif(), sizeLimit: `size.soft=${limit} size.hard=${limit}` }));
});
afterAll(async () => Promise.all([...slapds.values()].map((s) => s.stop())));

async function listed(limit: number, pageSize: number, sample?: readonly string[]): Promise<{ entries: LdapEntry[]; searches: number; stopped: number; largest: number; shownLimits: Array<number | undefined> }> {
  const slapd = slapds.get(limit)!;
  const s = ldapSettingsFor(slapd);
  const conn: LdapConnection = await connectFirst(slapd.url, { starttls: false, insecureTls: false, minVersion: 'tls12', maxVersion: 'tls12' }, { connectMs: 5000, requestMs: 5000 });
  let searches = 0;
  let stopped = 0;
  let largest = 0;
  const shownLimits: Array<number | undefined> = [];
  try {
    await conn.client.bind(s.binddn, s.bindpass);
    // One search at a time: one connection keeps one paged search.
    let queue = Promise.resolve();
    const search = (filter: string, shownLimit: number | undefined) => {
      shownLimits.push(shownLimit);
      const next = queue.then(() => searchUpToLimit(conn.client, { base: `ou=many,${suffix}`, filter, attributes: ['uid'], pageSize }));
      queue = next.then(() => undefined, () => undefined);
      return next.then((r) => {
        searches++;
        if (!r.complete) stopped++;
        largest = Math.max(largest, r.entries.length);
        return r;
      });
    };
    const entries = await listWithinLimit(search, '(objectClass=inetOrgPerson)', 'uid', 'users', sample && (async () => sample));
    return { entries, searches, stopped, largest, shownLimits };
  } finally {
    await conn.close();
  }
}

describe('listWithinLimit on slapd', () => {
  it.each([
    [10, 0],
    [10, 4],
    [100, 0],
    [100, 30],
  ])('size limit %d, page size %d: every entry once, no search over the limit', async (limit, pageSize) => {
    const { entries, largest } = await listed(limit, pageSize);
    expect(entries.map((e) => e.dn).sort()).toEqual(NAMES.map((n) => `uid=${n},ou=many,${suffix}`).sort());
    expect(largest).toBeLessThanOrEqual(limit);
  });

  it('each part is told the limit the first search showed (unknown for the first search itself)', async () => {
    const { shownLimits } = await listed(10, 0);
    expect(shownLimits.length).toBeGreaterThan(2);
    expect(shownLimits).toEqual([undefined, ...shownLimits.slice(1).map(() => 10)]);
  });

  it('a directory that allows more needs fewer searches', async () => {
    const small = await listed(10, 0);
    const large = await listed(100, 0);
    expect(large.searches).toBeLessThan(small.searches);
    // Sized from the answers, not one search per character and level (37 a level): 300 names at 100 a search.
    expect(large.searches).toBeLessThanOrEqual(30);
  });
});

describe('listWithinLimit with a sample of the names (the listed groups\' members)', () => {
  const all = NAMES.map((n) => `uid=${n},ou=many,${suffix}`).sort();

  it('sizes the first split from the sample: only the first search is stopped, where the first entries alone stop many', async () => {
    // The directory shows a0..a9 first (the order they were added): sized from those, "a" looks small.
    const unsampled = await listed(10, 0);
    const sampled = await listed(10, 0, NAMES);
    expect(sampled.entries.map((e) => e.dn).sort()).toEqual(all);
    expect(sampled.largest).toBeLessThanOrEqual(10);
    expect(unsampled.stopped).toBeGreaterThan(3);
    expect(sampled.stopped).toBe(1);
    expect(sampled.searches).toBeLessThan(unsampled.searches);
  });

  it('a sample of some of the names (the users in groups) stands for the rest by the share of the first entries it holds', async () => {
    const some = NAMES.filter((_, i) => i % 3 !== 0);
    const sampled = await listed(10, 0, some);
    expect(sampled.entries.map((e) => e.dn).sort()).toEqual(all);
    expect(sampled.stopped).toBeLessThanOrEqual(3);
  });

  it('a sample that misleads costs searches, never an entry', async () => {
    // Names the directory lacks, and names of one part only (whatever they cover, the rest is searched).
    for (const sample of [NAMES.map((n) => `x${n}`), NAMES.filter((n) => n.startsWith('a')), [...NAMES.slice(0, 10), 'zz']]) {
      const { entries, largest } = await listed(10, 0, sample);
      expect(entries.map((e) => e.dn).sort()).toEqual(all);
      expect(largest).toBeLessThanOrEqual(10);
    }
  });
});

describe('sampledSplit', () => {
  const entry = (uid: string): LdapEntry => ({ dn: `uid=${uid},ou=x`, attributes: { uid: [uid] } });
  const root = { filter: '(uid=*)', prefix: '', excluded: new Set<string>(), estimate: 0 };
  const shown = Array.from({ length: 10 }, (_, i) => entry(`a${i}`));

  it('declines a sample holding fewer than a tenth of the shown entries', () => {
    const twenty = Array.from({ length: 20 }, (_, i) => entry(`a${i}`));
    expect(sampledSplit(root, twenty, ['a0', 'b0', 'b1', 'b2'], 'uid', 20)).toBeUndefined();
    expect(sampledSplit(root, twenty, ['A0', 'a1', 'b0'], 'uid', 20)).toBeDefined();
  });

  it('scales the sample by the share of the shown entries it holds: half of them, each name stands for two', () => {
    const sample = Array.from({ length: 20 }, (_, i) => `a${i * 2}`);
    // 20 names standing for 40 entries at a limit of 10: split under "a", each part within the limit's fill.
    const parts = sampledSplit(root, shown, sample, 'uid', 10)!;
    expect(parts.length).toBeGreaterThan(4);
    expect(parts.every((p) => p.estimate <= 10)).toBe(true);
  });
});

describe('splitPart', () => {
  const entry = (uid: string): LdapEntry => ({ dn: `uid=${uid},ou=x`, attributes: { uid: [uid] } });
  const root = { filter: '(uid=*)', prefix: '', excluded: new Set<string>(), estimate: 0 };

  it('counts the next characters lower-cased, as written once the lower-cased one is split off', () => {
    const shown = ['ab', 'Ac', 'b', 'B'].map(entry);
    expect([...nextPrefixes(shown, 'uid', '', new Set())]).toEqual([['a', 2], ['b', 2]]);
    expect([...nextPrefixes(shown, 'uid', '', new Set(['a']))]).toEqual([['A', 1], ['b', 2]]);
    expect([...nextPrefixes(shown, 'uid', 'a', new Set())]).toEqual([['ab', 1], ['ac', 1]]);
  });

  it('splits a character that shows the limit at once, and leaves the rest to a part without the others', () => {
    const shown = Array.from({ length: 10 }, (_, i) => entry(`b${i}`));
    const parts = splitPart(root, shown, 'uid', 10, 'users');
    expect(parts.map((p) => p.filter)).toContain('(&(uid=*)(!(uid=b*)))');
    expect(parts.every((p) => p.filter !== '(&(uid=*)(uid=b*))')).toBe(true);
    expect(parts.some((p) => p.prefix === 'b0')).toBe(true);
  });

  it('refuses a part whose entries all hold exactly its prefix', () => {
    const shown = Array.from({ length: 5 }, () => entry('same'));
    expect(() => splitPart({ ...root, prefix: 'same' }, shown, 'uid', 5, 'users')).toThrow(/size limit stops the search for users whose uid starts with "same" even in parts/);
  });
});
