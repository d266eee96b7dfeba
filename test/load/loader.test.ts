import { join, relative } from 'node:path';
import { describe, expect, test, vi } from 'vitest';
import { Diagnostics } from '../../src/core/diagnostics.js';
import { loadPaths } from '../../src/load/loader.js';
import { parseManifest } from '../../src/load/parse.js';
import { useTempTrees } from '../support/temp-tree.js';

const tree = useTempTrees();

describe('parseManifest', () => {
  const text = [
    '# a comment',
    'apiVersion: lockstep/v1',
    'kind: LdapAuth',
    'config:',
    '  url: ldap://a',
    '  token_policies: [one, two]',
    '---',
    '',
    '---',
    '# only a comment',
    '---',
    'kind: Other',
    'users:',
    '  alice:',
    '    groups:',
    '      - admins',
    '      - dev',
  ].join('\n');

  test('loads every non-empty document with its index', () => {
    const diags = new Diagnostics();
    const docs = parseManifest(text, 'm.yaml', '/abs/m.yaml', diags);
    expect(diags.items).toEqual([]);
    expect(docs.map((d) => d.index)).toEqual([0, 3]);
    expect(docs[0]!.value).toEqual({ apiVersion: 'lockstep/v1', kind: 'LdapAuth', config: { url: 'ldap://a', token_policies: ['one', 'two'] } });
    expect(docs[1]!.file).toBe('m.yaml');
    expect(docs[1]!.absoluteFile).toBe('/abs/m.yaml');
  });

  test('knows the position of every value and key (1-based), in any document of the file', () => {
    const [first, second] = parseManifest(text, 'm.yaml', '/abs/m.yaml', new Diagnostics());
    expect(first!.pos(['config', 'url'])).toEqual({ file: 'm.yaml', line: 5, column: 8 });
    expect(first!.keyPos(['config', 'url'])).toEqual({ file: 'm.yaml', line: 5, column: 3 });
    expect(first!.pos(['config', 'token_policies', 1])).toEqual({ file: 'm.yaml', line: 6, column: 25 });
    expect(first!.pos(['kind'])).toEqual({ file: 'm.yaml', line: 3, column: 7 });
    expect(second!.pos(['users', 'alice', 'groups', 1])).toEqual({ file: 'm.yaml', line: 17, column: 9 });
    expect(second!.keyPos(['users', 'alice'])).toEqual({ file: 'm.yaml', line: 14, column: 3 });
    expect(second!.pos([])).toEqual({ file: 'm.yaml', line: 12, column: 1 });
  });

  test('falls back to the nearest ancestor for absent paths; keyPos falls back to pos', () => {
    const [first] = parseManifest(text, 'm.yaml', '/abs/m.yaml', new Diagnostics());
    expect(first!.pos(['config', 'missing', 'deeper'])).toEqual(first!.pos(['config']));
    expect(first!.keyPos(['config', 'token_policies', 0])).toEqual(first!.pos(['config', 'token_policies', 0]));
  });

  test('an entry without a value is positioned at its key', () => {
    const [doc] = parseManifest('users:\n  alice:\n', 'm.yaml', '/m.yaml', new Diagnostics());
    expect(doc!.value).toEqual({ users: { alice: null } });
    expect(doc!.pos(['users', 'alice']).line).toBe(2);
  });

  test('reports bad YAML at the error position and still loads the other documents', () => {
    const diags = new Diagnostics();
    const docs = parseManifest('a: [1,\nb: 2\n---\nc: 3\n', 'bad.yaml', '/bad.yaml', diags);
    expect(docs.map((d) => d.value)).toEqual([{ c: 3 }]);
    expect(diags.errors).toHaveLength(1);
    expect(diags.errors[0]!.message).toMatch(/^invalid YAML: /);
    expect(diags.errors[0]!.pos?.file).toBe('bad.yaml');
  });

  test('a reference unquoted inside { } or [ ]: the first error of its line says to quote it, once', () => {
    const hint = 'a ${...} reference inside { } or [ ] must be quoted ("${env:NAME}"), or written in block style';
    for (const text of ['auth: { method: jwt, jwt: ${env:CI_JOB_JWT} }\n', 'policies: [a, ${env:P}]\n']) {
      const diags = new Diagnostics();
      parseManifest(text, 'r.yaml', '/r.yaml', diags);
      expect(diags.errors.filter((e) => e.message.includes(hint))).toHaveLength(1);
      expect(diags.errors[0]!.message).toContain(hint);
    }
    // Quoted, or in block style, it is no error at all.
    const quoted = new Diagnostics();
    expect(parseManifest('auth: { jwt: "${env:X}" }\nb:\n  jwt: ${env:X}\n', 'q.yaml', '/q.yaml', quoted).map((d) => d.value)).toEqual([{ auth: { jwt: '${env:X}' }, b: { jwt: '${env:X}' } }]);
    expect(quoted.errors).toEqual([]);
  });

  test('#13.10: duplicate keys are errors at the second key, and the document still loads for its other checks', () => {
    const diags = new Diagnostics();
    const docs = parseManifest('kind: LdapAuth\nusers:\n  bob: {}\n  bob: {}\n', 'd.yaml', '/d.yaml', diags);
    expect(docs.map((d) => d.value)).toEqual([{ kind: 'LdapAuth', users: { bob: {} } }]);
    expect(diags.format()).toEqual(['d.yaml:4:3: error: duplicate key "bob"']);
  });

  test('a key that is a list or a mapping is an error at the key, and nothing is printed on the side', () => {
    const diags = new Diagnostics();
    const warn = vi.spyOn(process, 'emitWarning');
    try {
      parseManifest('[a, b]: 1\nc:\n  ? { d: 1 }\n  : 2\n', 'k.yaml', '/k.yaml', diags);
      expect(warn).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
    }
    expect(diags.format()).toEqual([
      'k.yaml:1:1: error: a key must be text or a number, not a list or a mapping',
      'k.yaml:3:5: error: a key must be text or a number, not a list or a mapping',
    ]);
  });

  test('nesting too deep for the parser is a located error in plain words', () => {
    const diags = new Diagnostics();
    const deep = `a:\n${Array.from({ length: 3000 }, (_, i) => `${' '.repeat(i + 1)}k${i}:`).join('\n')} x\n`;
    expect(parseManifest(deep, 'd.yaml', '/d.yaml', diags)).toEqual([]);
    expect(diags.format()).toEqual([expect.stringMatching(/^d\.yaml:\d+:\d+: error: invalid YAML: nested too deeply to read$/)]);
  });

  test('an alias to a missing anchor is an error, not a crash', () => {
    const diags = new Diagnostics();
    expect(parseManifest('a: *nowhere\n', 'x.yaml', '/x.yaml', diags)).toEqual([]);
    expect(diags.format()).toEqual(['x.yaml:1:4: error: YAML: unknown alias "*nowhere" (the anchor must be defined before it)']);
  });
});

describe('loadPaths', () => {
  test('reads directories recursively in sorted order, skipping hidden entries and other files', async () => {
    const root = await tree({
      'b.yaml': 'n: b\n',
      'a/z.yml': 'n: a/z\n',
      'a/b.yaml': 'n: a/b\n---\nn: a/b2\n',
      'c/.hidden.yaml': 'n: hidden\n',
      '.git/config.yaml': 'n: git\n',
      'notes.txt': 'n: text\n',
      'c/d/e.YAML': 'n: c/d/e\n',
    });
    const diags = new Diagnostics();
    const docs = await loadPaths([root], diags);
    expect(diags.items).toEqual([]);
    expect(docs.map((d) => (d.value as { n: string }).n)).toEqual(['a/b', 'a/b2', 'a/z', 'b', 'c/d/e']);
    expect(docs[0]!.file).toBe(join(root, 'a/b.yaml'));
    expect(docs[0]!.absoluteFile).toBe(join(root, 'a/b.yaml'));
  });

  test('display paths keep the form the user gave', async () => {
    const root = await tree({ 'm/x.yaml': 'n: 1\n' });
    const given = relative(process.cwd(), join(root, 'm'));
    const docs = await loadPaths([given], new Diagnostics());
    expect(docs[0]!.file).toBe(join(given, 'x.yaml'));
    expect(docs[0]!.absoluteFile).toBe(join(root, 'm/x.yaml'));
  });

  test('files are read once even when named twice; explicit files keep argument order', async () => {
    const root = await tree({ 'z.yaml': 'n: z\n', 'a.yaml': 'n: a\n' });
    const docs = await loadPaths([join(root, 'z.yaml'), root], new Diagnostics());
    expect(docs.map((d) => (d.value as { n: string }).n)).toEqual(['z', 'a']);
  });

  test('reports every problem of every file', async () => {
    const root = await tree({ 'a.yaml': 'x: [\n', 'b.yaml': 'k: 1\nk: 2\n', 'c.yaml': 'ok: true\n' });
    const diags = new Diagnostics();
    const docs = await loadPaths([root, join(root, 'missing'), join(root, 'notes.txt')], diags);
    expect(docs.map((d) => d.value)).toEqual([{ k: 2 }, { ok: true }]);
    const lines = diags.format().map((l) => l.split(root).join('<root>'));
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/^<root>\/a\.yaml:\d+:\d+: error: invalid YAML: /);
    expect(lines[1]).toBe('<root>/b.yaml:2:1: error: duplicate key "k"');
    expect(lines).toContain('error: <root>/missing: no such file or directory');
  });
});
