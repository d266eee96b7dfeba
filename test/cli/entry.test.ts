// The built CLI as a process (src/cli.ts's entry): found as the program by real path wherever it
// is installed, quiet when its reader leaves early (`| head`), and one redacted, escaped line
// when something fails outside every command's handling.
import { cp, mkdir, readFile, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ROOT, runCommand } from '../support/cli.js';
import { startTestServer, type TestCluster } from '../support/server.js';
import { useTempTrees } from '../support/temp-tree.js';

const tree = useTempTrees();

const run = runCommand;

const VALID = 'apiVersion: lockstep/v1\nkind: LdapAuth\nmount: ldap\nconfig:\n  url: ldap://a\n';

/** Pieces of folder names that a URL built from a path by hand reads wrongly; each name holds `#`, `%41` and a space. */
const awkwardName = fc
  .shuffledSubarray(['%', '%25', '%2F', '?', '&', '+', "'", 'ä', '日本', ';', '=', '@', 'x'], { minLength: 0, maxLength: 5 })
  .chain((extra) => fc.shuffledSubarray([...extra, '#', '%41', ' '], { minLength: extra.length + 3, maxLength: extra.length + 3 }))
  .map((pieces) => `pkg${pieces.join('')}end`);

describe('the entry point is found by real path', () => {
  test('generated install folders holding #, %41 and a space: the copied CLI runs, directly and through a bin link', async () => {
    await fc.assert(
      fc.asyncProperty(awkwardName, async (name) => {
        const top = await tree({ 'ok.yaml': VALID, 'bad.yaml': VALID.replace('mount', 'mountt') });
        // What npm installs: package.json, the bundle and its chunks, the precompiled schemas, the schemas.
        const pkg = join(top, name, 'lockstep');
        await mkdir(join(pkg, 'dist', 'validate'), { recursive: true });
        await cp(join(ROOT, 'package.json'), join(pkg, 'package.json'));
        await cp(join(ROOT, 'dist', 'cli.js'), join(pkg, 'dist', 'cli.js'));
        await cp(join(ROOT, 'dist', 'cli-chunks'), join(pkg, 'dist', 'cli-chunks'), { recursive: true });
        await cp(join(ROOT, 'dist', 'validate', 'precompiled'), join(pkg, 'dist', 'validate', 'precompiled'), { recursive: true });
        await cp(join(ROOT, 'schemas'), join(pkg, 'schemas'), { recursive: true });
        await symlink(join(ROOT, 'node_modules'), join(pkg, 'node_modules'));
        // npm's bin link: a symbolic link whose own name is not the file's.
        await mkdir(join(top, name, 'bin'));
        await symlink(join('..', 'lockstep', 'dist', 'cli.js'), join(top, name, 'bin', 'lockstep'));

        for (const cli of [join(pkg, 'dist', 'cli.js'), join(top, name, 'bin', 'lockstep')]) {
          const ok = await run(process.execPath, [cli, 'validate', 'ok.yaml'], { cwd: top });
          expect(ok, cli).toEqual({ code: 0, stdout: 'Valid: 1 document.\n', stderr: '' });
          const bad = await run(process.execPath, [cli, 'validate', 'bad.yaml'], { cwd: top });
          expect(bad.code, cli).toBe(1);
          expect(bad.stderr).toContain('bad.yaml:3:1: error: unknown field "mountt"');
        }
      }),
      { numRuns: 4 },
    );
  });
});

describe('a reader that leaves early (`| head`)', () => {
  let cluster: TestCluster;
  beforeAll(async () => {
    cluster = await startTestServer('root-closed-pipe-7d3e');
  });
  afterAll(async () => {
    await cluster.server.close();
  });

  /** Runs `lockstep ARGS | head -n LINES` in bash; lockstep's own exit status, its stderr, what head printed. */
  async function piped(args: string[], lines: number, cwd: string): Promise<{ status: number; stderr: string; head: string }> {
    const script = `"$NODE" "$CLI" "$@" 2>"$ERR" | head -n ${lines}; echo "status=\${PIPESTATUS[0]}"`;
    const errFile = join(cwd, `stderr-${Math.random().toString(36).slice(2)}`);
    const result = await run('bash', ['-c', script, 'lockstep', ...args], { cwd, env: { NODE: process.execPath, CLI: join(ROOT, 'dist', 'cli.js'), ERR: errFile, ...cluster.env } });
    const status = /status=(\d+)\n$/.exec(result.stdout);
    return { status: Number(status?.[1]), stderr: await readFile(errFile, 'utf8'), head: result.stdout.slice(0, status?.index ?? 0) };
  }

  test('generated commands, formats and line counts: no stack trace, the run’s own exit status, --out written', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('plan', 'plan --out', 'plan --detailed-exitcode', 'graph', 'show', 'validate', '--help'),
        fc.constantFrom('text', 'json', 'markdown'),
        fc.integer({ min: 0, max: 3 }),
        fc.integer({ min: 600, max: 1000 }),
        async (command, format, lines, groups) => {
          const top = await tree({
            'm.yaml': `${VALID}groups:\n${Array.from({ length: groups }, (_, i) => `  group-with-a-long-name-${i}: { policies: [a, b, c] }`).join('\n')}\n`,
          });
          const planFile = join(top, 'saved.json');
          if (command === 'show') expect((await run(process.execPath, [join(ROOT, 'dist', 'cli.js'), 'plan', 'm.yaml', '--out', planFile], { cwd: top, env: cluster.env })).code).toBe(0);
          const formatted = ['--format', format, ...(format === 'markdown' ? ['--comment-limit', '0'] : [])];
          const args: Record<typeof command, string[]> = {
            plan: ['plan', 'm.yaml', ...formatted],
            'plan --out': ['plan', 'm.yaml', '--out', planFile, ...formatted],
            'plan --detailed-exitcode': ['plan', 'm.yaml', '--detailed-exitcode', ...formatted],
            graph: ['graph', 'm.yaml'],
            show: ['show', planFile, ...formatted],
            validate: ['validate', 'm.yaml'],
            '--help': ['--help'],
          };
          const { status, stderr, head } = await piped(args[command], lines, top);
          expect(stderr).not.toMatch(/EPIPE|\n\s+at |Error:/);
          expect(status, stderr).toBe(command === 'plan --detailed-exitcode' ? 2 : 0);
          expect(head.split('\n').length - 1).toBeLessThanOrEqual(lines);
          if (command === 'plan --out') {
            const shown = await run(process.execPath, [join(ROOT, 'dist', 'cli.js'), 'show', planFile, '--format', 'json'], { cwd: top });
            expect(shown.code, shown.stderr).toBe(0);
            expect(shown.stdout).toContain(`group-with-a-long-name-${groups - 1}`);
          }
        },
      ),
      { numRuns: 6 },
    );
  });
});

describe('the last-resort handler', () => {
  // A fault outside every command's handling, made from outside: a module loaded before the CLI
  // throws, from a callback of the run's first write to stdout, a message holding the run's
  // token and control characters.
  const FAULT = [
    'const write = process.stdout.write.bind(process.stdout);',
    'let thrown = false;',
    'process.stdout.write = (...args) => {',
    '  if (!thrown) { thrown = true; setImmediate(() => { throw new Error(`fault holding ${process.env.SERVICE_TOKEN}${process.env.FAULT_TAIL}`); }); }',
    '  return write(...args);',
    '};',
  ].join('\n');

  test('generated tokens and control characters: one line, the token redacted, control characters escaped, exit 1', async () => {
    const top = await tree({ 'm.yaml': VALID, 'fault.mjs': FAULT });
    await fc.assert(
      fc.asyncProperty(
        fc.stringMatching(/^[A-Za-z0-9._-]{12,40}$/),
        fc.constantFrom('\u001b[31m', '\n::error::forged', '\r', '\u0007', '\u009b2J', ''),
        async (token, tail) => {
          const cluster = await startTestServer(token);
          try {
            const result = await run(process.execPath, ['--import', join(top, 'fault.mjs'), join(ROOT, 'dist', 'cli.js'), 'plan', 'm.yaml'], {
              cwd: top,
              env: { SERVICE_ADDR: cluster.baseUrl, SERVICE_TOKEN: token, FAULT_TAIL: tail },
            });
            expect(result.code).toBe(1);
            expect(result.stderr).not.toContain(token);
            expect(result.stderr).not.toMatch(/\n\s+at /);
            const lines = result.stderr.split('\n').filter((l) => l.startsWith('error: '));
            expect(lines).toHaveLength(1);
            expect(lines[0]).toMatch(/^error: fault holding \(sensitive\)/);
            // eslint-disable-next-line no-control-regex
            expect(result.stderr).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
            expect(result.stderr).not.toContain('\n::error::');
          } finally {
            await cluster.server.close();
          }
        },
      ),
      { numRuns: 8 },
    );
  });
});
