/**
 * Fuzz target for the loader: generated and mutated manifests (random bytes, broken UTF-8,
 * anchors and alias bombs, deep nesting, huge scalars, duplicate keys, every `${...}` form, file
 * references to FIFOs, devices, links out of the tree) go through load → references → schema →
 * the kinds' rules, as `validate` and `plan` run them. Whatever the input: nothing throws, the run
 * ends, every diagnostic has a position or names the path it is about, and none quotes a
 * secret; where the fast parser accepts a text, the careful one reads it alike. LOCKSTEP_FUZZ_RUNS
 * sets the number of runs (300 in the suite), LOCKSTEP_FUZZ_SEED the seed (fixed in the suite,
 * so a run is reproducible; any other explores further).
 */
import { execFileSync } from 'node:child_process';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parseAllDocuments, stringify } from 'yaml';
import type { Diagnostic } from '../../src/core/diagnostics.js';
import { parseFast } from '../../src/load/fast-parse.js';
import { MAX_REFERENCED_FILE_BYTES } from '../../src/load/file-reference.js';
import { RedactionSet } from '../../src/core/redaction.js';
import { secretTextsOf } from '../../src/engine/plan.js';
import { prepare } from '../../src/validate/prepare.js';
import { makeTree, removeTree } from '../support/temp-tree.js';

const RUNS = Number(process.env['LOCKSTEP_FUZZ_RUNS'] ?? 300);
const SEED = Number(process.env['LOCKSTEP_FUZZ_SEED'] ?? 20261125);
const SECRET = 'canary-fuzz-secret-9d4e';
const FILE_SECRET = 'canary-fuzz-file-2b7c';
const OUTSIDE_SECRET = 'canary-fuzz-outside-71fa';
const ENV = { SERVICE_ADDR: 'http://127.0.0.1:9/v1', SERVICE_TOKEN: SECRET, PASS: SECRET, TOKEN: SECRET, EMPTY: '', URL: 'ldap://a' };

let root: string;
let manifests: string;
beforeAll(async () => {
  root = await makeTree({ 'outside.txt': OUTSIDE_SECRET, 'm/ok.txt': `${FILE_SECRET}\n`, 'm/sub/x': '' });
  manifests = join(root, 'm');
  await mkdir(join(root, 'm', '.git'));
  await writeFile(join(manifests, 'big.txt'), 'x'.repeat(MAX_REFERENCED_FILE_BYTES + 1));
  execFileSync('mkfifo', [join(manifests, 'pipe')]);
  await symlink(join(root, 'outside.txt'), join(manifests, 'out'));
  await symlink('loop', join(manifests, 'loop'));
});
afterAll(() => removeTree(root));

const KINDS = ['LdapAuth', 'ManagedKey', 'SnapshotPolicy', 'DrReplication', 'AclPolicy', 'Namespace', 'Cluster', 'Nope'];
const FIELDS = [
  'apiVersion', 'kind', 'name', 'cluster', 'namespace', 'mount', 'config', 'groups', 'users', 'prune', 'type', 'verify', 'primary',
  'secondaries', 'operationTokens', 'keyShares', 'address', 'token', 'caCert', 'url', 'binddn', 'bindpass', 'userdn', 'userattr',
  'token_ttl', 'token_policies', 'policies', 'pin', 'library', 'key_label', 'mechanism', 'interval', 'retain', 'storage_type',
  'path_prefix', 'local_max_space', 'client_tls_key', 'credentials', 'secret_key', 'policy', 'primaryClusterAddr', 'secondaryTokenTtl', 'acknowledge',
  'managedElsewhere', '__proto__', 'constructor', '', 'a.b', '${env:PASS}',
];
const REFERENCE_TARGETS = [
  'ok.txt', 'pipe', 'big.txt', 'out', 'sub', 'loop', 'missing', '/proc/self/environ', '/dev/zero', '../outside.txt', '../../../etc/passwd', ' ', '',
];
const STRINGS = [
  'ldap://a', 'lockstep/v1', 'east', 'default', '1h', '0x1041', 'pkcs11', 'local', '/tmp/s', 'true', '$$', '$${env:PASS}', '${', '}', 'x${env:PASS}',
  '${env:PASS}', '${env:TOKEN}', '${env:MISSING}', '${env:EMPTY}', '${env:1BAD}', '${vault:x}', '${ENV:PASS}', '${env:PASS', '$$${x}', 'a?b', '..', '.',
  ...REFERENCE_TARGETS.map((t) => `\${file:${t}}`),
];

/** A manifest-shaped value: mostly known fields and reference forms, so the later stages are reached. */
const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  leaf: fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...STRINGS) },
    { weight: 2, arbitrary: fc.string({ maxLength: 12 }) },
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
  ),
  node: fc.oneof({ depthSize: 'small', withCrossShrink: true }, tie('leaf'), tie('list'), tie('map')),
  list: fc.array(tie('node'), { maxLength: 4 }),
  map: fc.dictionary(fc.oneof(fc.constantFrom(...FIELDS), fc.string({ maxLength: 6 })), tie('node'), { maxKeys: 6 }),
})).node;

const document = fc
  .record({ kind: fc.constantFrom(...KINDS), rest: fc.dictionary(fc.constantFrom(...FIELDS), value, { maxKeys: 8 }) })
  .map(({ kind, rest }) => ({ apiVersion: 'lockstep/v1', kind, ...rest }));

/** Text edits that make YAML the generators above never write. */
const mutation = fc.oneof(
  fc.record({ at: fc.nat(), text: fc.constantFrom('\n', ': ', '- ', '&a ', '*a', '*b', '!!binary ', '!x ', '{', '[', '"', "'", '\t', '|', '? ', '---\n', '...\n', '%YAML 1.1\n', '#') }),
  fc.record({ at: fc.nat(), text: fc.string({ maxLength: 8 }) }),
  fc.record({ at: fc.nat(), text: fc.constantFrom('kind: LdapAuth\nkind: LdapAuth\n', 'config:\n  url: a\n  url: b\n', 'users:\n  bob: {}\n  Bob: {}\n  bob: {}\n') }),
  fc.record({ at: fc.nat(), cut: fc.constant(true) }),
);

function mutate(text: string, edits: ReadonlyArray<{ at: number; text?: string; cut?: boolean }>): string {
  let out = text;
  for (const e of edits) {
    const at = out.length === 0 ? 0 : e.at % (out.length + 1);
    out = e.cut ? out.slice(0, at) : out.slice(0, at) + e.text + out.slice(at);
  }
  return out;
}

/** Inputs meant to exhaust: alias bombs, deep nesting, huge scalars, many keys. */
const hostile = fc.oneof(
  fc.integer({ min: 2, max: 12 }).map((levels) => {
    const lines = ['apiVersion: lockstep/v1', 'kind: LdapAuth', 'a0: &a0 [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < levels; i++) lines.push(`a${i}: &a${i} [${Array(10).fill(`*a${i - 1}`).join(', ')}]`);
    lines.push(`users: *a${levels - 1}`);
    return lines.join('\n') + '\n';
  }),
  fc.record({ depth: fc.integer({ min: 100, max: 20_000 }), flow: fc.boolean() }).map(({ depth, flow }) =>
    flow ? `apiVersion: lockstep/v1\nkind: LdapAuth\nconfig: ${'['.repeat(depth)}${']'.repeat(depth)}\n` : `apiVersion: lockstep/v1\nkind: LdapAuth\nconfig:\n${Array.from({ length: Math.min(depth, 2000) }, (_, i) => `${' '.repeat(i + 1)}k${i}:`).join('\n')} x\n`,
  ),
  fc.integer({ min: 1, max: 2 }).map((mib) => `apiVersion: lockstep/v1\nkind: LdapAuth\nconfig:\n  url: ${'u'.repeat(mib * 1024 * 1024)}\n`),
  fc.integer({ min: 1000, max: 4000 }).map((n) => `apiVersion: lockstep/v1\nkind: LdapAuth\nusers:\n${Array.from({ length: n }, (_, i) => `  u${i % 3000}: { policies: [p] }`).join('\n')}\n`),
);

/** What a generated file holds: bytes, so broken UTF-8 is possible. */
const fileBytes: fc.Arbitrary<Uint8Array> = fc.oneof(
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 300 }) },
  { weight: 5, arbitrary: fc.tuple(fc.array(document, { minLength: 1, maxLength: 3 }), fc.array(mutation, { maxLength: 3 })).map(([docs, edits]) => utf8(mutate(docs.map((d) => stringify(d)).join('---\n'), edits))) },
  { weight: 1, arbitrary: fc.tuple(document, fc.uint8Array({ minLength: 1, maxLength: 4 }), fc.nat()).map(([d, junk, at]) => spliceBytes(utf8(stringify(d)), junk, at)) },
  { weight: 1, arbitrary: hostile.map(utf8) },
);

function utf8(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

function spliceBytes(bytes: Uint8Array, junk: Uint8Array, at: number): Uint8Array {
  const i = at % (bytes.length + 1);
  return Uint8Array.from([...bytes.subarray(0, i), ...junk, ...bytes.subarray(i)]);
}

/** Where the fast parser accepts a text, the careful one reads it without an error to the same values. */
function expectParsersAgree(bytes: Uint8Array): void {
  const text = new TextDecoder().decode(bytes);
  const fast = parseFast(text);
  if (fast === undefined) return;
  const careful = parseAllDocuments(text, { uniqueKeys: false, logLevel: 'error' });
  const problems = careful.flatMap((d) => d.errors.map((e) => e.message));
  expect(problems, `fast parser accepted:\n${text.slice(0, 500)}`).toEqual([]);
  const meaningful = (docs: unknown[]): unknown[] => docs.filter((d) => d !== null && d !== undefined);
  expect(meaningful(fast), text.slice(0, 500)).toEqual(meaningful(careful.map((d) => d.toJS({ maxAliasCount: 100 }))));
}

/** A positionless diagnostic is fine when it names what it is about (a path) or is about the run as a whole. */
function isLocatedOrGlobal(d: Diagnostic): boolean {
  return d.pos !== undefined || d.message.startsWith(root) || /^no cluster to talk to|^SERVICE_/.test(d.message);
}

describe('loader fuzz', () => {
  test(`#13 fuzz: load + validate never throws, always ends, locates every diagnostic, quotes no secret (${RUNS} runs)`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fileBytes, { minLength: 1, maxLength: 2 }), fc.boolean(), async (files, requireClusters) => {
        for (const bytes of files) expectParsersAgree(bytes);
        await Promise.all(files.map((bytes, i) => writeFile(join(manifests, `f${i}.yaml`), bytes)));
        try {
          const prepared = await prepare([manifests], { allowPlaintextSecrets: false, prune: false, requireClusters, env: ENV });
          // What a command prints: each message through the run's redaction set (commands/pipeline.ts).
          // The environment's token is a secret of every run; the file's text is one when a secret field read it
          // (read into another field, it is a value the manifest shows on purpose).
          const redaction = new RedactionSet(secretTextsOf(prepared));
          for (const d of prepared.diags.items) {
            expect(isLocatedOrGlobal(d), `no position: ${d.message}`).toBe(true);
            if (d.pos) expect(d.pos.line >= 1 && d.pos.column >= 1, `bad position for ${d.message}`).toBe(true);
            const printed = redaction.redact(d.message);
            expect(printed).not.toContain(SECRET);
            if (prepared.secretTexts.has(FILE_SECRET)) expect(printed).not.toContain(FILE_SECRET);
          }
          // A file outside the tree is never read, so never quoted, whatever field names it.
          for (const d of prepared.diags.items) expect(d.message).not.toContain(OUTSIDE_SECRET);
        } finally {
          await Promise.all(files.map((_, i) => writeFile(join(manifests, `f${i}.yaml`), '')));
        }
      }),
      { numRuns: RUNS, seed: SEED },
    );
  }, 600_000);
});
