/**
 * Validators compiled at build time must judge exactly as ajv compiling the schema at run time:
 * same verdict, same errors (with their parentSchema, where the messages live), on every
 * document of the broken-manifest corpus and of the examples.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadAll } from 'js-yaml';
import { afterAll, describe, expect, test } from 'vitest';
import { precompileSchemas } from '../../src/validate/precompile-schemas.js';
import { compileValidator, PRECOMPILED_DIR, precompiledValidator, SCHEMA_DIR, schemaValidator } from '../../src/validate/schemas.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
// Beside the build's own output: the generated code requires ajv's runtime helpers by package name.
mkdirSync(path.join(PRECOMPILED_DIR, '..'), { recursive: true });
const outDir = mkdtempSync(path.join(PRECOMPILED_DIR, '..', 'precompiled-test-')) + path.sep;
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.ya?ml$/.test(e.name))
    .map((e) => path.join(e.parentPath ?? e.path, e.name));
}

/** Every document that parses, from the broken cases and the examples. */
const documents: unknown[] = [...yamlFiles(path.join(root, 'test/cases/invalid')), ...yamlFiles(path.join(root, 'examples'))].flatMap((f) => {
  try {
    return loadAll(readFileSync(f, 'utf8')).filter((d) => d !== null && d !== undefined);
  } catch {
    return []; // the bad-YAML cases
  }
});

const schemaFiles = readdirSync(SCHEMA_DIR).filter((f) => f.endsWith('.schema.json')).sort();

describe('precompiled schema validators', () => {
  const written = precompileSchemas(outDir);

  test('every schema is precompiled', () => {
    expect(written).toEqual(schemaFiles);
    expect(documents.length).toBeGreaterThan(60);
  });

  test.each(schemaFiles)('%s: same verdict and errors as compiling at run time', (file) => {
    const text = readFileSync(SCHEMA_DIR + file, 'utf8');
    const pre = precompiledValidator(file, text, outDir)!;
    const now = compileValidator(text);
    expect(pre).toBeTypeOf('function');
    let invalid = 0;
    for (const doc of documents) {
      const verdict = pre(doc);
      expect(verdict).toBe(now(doc));
      expect(pre.errors ?? null).toEqual(now.errors ?? null);
      if (!verdict) invalid++;
    }
    expect(invalid).toBeGreaterThan(0);
  });

  test('a schema edited since the build is compiled at run time, not served stale', () => {
    const file = schemaFiles[0]!;
    const text = readFileSync(SCHEMA_DIR + file, 'utf8');
    expect(precompiledValidator(file, text.replace('"type"', '"type" '), outDir)).toBeUndefined();
    expect(precompiledValidator('missing.schema.json', text, outDir)).toBeUndefined();
  });

  test('the build output is what a run uses', () => {
    // `npm test` builds first; a run then loads the build's validator, not ajv.
    const file = 'ldap-auth.schema.json';
    expect(precompiledValidator(file, readFileSync(SCHEMA_DIR + file, 'utf8'))).toBe(schemaValidator(file));
  });
});
