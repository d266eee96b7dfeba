import { execFile } from 'node:child_process';
import { chmod, cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/cli.js';

// .ci/run, run as CI runs it, in a copy of its directory layout with `npm` and Node 24's
// fetcher stood in for: a fake npm whose `npm test` writes the JSON report the script reads and
// fails or passes as the scenario says. Its last line is "N passed, N failed" whatever stopped it.

let work: string;

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'lockstep-ci-run-'));
  await mkdir(path.join(work, '.ci'));
  await cp(path.join(ROOT, '.ci', 'run'), path.join(work, '.ci', 'run'));
  await mkdir(path.join(work, 'test', 'setup'), { recursive: true });
  await writeFile(path.join(work, 'test', 'setup', 'node24.sh'), `#!/usr/bin/env bash\n[ -n "\${NODE24_FAILS:-}" ] && { echo "cannot fetch node 24" >&2; exit 1; }\necho "${path.join(work, 'node24')}"\n`);
  await mkdir(path.join(work, 'node24', 'bin'), { recursive: true });
  await symlink(process.execPath, path.join(work, 'node24', 'bin', 'node'));
  await mkdir(path.join(work, 'bin'));
  const npm = path.join(work, 'bin', 'npm');
  await writeFile(
    npm,
    `#!/usr/bin/env bash
echo "npm $1" >> "$CI_LOG"
case "$1" in
  ci) [ -n "\${NPM_CI_FAILS:-}" ] && exit 1; exit 0 ;;
  rebuild) exit 0 ;;
  test)
    for a in "$@"; do case "$a" in --outputFile.json=*) out="\${a#--outputFile.json=}" ;; esac; done
    n=$(grep -c '^npm test' "$CI_LOG")
    if [ "\${FIRST_FAILS:-}" = 1 ] && [ "$n" = 1 ]; then echo '{"numPassedTests":5,"numFailedTests":2}' > "$out"; exit 1; fi
    echo '{"numPassedTests":7,"numFailedTests":0}' > "$out"; exit 0 ;;
esac
`,
  );
  await chmod(npm, 0o755);
});
afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

let runs = 0;
async function ciRun(env: Record<string, string>): Promise<{ code: number; lastLine: string; npm: string[] }> {
  const log = path.join(work, `npm-${++runs}.log`);
  await writeFile(log, '');
  const pathVar = `${path.join(work, 'bin')}:${path.dirname(process.execPath)}:/usr/bin:/bin`;
  return new Promise((resolve) => {
    execFile('bash', [path.join(work, '.ci', 'run')], { env: { PATH: pathVar, HOME: work, CI_LOG: log, ...env }, timeout: 30_000 }, (err, stdout) => {
      const code = err === null ? 0 : typeof err.code === 'number' ? err.code : -1;
      void readFile(log, 'utf8').then((npm) => resolve({ code, lastLine: stdout.trimEnd().split('\n').at(-1) ?? '', npm: npm.trim().split('\n') }));
    });
  });
}

describe('.ci/run', () => {
  it('both runs pass: their tests summed, exit 0', async () => {
    expect(await ciRun({})).toEqual({ code: 0, lastLine: '14 passed, 0 failed', npm: ['npm ci', 'npm test', 'npm rebuild', 'npm test', 'npm rebuild'] });
  });

  it('the first run fails: Node 24 still runs, the closing line is printed, the exit status says it failed', async () => {
    const r = await ciRun({ FIRST_FAILS: '1' });
    expect(r).toEqual({ code: 1, lastLine: '12 passed, 2 failed', npm: ['npm ci', 'npm test', 'npm rebuild', 'npm test', 'npm rebuild'] });
  });

  it('a step that stops the script (npm ci, fetching Node 24) still ends with the closing line, runs not made counted as failed', async () => {
    const ci = await ciRun({ NPM_CI_FAILS: '1' });
    expect(ci.code).not.toBe(0);
    expect(ci.lastLine).toBe('0 passed, 2 failed');
    const node24 = await ciRun({ NODE24_FAILS: '1' });
    expect(node24.code).not.toBe(0);
    expect(node24.lastLine).toBe('7 passed, 1 failed');
  });
});
