// The fast parser (js-yaml with the YAML 1.2 core schema) must give exactly the values the careful
// parser (the `yaml` library) gives, or decline. These tests compare the two on scalar forms,
// on generated documents, and on every manifest in the repository.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { Diagnostics } from '../../src/core/diagnostics.js';
import { parseFast } from '../../src/load/fast-parse.js';
import { parseManifest } from '../../src/load/parse.js';

function careful(text: string): unknown[] {
  return parseAllDocuments(text, { uniqueKeys: false }).map((d) => d.toJS());
}

/** Where the fast parser accepts, its values are the careful parser's. Returns whether it accepted. */
function agrees(text: string): boolean {
  const fast = parseFast(text);
  if (fast === undefined) return false;
  const slow = careful(text);
  // Documents the careful parser does not count (a file of comments) are empty ones.
  const meaningful = (docs: unknown[]): unknown[] => docs.filter((d) => d !== null && d !== undefined);
  expect(meaningful(fast), text).toEqual(meaningful(slow));
  return true;
}

describe('parseFast reads scalars as YAML 1.2 core does', () => {
  const plain = [
    '0', '-0', '+12', '012', '0o17', '0o18', '0x1F', '0xg', '0b101', '1_000', '1,000', '1e3', '1E-3', '-1.5e+2', '.5', '5.', '+.5',
    '.inf', '-.Inf', '+.INF', '.nan', '.NaN', '-.nan', 'inf', 'NaN', 'true', 'True', 'TRUE', 'tRUE', 'yes', 'no', 'on', 'off', 'y',
    '~', 'null', 'Null', 'NULL', 'nULL', '2024-01-01', '2001-12-14t21:59:43.10-05:00', '12:30:00', '1:20', '190:20:30', '0.1.2',
    '9007199254740993', '12345678901234567890', '1h', '30m', 'ldap://a:389', '(uid={{.Username}})', '(&(a=*)(b=*))', 'a b  c',
  ];
  test.each(plain)('plain %s', (s) => {
    expect(agrees(`v: ${s}\n`)).toBe(true);
    // In a flow list some of these are not valid YAML (braces, commas): then agreeing is enough.
    agrees(`l: [${s}]\nm: { k: ${s} }\n`);
  });
  test.each(plain)('quoted %s stays a string', (s) => {
    expect(agrees(`v: "${s}"\nw: '${s}'\n`)).toBe(true);
  });
  test('a byte-order mark, CRLF line ends, escapes and explicit core tags', () => {
    for (const text of ['\uFEFFa: 1\n', 'a: 1\r\nb: [x, y]\r\n---\r\nc: 2\r\n', 'a: "\\x41\\u00e9"\n', 'a: !!str 12\nb: !!int "12"\n', "a: 'it''s'\n"]) {
      expect(agrees(text)).toBe(true);
    }
  });
  test('a __proto__ key is an own key, as in the careful parser, and pollutes nothing', () => {
    expect(agrees('__proto__: { polluted: yes }\nx:\n  __proto__: { isAdmin: true }\n')).toBe(true);
    const [doc] = parseFast('__proto__: { polluted: yes }\n') as Array<Record<string, unknown>>;
    expect(Object.keys(doc!)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(doc)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
  test('block scalars, empty values and keys that look like numbers', () => {
    for (const text of ['a: |\n  x\n  y\nb: >-\n  folded\n  text\n', 'a:\nb: ~\nc: []\nd: {}\n', '1: one\n"2": two\ntrue: t\n0x10: h\n2.50: f\n.inf: i\n']) {
      expect(agrees(text)).toBe(true);
    }
  });
});

describe('parseFast declines what only the careful parser reports well', () => {
  test.each([
    ['bad indentation', 'a:\n  b: 1\n c: 2\n'],
    ['a duplicate key', 'a: 1\na: 2\n'],
    ['an alias of a collection', 'base: &b { x: 1 }\nother: *b\n'],
    ['an unknown alias', 'a: *nowhere\n'],
    ['a directive', '%YAML 1.1\n---\na: yes\n'],
    ['an unknown tag', 'a: !secret x\n'],
    ['a tab as indentation', 'a:\n\tb: 1\n'],
    ['a null key', '~: a\n'],
    ['a written "null" key (indistinguishable from a null key)', '"null": a\n'],
    ['a list as a key', '? [a, b]\n: c\n'],
    ['a map as a key', '? { a: 1 }\n: c\n'],
    ['an empty key', '"": a\n'],
    ['a one-item list as a key (js-yaml reads it as its item)', '[kind]: LdapAuth\n'],
    ['a one-item list as an explicit key', '? [a]\n: c\n'],
    ['a one-item list as a key in a flow mapping', 'a: {[b] : c}\n'],
    ['an alias as a key', 'a: &k [x]\n*k : c\n'],
    ['a bare carriage return (js-yaml: a line break; the careful parser: text)', 'a: 1\rb: 2\n'],
    ['a bare carriage return in a quoted value', 'a: "x\ry"\n'],
    ['an empty list entry, then a less indented one (js-yaml: one list)', 'a:\n  - true\n  -\n - x\n'],
    ['a tab at the start of a line before a value', '\t.\n'],
    ['a double-quoted value over two lines, the second not indented under its key', 'a:\n  b: "x\n  y"\n'],
    ['a single-quoted value over two lines', "a:\n  - 'x\n  y'\n"],
    ['content after a document end marker', '... x\n'],
    ['a block scalar with an indentation indicator', 'a: |-1\n  x\n'],
    ['a tag, then a key on the same line', 'a: !!str b: c\n'],
    ['a # right after a flow value', 'a: []#c\n'],
    ['a tab after a list dash', '- \t&x 1\n'],
    ['a tag that ends its line (js-yaml drops it)', 'a: !!str\n  true\n'],
    ['an anchor that ends its line', 'a: &x\r\n  1\n'],
    ['four dashes starting a line', '----\n\n  b\n'],
    ['three dashes and text', '---1e3\n'],
    ['a list entry with an empty list entry', '- - \n- x\n'],
    ['the non-specific tag on an empty value (js-yaml: null; the careful parser: "")', 'a: !\n'],
  ])('%s', (_, text) => {
    expect(parseFast(text)).toBeUndefined();
  });

  test.each(['a: &x hello\nb: *x\n', 'a: &x 1\nb: [*x]\n', 'a: &x 1\nb: {c: *x}\n', 'a: &x 1\n"b":*x\n'])(
    'an alias, even of a scalar, is left to the careful parser, which measures what aliases expand to: %j',
    (text) => {
      expect(parseFast(text)).toBeUndefined();
    },
  );
});

describe('parseFast against the careful parser', () => {
  const key = fc.oneof(
    { arbitrary: fc.stringMatching(/^[a-z][a-z0-9_-]{0,8}$/), weight: 20 },
    { arbitrary: fc.constantFrom('1', '0x1f', '2.50', 'true', '~', 'null', '"a,b"', '.nan', '-0'), weight: 1 },
  );
  const scalar = fc.oneof(
    fc.constantFrom('1', '-2', '0o7', '0x1f', '1.5', '.5', '1e2', 'true', 'False', 'null', '~', '.inf', '.nan', 'yes', '0b1', '1_0', 'x y'),
    fc.stringMatching(/^[a-z0-9.:+-]{1,10}$/),
    fc.string({ maxLength: 12 }).map((s) => JSON.stringify(s)),
  );
  const value: fc.Arbitrary<string> = fc.letrec<{ node: string }>((tie) => ({
    node: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      scalar,
      fc.array(tie('node'), { maxLength: 4 }).map((items) => `[${items.join(', ')}]`),
      fc.uniqueArray(fc.tuple(key, tie('node')), { maxLength: 4, selector: ([k]) => k }).map((pairs) => `{${pairs.map(([k, v]) => `${k}: ${v}`).join(', ')}}`),
    ),
  })).node;
  const document = fc
    .uniqueArray(fc.tuple(key, value), { minLength: 1, maxLength: 6, selector: ([k]) => k })
    .map((pairs) => pairs.map(([k, v]) => `${k}: ${v}`).join('\n'));

  test('generated documents read the same (fixed seed), and most are accepted', () => {
    let accepted = 0;
    fc.assert(
      fc.property(fc.array(document, { minLength: 1, maxLength: 3 }), (docs) => {
        if (agrees(docs.join('\n---\n') + '\n')) accepted++;
      }),
      { seed: 20261122, numRuns: 1000 },
    );
    expect(accepted).toBeGreaterThan(300);
  });

  test('every manifest in examples/ and test/cases/ reads the same', () => {
    const root = join(import.meta.dirname, '../..');
    const files: string[] = [];
    const walk = (dir: string): void => {
      for (const name of readdirSync(dir)) {
        const p = join(dir, name);
        if (statSync(p).isDirectory()) walk(p);
        else if (/\.ya?ml$/.test(name)) files.push(p);
      }
    };
    walk(join(root, 'examples'));
    walk(join(root, 'test/cases'));
    expect(files.length).toBeGreaterThan(50);
    let accepted = 0;
    for (const file of files) if (agrees(readFileSync(file, 'utf8'))) accepted++;
    // The broken-manifest cases are mostly declined; every valid manifest is accepted.
    expect(accepted).toBeGreaterThan(files.length / 3);
  });
});

describe('positions of fast-parsed documents', () => {
  test('are worked out on first use, for any document of the file', () => {
    const text = 'a: 1\n---\nkind: X\nusers:\n  alice: { groups: [g1, g2] }\n';
    expect(parseFast(text)).toBeDefined();
    const [, second] = parseManifest(text, 'm.yaml', '/abs/m.yaml', new Diagnostics());
    expect(second!.index).toBe(1);
    expect(second!.keyPos(['users', 'alice'])).toEqual({ file: 'm.yaml', line: 5, column: 3 });
    expect(second!.pos(['users', 'alice', 'groups', 1])).toEqual({ file: 'm.yaml', line: 5, column: 25 });
  });
});
