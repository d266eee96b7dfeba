import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Diagnostics } from '../../src/core/diagnostics.js';
import { isSecret, Secret } from '../../src/core/secret.js';
import type { LoadedDocument } from '../../src/load/document.js';
import { parseManifest } from '../../src/load/parse.js';
import { classifyString, resolveReferences } from '../../src/load/references.js';
import { makeTree, removeTree } from '../support/temp-tree.js';

const SECRET = 'hunter2-very-secret';
let root: string;
beforeAll(async () => {
  root = await makeTree({
    'certs/ca.pem': 'PEM TEXT\n',
    'two-newlines.txt': 'x\n\n',
    'crlf.txt': 'y\r\n',
    'secret.txt': `${SECRET}\n`,
  });
});
afterAll(() => removeTree(root));

function doc(yaml: string): LoadedDocument {
  const diags = new Diagnostics();
  const [d] = parseManifest(yaml, 'm.yaml', join(root, 'm.yaml'), diags);
  expect(diags.items).toEqual([]);
  return d!;
}

async function resolve(yaml: string, secretPaths: string[][] = [], allowPlaintextSecrets = false, env: NodeJS.ProcessEnv = {}) {
  const diags = new Diagnostics();
  const value = await resolveReferences(doc(yaml), secretPaths, { allowPlaintextSecrets, env }, diags);
  return { value: value as Record<string, unknown> | undefined, lines: diags.format() };
}

describe('classifyString', () => {
  test.each([
    ['plain', { form: 'literal', text: 'plain' }],
    ['$${env:A}', { form: 'literal', text: '${env:A}' }],
    ['a $$${b} $$ $x', { form: 'literal', text: 'a $${b} $$ $x' }],
    ['${env:A_1}', { form: 'env', name: 'A_1' }],
    ['${file:certs/ca.pem}', { form: 'file', path: 'certs/ca.pem' }],
  ])('%s', (text, expected) => expect(classifyString(text)).toEqual(expected));

  test.each(['x${env:A}', '$${env:A}${env:B}', '${env:A}x', '${env:A', '${env:1A}', '${vault:a}', '${file:}', '${ENV:A}'])('%s is malformed', (text) => {
    expect(classifyString(text).form).toBe('malformed');
  });
});

describe('resolveReferences', () => {
  test('resolves env and file references anywhere, relative to the manifest folder, without mutating the input', async () => {
    const d = doc('a: ${env:A}\nlist: [x, "${file:certs/ca.pem}"]\nnested: { n: "${file:two-newlines.txt}", c: "${file:crlf.txt}" }\nnum: 3\n');
    const before = structuredClone(d.value);
    const value = await resolveReferences(d, [], { allowPlaintextSecrets: false, env: { A: 'from-env' } }, new Diagnostics());
    expect(value).toEqual({ a: 'from-env', list: ['x', 'PEM TEXT'], nested: { n: 'x\n', c: 'y' }, num: 3 });
    expect(d.value).toEqual(before);
    expect(value).not.toBe(d.value);
  });

  test('a secret field written as a list or a mapping (its schema refuses it) still holds secrets: each text below it is one', async () => {
    const secretTexts = new Set<string>();
    const d = doc('a: ["${env:PASS}"]\nb: { x: "${env:PASS2}" }\nc: ${env:PASS}\n');
    const value = (await resolveReferences(d, [['a'], ['b']], { allowPlaintextSecrets: false, env: { PASS: SECRET, PASS2: `${SECRET}-2` }, secretTexts }, new Diagnostics())) as Record<string, unknown>;
    expect(isSecret((value['a'] as unknown[])[0])).toBe(true);
    expect(isSecret((value['b'] as Record<string, unknown>)['x'])).toBe(true);
    // The same reference in a field that is not secret is plain text, and the run knows it as a secret.
    expect(value['c']).toBe(SECRET);
    expect([...secretTexts].sort()).toEqual([SECRET, `${SECRET}-2`]);
  });

  test('secret fields become Secret objects with their origin', async () => {
    const { value } = await resolve('a: ${env:PASS}\nb: ${file:secret.txt}\n', [['a'], ['b']], false, { PASS: SECRET });
    const a = value!.a as Secret;
    const b = value!.b as Secret;
    expect(isSecret(a) && isSecret(b)).toBe(true);
    expect([a.origin, a.reveal()]).toEqual(['env:PASS', SECRET]);
    expect([b.origin, b.reveal()]).toEqual(['file:secret.txt', SECRET]);
    expect(JSON.stringify(value)).not.toContain(SECRET);
  });

  test('a literal secret is refused, naming the field but never the value', async () => {
    const { value, lines } = await resolve(`config:\n  bindpass: ${SECRET}\n`, [['config', 'bindpass']]);
    expect(value).toBeUndefined();
    expect(lines).toEqual([
      'm.yaml:2:13: error: config.bindpass is a secret and must be a ${env:...} or ${file:...} reference (or pass --allow-plaintext-secrets)',
    ]);
  });

  test('a literal secret is accepted with --allow-plaintext-secrets, as a Secret of origin literal', async () => {
    const { value, lines } = await resolve(`config:\n  bindpass: ${SECRET}\n`, [['config', 'bindpass']], true);
    expect(lines).toEqual([]);
    const s = (value!.config as Record<string, unknown>).bindpass as Secret;
    expect([s.origin, s.reveal()]).toEqual(['literal', SECRET]);
  });

  test('#13.5: $${ is a literal ${, never resolved; in a secret field it is a literal secret', async () => {
    const { value, lines } = await resolve('binddn: "$${env:SERVICE_TOKEN}"\nnote: "cost: $$5, $${x}"\n', [], false, { SERVICE_TOKEN: SECRET });
    expect(lines).toEqual([]);
    expect(value).toEqual({ binddn: '${env:SERVICE_TOKEN}', note: 'cost: $$5, ${x}' });
    const secret = await resolve('bindpass: "$${env:P}"\n', [['bindpass']]);
    expect(secret.lines).toEqual([
      'm.yaml:1:11: error: bindpass is a secret and must be a ${env:...} or ${file:...} reference (or pass --allow-plaintext-secrets)',
    ]);
  });

  test('an empty secret needs no reference', async () => {
    const { lines } = await resolve('p: ""\n', [['p']]);
    expect(lines).toEqual([]);
  });

  test('missing variables and files are errors naming them, at the value', async () => {
    const { value, lines } = await resolve('a: ${env:NOPE}\nb:\n  - ${file:certs/missing.pem}\n');
    expect(value).toBeUndefined();
    expect(lines).toEqual([
      'm.yaml:1:4: error: a: environment variable "NOPE" is not set',
      `m.yaml:3:5: error: b[0]: file "certs/missing.pem" does not exist (paths are relative to the manifest's folder)`,
    ]);
  });

  test('partial references are errors that do not echo the value', async () => {
    const { lines } = await resolve(`pass: "${SECRET}\${env:X}"\nurl: "ldap://\${env:HOST}:389"\n`, [['pass']]);
    expect(lines).toEqual([
      'm.yaml:1:7: error: pass: not a whole-string reference: write the whole value as ${env:NAME} or ${file:path}, or a literal "${" as "$${"',
      'm.yaml:2:6: error: url: not a whole-string reference: write the whole value as ${env:NAME} or ${file:path}, or a literal "${" as "$${"',
    ]);
    expect(lines.join('\n')).not.toContain(SECRET);
  });

  test('no diagnostic ever contains a secret value', async () => {
    const yaml = `a: ${SECRET}\nb: "\${file:secret.txt}"\nc: "\${env:S}"\n`;
    const { lines } = await resolve(yaml, [['a'], ['b'], ['c']], false, { S: SECRET });
    expect(lines).toHaveLength(1);
    expect(lines.join('\n')).not.toContain(SECRET);
  });
});

describe('resolveReferences copies only what it resolves', () => {
  test('a document with nothing to resolve is returned as it is, not copied', async () => {
    const d = doc('kind: LdapAuth\nusers:\n  alice: { policies: [a, b] }\n  bob: { groups: [g] }\n');
    const value = await resolveReferences(d, [], { allowPlaintextSecrets: false, env: {} }, new Diagnostics());
    expect(value).toBe(d.value);
  });

  test('a reference deep inside copies its path only; the document is never changed', async () => {
    const d = doc('config:\n  url: ${env:URL}\n  userdn: ou=people\nusers:\n  alice: { policies: [a] }\n');
    const before = JSON.stringify(d.value);
    const value = (await resolveReferences(d, [], { allowPlaintextSecrets: false, env: { URL: 'ldaps://x' } }, new Diagnostics())) as Record<string, any>;
    const original = d.value as Record<string, any>;
    expect(value.config).toEqual({ url: 'ldaps://x', userdn: 'ou=people' });
    expect(value).not.toBe(original);
    expect(value.config).not.toBe(original.config);
    expect(value.users).toBe(original.users);
    expect(JSON.stringify(d.value)).toBe(before);
  });

  test('a __proto__ key in a copied mapping stays an own key', async () => {
    const d = doc('a:\n  "__proto__": { polluted: true }\n  b: ${env:B}\n');
    const value = (await resolveReferences(d, [], { allowPlaintextSecrets: false, env: { B: 'x' } }, new Diagnostics())) as Record<string, any>;
    expect(Object.keys(value.a)).toEqual(['__proto__', 'b']);
    expect(Object.getPrototypeOf(value.a)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});

describe('resolveReferences notes the texts holding a needle (textsHolding)', () => {
  const noted = async (yaml: string, secretPaths: string[][] = [], env: NodeJS.ProcessEnv = {}) => {
    const found: Array<{ path: readonly (string | number)[]; text: string }> = [];
    const diags = new Diagnostics();
    const value = await resolveReferences(doc(yaml), secretPaths, { allowPlaintextSecrets: true, env, textsHolding: { needle: 'PEM', found } }, diags);
    return { found, value, lines: diags.format() };
  };

  test('every plain text holding it, resolved, with its path, in the order of the value (a file at its place, read later)', async () => {
    const { found } = await noted('a: PEM one\nb:\n  - x\n  - ${file:certs/ca.pem}\n  - { c: "$${PEM}" }\nd: ${env:E}\ne: no\n', [], { E: 'PEM env' });
    expect(found).toEqual([
      { path: ['a'], text: 'PEM one' },
      { path: ['b', 1], text: 'PEM TEXT' },
      { path: ['b', 2, 'c'], text: '${PEM}' },
      { path: ['d'], text: 'PEM env' },
    ]);
  });

  test('secrets are never noted, however they were given; a document with a problem notes nothing', async () => {
    const secrets = await noted('s: PEM literal\nt: ${env:E}\nu: ${file:certs/ca.pem}\n', [['s'], ['t'], ['u']], { E: 'PEM env' });
    expect(secrets.found).toEqual([]);
    const failed = await noted('a: PEM one\nb: ${env:MISSING}\n');
    expect(failed.value).toBeUndefined();
    expect(failed.found).toEqual([]);
  });
});
