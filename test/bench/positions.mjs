// The cost of the first position of a fast-parsed manifest, and of 150 more, in-process and cold:
// `node test/bench/positions.mjs USERS [js-yaml|careful|none]` reads the bench's manifests (manifests.mjs) as a
// plan does (parseManifest), then asks where the policies of 150 users spread over the file are
// written. `careful` works the positions out as lockstep did before js-yaml's own read gave them:
// the careful parser (the `yaml` library) reads the whole file and indexes every node; `none` asks
// none (the base for instruction counts of the whole process: `env -u NODE_EXTRA_CA_CERTS valgrind
// --tool=callgrind node test/bench/positions.mjs 10000 careful`). Prints the
// CPU time (ms) of the first position and of the 150 lookups after it. Needs `npm run build`.
import { manifests } from './manifests.mjs';

const [usersArg, mode] = process.argv.slice(2);
if (!/^\d+$/.test(usersArg ?? '') || (mode !== undefined && !['js-yaml', 'careful', 'none'].includes(mode))) throw new Error('usage: node test/bench/positions.mjs USERS [js-yaml|careful|none]');
const users = Number(usersArg);
const dist = (name) => new URL(`../../dist/load/${name}`, import.meta.url).href;
const { parseManifest } = await import(dist('parse.js'));
const { Diagnostics } = await import(new URL('../../dist/core/diagnostics.js', import.meta.url).href);
const text = manifests(users, 'bench-0');
const [, usersDocument] = parseManifest(text, 'ldap.yaml', '/abs/ldap.yaml', new Diagnostics());

/** The positions of the users' document: the plan's, or the careful parser's as before. */
async function positionsOf() {
  if (mode !== 'careful') return { pos: (path) => usersDocument.pos(path) };
  const { LineCounter, parseAllDocuments } = (await import('yaml')).default;
  const { nodeTreeSpots, PositionIndex } = await import(dist('positions.js'));
  return {
    pos(path) {
      this.index ??= (() => {
        const lines = new LineCounter();
        const documents = parseAllDocuments(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: false });
        return new PositionIndex(nodeTreeSpots(documents[1].contents), 'ldap.yaml', lines, text);
      })();
      return this.index.valuePos(path);
    },
  };
}

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const positions = mode === 'none' ? { pos: () => undefined } : await positionsOf();
const start = cpuMs();
const first = positions.pos(['users', 'u0', 'policies', 0]);
const afterFirst = cpuMs();
let last;
for (let n = 1; n <= 150; n++) last = positions.pos(['users', `u${Math.floor((n * (users - 1)) / 150)}`, 'policies', 0]);
const end = cpuMs();
console.log(JSON.stringify({ users, mode: mode ?? 'js-yaml', firstMs: +(afterFirst - start).toFixed(1), next150Ms: +(end - afterFirst).toFixed(1), first, last }));
