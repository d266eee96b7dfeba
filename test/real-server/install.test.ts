import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile, chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/cli.js';

const run = promisify(execFile);
const SCRIPT = `${ROOT}test/setup/openbao.sh`;

/** Runs the installer; resolves with its exit code and output. */
async function install(env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run('bash', [SCRIPT], { env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '/tmp', ...env } });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'lockstep-install-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('test/setup/openbao.sh', () => {
  it('names the binary given by LOCKSTEP_TEST_SERVER_BIN', async () => {
    const bin = path.join(dir, 'vault');
    await writeFile(bin, '#!/bin/sh\necho "Vault v1.21.0"\n');
    await chmod(bin, 0o755);
    expect(await install({ LOCKSTEP_TEST_SERVER_BIN: bin })).toMatchObject({ code: 0, stdout: `${bin}\n` });
  });

  it('fails with one line saying what is missing when the named binary is not there', async () => {
    const r = await install({ LOCKSTEP_TEST_SERVER_BIN: path.join(dir, 'nope') });
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toEqual([`LOCKSTEP_TEST_SERVER_BIN=${path.join(dir, 'nope')} is not an executable file`]);
  });

  it('fails with one line saying what is missing and how to get it when OpenBao cannot be installed', async () => {
    // A python3 that cannot make a virtual environment, and an empty cache.
    const bin = path.join(dir, 'bin');
    await run('mkdir', ['-p', bin]);
    await writeFile(path.join(bin, 'python3'), '#!/bin/sh\necho "No module named venv" >&2\nexit 1\n');
    await chmod(path.join(bin, 'python3'), 0o755);
    const r = await install({ PATH: `${bin}:${process.env['PATH'] ?? ''}`, LOCKSTEP_NODE_CACHE: path.join(dir, 'cache') });
    expect(r.code).toBe(1);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^the real-server tests need OpenBao's bao 2\.6\.2: .*python3-venv.*LOCKSTEP_TEST_SERVER_BIN/);
  });
});
