import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const repo = fileURLToPath(new URL('../../..', import.meta.url));

/**
 * Compiles the server and the serve command (only those files and what they import) to a
 * private folder, for tests that must run the server in a child process they can kill -9.
 * The folder is under node_modules so the compiled code resolves the project's dependencies;
 * it is marked as ESM since package scope lookup stops at node_modules.
 */
export async function buildServer(): Promise<{ dir: string; serveScript: string }> {
  const cache = join(repo, 'node_modules', '.cache');
  await mkdir(cache, { recursive: true });
  const dir = await mkdtemp(join(cache, 'lockstep-server-test-'));
  const tsconfig = {
    extends: join(repo, 'tsconfig.json'),
    compilerOptions: { outDir: join(dir, 'out'), rootDir: join(repo, 'src'), noCheck: true, sourceMap: false },
    files: [join(repo, 'src/server/index.ts'), join(repo, 'src/commands/serve.ts')],
    include: [],
  };
  await writeFile(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig));
  await writeFile(join(dir, 'package.json'), '{"type":"module"}\n');
  // tsc exits non-zero on type errors in files being edited elsewhere, but still emits.
  await promisify(execFile)(join(repo, 'node_modules/.bin/tsc'), ['-p', join(dir, 'tsconfig.json')]).catch(() => undefined);
  if (!existsSync(join(dir, 'out/server/index.js'))) throw new Error('compiling the server failed');
  const serveScript = join(dir, 'serve.mjs');
  await writeFile(
    serveScript,
    [
      "import { Command } from 'commander';",
      "import { registerServe } from './out/commands/serve.js';",
      'const program = new Command();',
      'registerServe(program);',
      'await program.parseAsync(process.argv);',
    ].join('\n'),
  );
  return { dir, serveScript };
}
