import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CHUNK_DIR } from '../../src/build/bundle-cli.js';
import { ROOT, runCli } from '../support/cli.js';

// `npm test` builds first: these check what the build left in dist/. That the bundle works is
// what every end-to-end test shows (they all run dist/cli.js, the invalid manifests included).
const entry = path.join(ROOT, 'dist', 'cli.js');

/** The specifiers of the static `import ... from "x"` lines of a module. */
function staticImports(file: string): string[] {
  return [...readFileSync(file, 'utf8').matchAll(/^import\s[^;]*?from\s*"([^"]+)";?$/gm)].map((m) => m[1]!);
}

describe('the bundled CLI', () => {
  it('loads no package and no module of dist/ at start-up other than its own chunks', () => {
    const imports = staticImports(entry);
    expect(imports.length).toBeGreaterThan(0);
    const outside = imports.filter((s) => !s.startsWith('node:') && !s.startsWith(`./${CHUNK_DIR}/`));
    expect(outside).toEqual([]);
    for (const s of imports.filter((i) => i.startsWith('./'))) expect(existsSync(path.join(ROOT, 'dist', s))).toBe(true);
  });

  it('loads no package at start-up through require either (CommonJS interop in a chunk): `--version` reads nothing under node_modules', () => {
    // semver's index (50 modules) once loaded this way, from a chunk every run imports: a fifth of start-up.
    const script = `const { main } = await import(${JSON.stringify(pathToFileURL(entry).href)});
      await main(['--version'], { out() {}, err() {}, color: false, interactive: false, prompt: async () => '' });
      const { createRequire } = await import('node:module');
      console.log(JSON.stringify(Object.keys(createRequire(import.meta.url).cache)));`;
    // The last line: commander prints the version itself, before.
    const printed = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }).trim().split('\n');
    const loaded = JSON.parse(printed.at(-1)!) as string[];
    expect(loaded.filter((f) => f.includes(`${path.sep}node_modules${path.sep}`))).toEqual([]);
  });

  it('is executable, as its first line says', () => {
    expect(readFileSync(entry, 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect(statSync(entry).mode & 0o111).toBe(0o111);
  });

  it('keeps what loads on demand out of the entry: the kinds and the server are chunks', () => {
    const chunks = readdirSync(path.join(ROOT, 'dist', CHUNK_DIR));
    for (const name of ['ldap-auth', 'managed-key', 'snapshot-policy', 'dr-replication', 'server']) {
      expect(chunks.some((c) => c.startsWith(`${name}-`))).toBe(true);
    }
  });

  it('finds the schemas from where it runs: a manifest with unknown fields gets their diagnostics', async () => {
    const folder = path.join(ROOT, 'test', 'cases', 'invalid', '04-unknown-field-in-config');
    const res = await runCli(['validate', 'manifest.yaml'], { cwd: folder, env: { SERVICE_ADDR: 'http://127.0.0.1:1', SERVICE_TOKEN: 'x' } });
    expect(res.code).toBe(1);
    for (const line of readFileSync(path.join(folder, 'expected.txt'), 'utf8').trim().split('\n')) expect(res.stderr).toContain(line);
  });
});
