// YAML read strictly, through the CLI (main(), as `lockstep validate|plan` runs): only the core
// schema's tags, only UTF-8, and aliases bounded by what they expand to, refused where they
// are, by validate and plan alike.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { main } from '../../src/cli.js';
import type { OutputSink } from '../../src/commands/output.js';
import { MAX_ALIAS_EXPANSION } from '../../src/load/alias-expansion.js';
import { useTempTrees } from '../support/temp-tree.js';

const tree = useTempTrees();

function recorder(): OutputSink & { lines: string[] } {
  const lines: string[] = [];
  return { lines, out: (t) => lines.push(t), err: (t) => lines.push(t), color: false, interactive: false, prompt: async () => '' };
}

async function cli(args: string[]): Promise<{ code: number; lines: string[] }> {
  const sink = recorder();
  const code = await main(args, sink);
  return { code, lines: sink.lines };
}

/** One manifest file in a fresh folder, written as bytes. */
async function manifest(content: string | Uint8Array): Promise<string> {
  const dir = await tree({});
  const file = join(dir, 'm.yaml');
  await writeFile(file, content);
  return file;
}

/** 1-based line and column (UTF-16 units) of `offset` in `text`. */
function positionOf(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  return { line: before.split('\n').length, column: offset - (before.lastIndexOf('\n') + 1) + 1 };
}

const SLOTS = ['URL', 'POLICY', 'GROUP', 'CONFIG'] as const;
type Slot = (typeof SLOTS)[number];

/** A valid LdapAuth manifest with `tag ` written before the value of one slot. */
function taggedManifest(slot: Slot, tag: string): { text: string; tagOffset: number } {
  const parts: Record<Slot, string> = { URL: '', POLICY: '', GROUP: '', CONFIG: '' };
  parts[slot] = `${tag} `;
  const text = [
    'apiVersion: lockstep/v1',
    'kind: LdapAuth',
    'mount: ldap',
    `config: ${parts.CONFIG}`,
    `  url: ${parts.URL}ldap://a`,
    '  token_policies: [default, readers]',
    'groups:',
    `  admins: ${parts.GROUP}{ policies: [${parts.POLICY}admin] }`,
    '',
  ].join('\n');
  return { text, tagOffset: text.indexOf(tag) };
}

const word = fc.stringMatching(/^[a-z][a-z0-9]{0,8}$/);
const CORE = new Set(['str', 'int', 'float', 'bool', 'null', 'map', 'seq']);
/** Tags outside the core schema, in every form a tag is written. */
const foreignTag = fc.oneof(
  fc.constantFrom('!!python/object:os.system', '!!python/name:builtins.eval', '!!binary', '!!timestamp', '!!set', '!!omap', '!!pairs', '!!merge', '!!value', '!!js/function'),
  word.filter((w) => !CORE.has(w)).map((w) => `!!${w}`),
  word.map((w) => `!${w}`),
  word.map((w) => `!<tag:example.com,2000:${w}>`),
  word.filter((w) => !CORE.has(w)).map((w) => `!<tag:yaml.org,2002:${w}>`),
);

describe('only the core schema: a tag outside it is refused where it is written', () => {
  test('generated foreign tags on values, maps and list items: validate fails at the tag', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...SLOTS), foreignTag, async (slot, tag) => {
        const { text, tagOffset } = taggedManifest(slot, tag);
        const file = await manifest(text);
        const { line, column } = positionOf(text, tagOffset);
        const run = await cli(['validate', file]);
        expect(run.code, run.lines.join('\n')).toBe(1);
        expect(run.lines).toContainEqual(expect.stringMatching(new RegExp(`^${escapeRegExp(`${file}:${line}:${column}: error: YAML: tag `)}.* is not one of the core schema's`)));
        // The refused value is said once: no later stage reports its form again.
        expect(run.lines.filter((l) => l.includes(': error: ')), run.lines.join('\n')).toHaveLength(1);
      }),
      { numRuns: 40 },
    );
  });

  test.each([
    ['URL', '!!str'],
    ['URL', '!'],
    ['GROUP', '!!map'],
    ['CONFIG', '!!map'],
    ['POLICY', '!<tag:yaml.org,2002:str>'],
  ] as const)('a core tag that fits its value is read: %s %s', async (slot, tag) => {
    const run = await cli(['validate', await manifest(taggedManifest(slot, tag).text)]);
    expect(run.lines).toEqual(['Valid: 1 document.']);
  });

  test.each([
    ['!!int', 'URL'],
    ['!!bool', 'POLICY'],
    ['!!seq', 'GROUP'],
    ['!!null', 'URL'],
  ] as const)('a core tag its value does not fit is refused at the tag: %s on %s', async (tag, slot) => {
    const { text, tagOffset } = taggedManifest(slot, tag);
    const file = await manifest(text);
    const { line, column } = positionOf(text, tagOffset);
    const run = await cli(['validate', file]);
    expect(run.code).toBe(1);
    expect(run.lines).toContain(`${file}:${line}:${column}: error: YAML: the value does not match its tag ${tag}`);
  });

  test('a %YAML 1.1 directive is refused (1.1 reads `yes` as true and merges `<<`); the document is read by the core schema anyway', async () => {
    const text = `%YAML 1.1\n---\n${taggedManifest('URL', '').text.replace('url:  ', 'url: ')}`;
    const file = await manifest(text);
    const run = await cli(['validate', file]);
    expect(run.code).toBe(1);
    expect(run.lines).toContain(`${file}:1:1: error: YAML: only YAML 1.2 is read (the core schema); remove the %YAML 1.1 directive`);
  });
});

/** Byte sequences that are not UTF-8, of each kind the standard names. */
const notUtf8 = fc.oneof(
  fc.integer({ min: 0x80, max: 0xbf }).map((b) => [b]), // a continuation byte alone
  fc.integer({ min: 0xf5, max: 0xff }).map((b) => [b]), // never in UTF-8
  fc.constantFrom([0xc0, 0xaf], [0xc1, 0xbf], [0xe0, 0x80, 0xaf], [0xf0, 0x80, 0x80, 0xaf]), // overlong
  fc.constantFrom([0xed, 0xa0, 0x80], [0xed, 0xbf, 0xbf]), // a surrogate
  fc.constantFrom([0xe2, 0x82], [0xf0, 0x9f, 0x98], [0xc3]), // cut short (the next byte is ASCII)
  fc.constantFrom([0xf4, 0x90, 0x80, 0x80]), // beyond U+10FFFF
);

describe('only UTF-8: a byte that is not is refused at its line and column, never replaced', () => {
  // Values with characters of 2, 3 and 4 bytes, so columns are counted in characters, not bytes.
  const groupName = fc.constantFrom('admins', 'grüppe', '日本語', 'x😀y');
  test('generated bad bytes anywhere in a valid manifest: validate names the first one', async () => {
    await fc.assert(
      fc.asyncProperty(groupName, fc.nat(), notUtf8, async (name, at, bad) => {
        const text = taggedManifest('URL', '').text.replace('url:  ', 'url: ').replace('admins', name);
        // A place between two characters (never inside one): the text up to it is good UTF-8.
        const characters = [...text];
        const cut = at % (characters.length + 1);
        const before = characters.slice(0, cut).join('');
        const bytes = Buffer.concat([Buffer.from(before), Buffer.from(bad), Buffer.from(characters.slice(cut).join(''))]);
        const file = await manifest(bytes);
        const { line, column } = positionOf(before, before.length);
        const hex = bad[0].toString(16).toUpperCase();
        const run = await cli(['validate', file]);
        expect(run.code).toBe(1);
        expect(run.lines).toEqual([
          `${file}:${line}:${column}: error: not UTF-8 text: byte 0x${hex} here is not UTF-8 (manifests are read as UTF-8; the file is not read)`,
          'error: 1 error in the manifests; nothing was sent to any server',
        ]);
      }),
      { numRuns: 60 },
    );
  });

  test('U+FFFD written in the file is text like any other; a byte order mark is allowed', async () => {
    // In a value, not a name: a name holding U+FFFD is refused as one whose bytes a server's answer cannot carry (core/path-segment.ts).
    const text = taggedManifest('URL', '').text.replace('url:  ', 'url: ').replace('readers', 'read\uFFFDers');
    expect((await cli(['validate', await manifest(text)])).lines).toEqual(['Valid: 1 document.']);
    expect((await cli(['validate', await manifest(`\uFEFF${text}`)])).lines).toEqual(['Valid: 1 document.']);
  });
});

/** A manifest whose first group's policy list (names `nameLength` long) is anchored, and `uses` more groups alias it. */
function aliasingManifest(policies: number, nameLength: number, uses: number): { text: string; expandsTo: number; aliasOffsets: number[] } {
  const list = Array.from({ length: policies }, (_, i) => `policy-${i}-`.padEnd(nameLength, 'p'));
  const lines = ['apiVersion: lockstep/v1', 'kind: LdapAuth', 'mount: ldap', 'config:', '  url: ldap://a', 'groups:', `  g0: { policies: &p [${list.join(', ')}] }`];
  for (let i = 1; i <= uses; i++) lines.push(`  g${i}: { policies: *p }`);
  const text = lines.join('\n') + '\n';
  const aliasOffsets: number[] = [];
  for (let at = text.indexOf('*p'); at !== -1; at = text.indexOf('*p', at + 1)) aliasOffsets.push(at);
  return { text, expandsTo: JSON.stringify(list).length, aliasOffsets };
}

describe('aliases bounded by what they expand to: validate and plan refuse the same manifests, at the same alias', () => {
  test('generated lists aliased many times: refused exactly when the aliases expand past the limit, at the alias that crosses it', async () => {
    const env = { SERVICE_ADDR: 'http://127.0.0.1:9/v1', SERVICE_TOKEN: 'strict-yaml-token' };
    Object.assign(process.env, env);
    try {
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 1, max: 100 }), fc.integer({ min: 1, max: 2000 }), fc.integer({ min: 1, max: 99 }), async (policies, nameLength, uses) => {
          const { text, expandsTo, aliasOffsets } = aliasingManifest(policies, nameLength, uses);
          const file = await manifest(text);
          const validate = await cli(['validate', file]);
          const plan = await cli(['--retries', '0', 'plan', file]);
          const crossing = Math.floor(MAX_ALIAS_EXPANSION / expandsTo); // uses before it: within the limit
          if (crossing >= uses) {
            expect(validate.lines).toEqual(['Valid: 1 document.']);
            expect(plan.lines.join('\n')).not.toContain('YAML');
          } else {
            const { line, column } = positionOf(text, aliasOffsets[crossing]!);
            const refusal = [
              `${file}:${line}:${column}: error: YAML: alias "*p" takes what the manifests' aliases expand to past ${MAX_ALIAS_EXPANSION.toLocaleString('en-US')} characters (each use counts the size of the value it repeats)`,
              'error: 1 error in the manifests; nothing was sent to any server',
            ];
            expect(validate).toEqual({ code: 1, lines: refusal });
            expect(plan).toEqual({ code: 1, lines: refusal });
          }
        }),
        { numRuns: 25 },
      );
    } finally {
      for (const key of Object.keys(env)) delete process.env[key];
    }
  });

  test('aliases of aliases ("billion laughs") are measured as expanded, in linear time', async () => {
    const levels = ['a: &l0 [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i <= 30; i++) levels.push(`l${i}: &l${i} [${Array(10).fill(`*l${i - 1}`).join(', ')}]`);
    const text = levels.join('\n') + '\n';
    const file = await manifest(text);
    const run = await cli(['validate', file]);
    expect(run.code).toBe(1);
    // Level i lists ten uses of level i-1, each as long as JSON writes it: [x,...] is 41 characters.
    let expanded = 0;
    let crossing = '';
    for (let level = 1, size = 41; !crossing; level++, size = 2 + 10 * size + 9) {
      for (let use = 0; use < 10 && !crossing; use++) {
        expanded += size;
        if (expanded > MAX_ALIAS_EXPANSION) crossing = `l${level}: &l${level} [${Array(use).fill(`*l${level - 1}, `).join('')}`;
      }
    }
    const { line, column } = positionOf(text, text.indexOf(crossing) + crossing.length);
    expect(run.lines[0]).toMatch(`${file}:${line}:${column}: error: YAML: alias "*l`);
    expect(run.lines[0]).toContain(`takes what the manifests' aliases expand to past 4,194,304 characters`);
  });

  test('the budget is the run’s, across files: many files each under it are refused together', async () => {
    const dir = await tree({});
    const { text, expandsTo } = aliasingManifest(100, 1000, 10); // about 1 MiB of expansion each
    const files = 6;
    for (let i = 0; i < files; i++) await writeFile(join(dir, `m${i}.yaml`), text.replace('mount: ldap', `mount: ldap${i}`));
    const run = await cli(['validate', dir]);
    expect(run.code).toBe(1);
    const crossing = Math.floor(MAX_ALIAS_EXPANSION / (10 * expandsTo)); // files within the budget before it
    expect(crossing).toBeLessThan(files - 1);
    const refused = run.lines.filter((l) => l.includes('error: YAML: alias "*p"'));
    expect(refused.map((l) => l.slice(dir.length + 1, l.indexOf(':')))).toEqual(Array.from({ length: files - crossing }, (_, i) => `m${crossing + i}.yaml`));
    expect(refused[0]).toContain('takes what the manifests');
    for (const later of refused.slice(1)) expect(later).toContain('already expand to more than 4,194,304 characters');
  });

  test.each([
    ['an alias inside the value it names', 'a: &a [1, *a]\n', 'a: &a [1, '.length, 'alias "*a" lies inside the value it repeats (it would never end)'],
    ['an alias inside the map it names', 'a: &a {b: *a}\n', 'a: &a {b: '.length, 'alias "*a" lies inside the value it repeats (it would never end)'],
    ['an alias before its anchor', 'a: *b\nb: &b 1\n', 3, 'unknown alias "*b" (the anchor must be defined before it)'],
  ])('%s is refused at the alias', async (_, text, offset, message) => {
    const file = await manifest(text);
    const { line, column } = positionOf(text, offset);
    const run = await cli(['validate', file]);
    expect(run.lines[0]).toBe(`${file}:${line}:${column}: error: YAML: ${message}`);
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
