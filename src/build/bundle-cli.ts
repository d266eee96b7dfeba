/**
 * Build step (`npm run build`, after tsc): bundles the CLI. tsc's `dist/cli.js` and the ~70
 * modules it imports on every run, with js-yaml, commander and chalk, become one `dist/cli.js`;
 * what loads only on demand (a kind, `serve`, `check`) becomes chunks in `dist/cli-chunks/`.
 *
 * Why: Node's ES module loader resolves, reads and links each module on its own, and a plan of
 * 1,000 users spent about a tenth of its time on that and on calls across module boundaries.
 * Bundled, the same plan takes about 8% less wall time and CPU time (see test/bench/README.md).
 *
 * The other modules of `dist/` stay as tsc wrote them (the server's `dist/server/index.js`
 * for other programs, the precompiled schemas); only the CLI's entry is replaced.
 */
import { chmodSync, rmSync } from 'node:fs';
import path from 'node:path';
import { build } from 'rolldown';
import { PACKAGE_ROOT } from '../core/package-root.js';

/**
 * Packages inlined into the bundle: the ones every run loads (semver: every plan reads releases).
 * The others stay imports: they load only on demand (ldapts, the cloud SDKs, the careful YAML parser, ajv when a schema
 * changed since the build) or are native (pkcs11js).
 */
const INLINED_PACKAGES = new Set(['js-yaml', 'commander', 'chalk', 'semver']);

const DIST = path.join(PACKAGE_ROOT, 'dist');
export const CHUNK_DIR = 'cli-chunks';

export async function bundleCli(): Promise<void> {
  // Chunk names carry a content hash: clear the last build's, and tsc's map of the unbundled entry.
  rmSync(path.join(DIST, CHUNK_DIR), { recursive: true, force: true });
  rmSync(path.join(DIST, 'cli.js.map'), { force: true });
  await build({
    input: path.join(DIST, 'cli.js'),
    platform: 'node',
    external: (id) => isBarePackage(id) && !INLINED_PACKAGES.has(packageName(id)),
    logLevel: 'warn',
    output: {
      dir: DIST,
      format: 'esm',
      entryFileNames: 'cli.js',
      chunkFileNames: `${CHUNK_DIR}/[name]-[hash].js`,
    },
  });
  // It starts with `#!/usr/bin/env node`: `./dist/cli.js` runs as it is, as npm's bin link does.
  chmodSync(path.join(DIST, 'cli.js'), 0o755);
}

/** `ajv/dist/x.js` or `@aws-sdk/client-kms`: a package, not a path, a `node:` module or a `#` import. */
function isBarePackage(id: string): boolean {
  return !/^(\.|#|node:)/.test(id) && !path.isAbsolute(id);
}

function packageName(id: string): string {
  const parts = id.split('/');
  return id.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'))) {
  await bundleCli();
  console.log(`bundled the CLI into dist/cli.js and dist/${CHUNK_DIR}/`);
}
