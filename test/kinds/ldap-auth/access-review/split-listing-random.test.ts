import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectFirst, searchUpToLimit } from '../../../../src/adapters/ldap/index.js';
import { listWithinLimit } from '../../../../src/kinds/ldap-auth/access-review/split-listing.js';
import { ldapSettingsFor, startSlapd, type Slapd } from '../../../support/slapd.js';

/**
 * Random name distributions against a real slapd with a size limit of 15: every entry listed
 * exactly once and no search over the limit, whatever the names and the directory's order
 * (in the names' order, reversed, or shuffled). Seeded, so a failure replays.
 */
const suffix = 'dc=example,dc=com';
const LIMIT = 15;
const SEEDS = Array.from({ length: 12 }, (_, i) => i + 1);

function random(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
}

/** 40-160 names: from a few skewed alphabets (capitals, accents, digits, '-'), shared prefixes, some a second uid. */
function directory(seed: number): Array<{ uids: string[] }> {
  const next = random(seed);
  const alphabets = ['ab', 'abcdefghij', '0123456789', 'aAbBéÉ-', 'xyz0'];
  const alphabet = alphabets[Math.floor(next() * alphabets.length)]!;
  const prefixes = Array.from({ length: 1 + Math.floor(next() * 4) }, () => Array.from({ length: Math.floor(next() * 4) }, () => alphabet[Math.floor(next() * alphabet.length)]).join(''));
  const count = 40 + Math.floor(next() * 120);
  const names = new Set<string>();
  while (names.size < count) {
    // Skewed: the first prefix far likelier than the others.
    const prefix = prefixes[Math.floor(next() ** 3 * prefixes.length)]!;
    names.add(prefix + Array.from({ length: 1 + Math.floor(next() * 5) }, () => alphabet[Math.floor(next() * alphabet.length)]).join('') + names.size.toString(36));
  }
  const sorted = [...names].sort();
  const order = seed % 3;
  const ordered = order === 0 ? sorted : order === 1 ? sorted.reverse() : sorted.map((n) => [next(), n] as const).sort(([a], [b]) => a - b).map(([, n]) => n);
  return ordered.map((uid, i) => ({ uids: i % 17 === 5 ? [uid, `${uid}-also`] : [uid] }));
}

const directories = new Map(SEEDS.map((seed) => [seed, directory(seed)]));
let slapd: Slapd;
beforeAll(async () => {
  const ldif = [...directories].flatMap(([seed, users]) => [
    `dn: ou=r${seed},${suffix}\nobjectClass: organizationalUnit\nou: r${seed}\n`,
    ...users.map(({ uids }, i) => `dn: cn=u${i},ou=r${seed},${suffix}\nobjectClass: inetOrgPerson\ncn: u${i}\n${uids.map((u) => `uid:: ${Buffer.from(u).toString('base64')}\n`).join('')}sn: s\n`),
  ]);
  slapd = await startSlapd({ offlineLdif: ldif.join('\n') + '\n', indexes: ['uid eq,sub'], sizeLimit: `size.soft=${LIMIT} size.hard=${LIMIT}` });
});
afterAll(async () => slapd.stop());

/**
 * What the listed groups' members might say of the users (split-listing.ts sampledSplit): none,
 * every name, some, names in another case, names the directory lacks, or one part's names only.
 */
function sampleOf(seed: number): readonly string[] | undefined {
  const names = directories.get(seed)!.flatMap(({ uids }) => uids);
  const next = random(seed * 7919);
  switch (seed % 6) {
    case 0:
      return undefined;
    case 1:
      return names;
    case 2:
      return names.filter(() => next() < 0.6);
    case 3:
      return names.map((n) => (next() < 0.5 ? n.toUpperCase() : n));
    case 4:
      return [...names.slice(0, 8), ...names.map((n) => `${n}zz`), 'zz'];
    default:
      return names.filter((n) => n.startsWith(names[0]!.slice(0, 1)));
  }
}

describe('listWithinLimit over random name distributions on slapd', () => {
  it.each(SEEDS)('seed %d: every entry once, no search over the limit, whatever the sample of names says', async (seed) => {
    const s = ldapSettingsFor(slapd);
    const conn = await connectFirst(slapd.url, { starttls: false, insecureTls: false, minVersion: 'tls12', maxVersion: 'tls12' }, { connectMs: 5000, requestMs: 5000 });
    try {
      await conn.client.bind(s.binddn, s.bindpass);
      let largest = 0;
      let queue = Promise.resolve();
      const search = (filter: string) => {
        const next = queue.then(() => searchUpToLimit(conn.client, { base: `ou=r${seed},${suffix}`, filter, attributes: ['uid'], pageSize: 0 }));
        queue = next.then(() => undefined, () => undefined);
        return next.then((r) => ((largest = Math.max(largest, r.entries.length)), r));
      };
      const sample = sampleOf(seed);
      const entries = await listWithinLimit(search, '(uid=*)', 'uid', 'users', sample && (async () => sample));
      const dns = entries.map((e) => e.dn);
      expect(new Set(dns).size).toBe(dns.length);
      expect(dns.sort()).toEqual(directories.get(seed)!.map((_, i) => `cn=u${i},ou=r${seed},${suffix}`).sort());
      expect(largest).toBeLessThanOrEqual(LIMIT);
    } finally {
      await conn.close();
    }
  });
});
