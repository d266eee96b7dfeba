// `node test/bench/split-listing.mjs` (after `npm run build`): what the access review's listing
// under a size limit costs (split-listing.ts), counted without a directory: BENCH_NAMES names
// (default 10,000) held by an in-memory directory that answers each filter with ldapts's own
// matcher, stopping at BENCH_LIMIT entries (default 500, slapd's default) and sending them in
// the order the names were added. Per distribution (numbered names in order, zero-padded in
// order, at random) and sample of the names (none, every name, 60%, a fifth, a tenth, the first 30%
// added), the searches sent, those stopped, and the entries sent; random orders and samples are
// averaged over BENCH_TRIALS trials (default 5). Exactness is the slapd tests' business
// (split-listing*.test.ts); this counts what a split costs.
import { FilterParser } from 'ldapts';
import { listWithinLimit } from '../../dist/kinds/ldap-auth/access-review/split-listing.js';

const NAMES = Number(process.env.BENCH_NAMES ?? 10_000);
const LIMIT = Number(process.env.BENCH_LIMIT ?? 500);
const TRIALS = Number(process.env.BENCH_TRIALS ?? 5);

async function listing(names, sample) {
  const entries = names.map((uid) => ({ dn: `uid=${uid},ou=people`, attributes: { uid: [uid] } }));
  // ldapts's matcher compares one value (its equality filter takes no list).
  const values = entries.map((e) => ({ uid: e.attributes.uid[0] }));
  const count = { searches: 0, stopped: 0, sent: 0 };
  const search = async (filter) => {
    const f = FilterParser.parseString(filter);
    count.searches++;
    const found = [];
    for (const [i, e] of entries.entries()) {
      if (!f.matches(values[i])) continue;
      found.push(e);
      if (found.length > LIMIT) break;
    }
    const complete = found.length <= LIMIT;
    if (!complete) count.stopped++;
    const sent = complete ? found : found.slice(0, LIMIT);
    count.sent += sent.length;
    return { complete, entries: sent };
  };
  const listed = await listWithinLimit(search, '(uid=*)', 'uid', 'users', sample && (async () => sample));
  if (listed.length !== names.length) throw new Error(`listed ${listed.length} of ${names.length}`);
  return count;
}

const shuffled = (xs) => xs.map((x) => [Math.random(), x]).sort(([a], [b]) => a - b).map(([, x]) => x);
const numbered = Array.from({ length: NAMES }, (_, i) => `u${i}`);
const padded = numbered.map((_, i) => `u${String(i).padStart(String(NAMES).length, '0')}`);
const distributions = [
  ['numbered, in order', () => numbered],
  ['zero-padded, in order', () => padded],
  ['numbered, at random', () => shuffled(numbered)],
];
const samples = [
  ['none', () => undefined],
  ['every name', (names) => names],
  ['60%', (names) => names.filter(() => Math.random() < 0.6)],
  ['a fifth', (names) => names.filter(() => Math.random() < 0.2)],
  ['a tenth', (names) => names.filter(() => Math.random() < 0.1)],
  ['the first 30% added', (names) => names.slice(0, Math.floor(names.length * 0.3))],
];

console.log(`split-listing: ${NAMES.toLocaleString('en-US')} names, a limit of ${LIMIT}; random cases averaged over ${TRIALS} trials`);
console.log('| names | sample | searches | stopped | entries sent |');
console.log('|---|---|---|---|---|');
for (const [label, order] of distributions) {
  for (const [sampleLabel, sampleOf] of samples) {
    const random = label.includes('random') || ['60%', 'a fifth', 'a tenth'].includes(sampleLabel);
    const runs = random ? TRIALS : 1;
    const sum = { searches: 0, stopped: 0, sent: 0 };
    for (let t = 0; t < runs; t++) {
      const names = order();
      const c = await listing(names, sampleOf(label.includes('random') ? numbered : names));
      for (const k of Object.keys(sum)) sum[k] += c[k];
    }
    const avg = (k) => (sum[k] / runs).toLocaleString('en-US', { maximumFractionDigits: 1 });
    console.log(`| ${label} | ${sampleLabel} | ${avg('searches')} | ${avg('stopped')} | ${avg('sent')} |`);
  }
}
