import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordIssuedTokens, startAnswerProxy, type AnswerProxy } from '../support/answer-proxy.js';
import { outputRecorder } from '../support/canaries.js';
import { ROOT, runCli } from '../support/cli.js';
import { expectNoChanges, writeManifestFolder } from '../support/e2e.js';
import { startTestServer, type TestCluster } from '../support/server.js';

// SIGTERM in the middle of `apply` (a CI job cancelled), sent to the built CLI as a real signal,
// against serve with an AppRole login. Each request the server gets waits on a gate the test
// holds (the emulator's latency, injected): the signal goes once the CLI is blocked on a change
// in flight, and the gate opens once the CLI said it stopped starting changes. No timed waits.

/** Holds every request that arrives while closed; open() lets them (and all later ones) through. */
class Gate {
  #held: Array<() => void> | undefined;
  #onHeld: (() => void) | undefined;

  readonly wait = (): Promise<void> => {
    if (!this.#held) return Promise.resolve();
    const held = this.#held;
    return new Promise((resolve) => {
      held.push(resolve);
      this.#onHeld?.();
    });
  };

  /** Closes the gate; resolves once a request is held there. */
  close(): Promise<void> {
    this.#held = [];
    return new Promise((resolve) => (this.#onHeld = resolve));
  }

  open(): void {
    const held = this.#held ?? [];
    this.#held = undefined;
    this.#onHeld = undefined;
    for (const release of held) release();
  }
}

interface Running {
  pid: number;
  /** Resolves once `pattern` matches what the CLI printed (stdout and stderr together). */
  printed(pattern: RegExp): Promise<void>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
}

/** The built CLI as runCli starts it, with its output watched as it comes. */
function startCli(args: string[], env: Record<string, string>): Running {
  const child = spawn(process.execPath, [`${ROOT}dist/cli.js`, ...args], {
    cwd: ROOT,
    env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '/tmp', NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const waiters: Array<{ pattern: RegExp; resolve: () => void }> = [];
  const check = (): void => {
    for (const w of [...waiters]) {
      if (w.pattern.test(stdout + stderr)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    }
  };
  child.stdout.on('data', (d: Buffer) => ((stdout += d.toString()), check()));
  child.stderr.on('data', (d: Buffer) => ((stderr += d.toString()), check()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return {
    pid: child.pid!,
    printed: (pattern) =>
      new Promise((resolve, reject) => {
        waiters.push({ pattern, resolve });
        check();
        void exited.then((r) => reject(new Error(`the CLI exited (${r.code ?? r.signal}) before printing ${pattern}:\n${r.stdout}\n${r.stderr}`)));
      }),
    exited,
  };
}

const USERS = 30;
const gate = new Gate();
let cluster: TestCluster;
let proxy: AnswerProxy;
let dir: string;
const loginTokens: string[] = [];
let env: Record<string, string>;

/** An LdapAuth document at `mount` with USERS users: more changes than run at once. */
function manifest(mount: string): Record<string, string> {
  const users = Array.from({ length: USERS }, (_, i) => `  u${String(i).padStart(2, '0')}: { policies: [dev] }`).join('\n');
  return {
    'cluster.yaml': `apiVersion: lockstep/v1\nkind: Cluster\nname: default\naddress: ${proxy.baseUrl}\nauth:\n  method: approle\n  roleId: \${env:ROLE_ID}\n  secretId: \${env:SECRET_ID}\n`,
    'ldap.yaml': `apiVersion: lockstep/v1\nkind: LdapAuth\nmount: ${mount}\nconfig: { url: "ldap://127.0.0.1:1" }\nusers:\n${users}\n`,
  };
}

/**
 * The login token is revoked: its revoke-self was sent once (the last request, unless reads a
 * signal abandoned were still on their way), and the server no longer knows it.
 */
async function expectLoginRevoked(last = true): Promise<void> {
  expect(loginTokens).toHaveLength(1);
  expect(proxy.requests.filter((r) => r === 'POST auth/token/revoke-self')).toHaveLength(1);
  if (last) expect(proxy.requests.at(-1)).toBe('POST auth/token/revoke-self');
  expect((await cluster.raw('POST', 'auth/token/lookup', { token: loginTokens[0] })).status).toBe(403);
}

beforeAll(async () => {
  cluster = await startTestServer(undefined, { latencyMs: 1, wait: gate.wait });
  for (const [p, body] of [
    ['sys/auth/approle', { type: 'approle' }],
    ['sys/policies/acl/lockstep', { policy: 'path "*" { capabilities = ["create", "read", "update", "delete", "list", "sudo"] }' }],
    ['sys/policies/acl/dev', { policy: 'path "secret/*" { capabilities = ["read"] }' }],
    ['auth/approle/role/deploy', { token_policies: 'lockstep', token_ttl: '10m' }],
  ] as const) {
    const res = await cluster.raw('POST', p, body);
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  }
  const roleId = ((await cluster.raw('GET', 'auth/approle/role/deploy/role-id')).body as { data: { role_id: string } }).data.role_id;
  const secretId = ((await cluster.raw('POST', 'auth/approle/role/deploy/secret-id', {})).body as { data: { secret_id: string } }).data.secret_id;
  env = { ROLE_ID: roleId, SECRET_ID: secretId };
  proxy = await startAnswerProxy(cluster.baseUrl);
  recordIssuedTokens(proxy, ['POST auth/approle/login'], loginTokens);
  dir = await mkdtemp(path.join(tmpdir(), 'lockstep-interrupt-'));
});

afterAll(async () => {
  gate.open();
  await proxy?.close();
  await cluster?.server.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Starts an apply, lets `done` changes finish, holds the next request, sends SIGTERM, then lets the changes in flight end. */
async function interruptedApply(manifests: string, extra: string[], done: number) {
  loginTokens.length = 0;
  proxy.requests.length = 0;
  const run = startCli(['apply', manifests, '--auto-approve', '--concurrency', '2', ...extra], env);
  await run.printed(new RegExp(`( \\.\\.\\. done \\(\\d+m?s\\)\\n[^]*){${done}}`));
  await gate.close();
  process.kill(run.pid, 'SIGTERM');
  await run.printed(/interrupted by SIGTERM: no new change starts; waiting for the [12] in flight to finish \(SIGTERM again exits at once\)/);
  gate.open();
  return run.exited;
}

describe('apply interrupted by SIGTERM', () => {
  it('ends the changes in flight, reports done and not started, exits 143 and revokes its login; a re-run converges', async () => {
    const recorder = outputRecorder();
    const manifests = await writeManifestFolder(path.join(dir, 'text'), manifest('ldap'));
    const result = await interruptedApply(manifests, [], 3);
    recorder.record({ code: result.code ?? -1, stdout: result.stdout, stderr: result.stderr });
    expect(result.signal, 'ended by its own exit, not by the signal').toBeNull();
    expect(result.code, result.stderr).toBe(143);
    // The plan's changes, then the report: counted as the plan counts them.
    const planned = /^Plan: (\d+) to add, (\d+) to change/m.exec(result.stdout)!;
    const total = Number(planned[1]) + Number(planned[2]);
    const head = /^Apply interrupted by SIGTERM: (\d+) done, 0 failed, (\d+) not started\.$/m.exec(result.stdout);
    expect(head, result.stdout + result.stderr).not.toBeNull();
    const [done, notStarted] = [Number(head![1]), Number(head![2])];
    expect(done).toBeGreaterThanOrEqual(3);
    expect(notStarted).toBeGreaterThan(0);
    expect(done + notStarted).toBe(total);
    expect(result.stdout).toMatch(/^Done:\n {2}\+ default:sys\/auth\/ldap\n/m);
    expect(result.stdout).toMatch(/^Not started:\n {2}\+ default:auth\/ldap\/users\/u\d\d\n/m);
    expect(result.stdout.trimEnd().split('\n').at(-1)).toBe('Nothing was rolled back. Run apply again: it picks up from the live state.');
    expect(result.stderr).not.toMatch(/\n\s+at /); // no stack trace
    await expectLoginRevoked();
    recorder.expectNoCanaries([env['ROLE_ID']!, env['SECRET_ID']!, loginTokens[0]!], 500);

    const again = await runCli(['apply', manifests, '--auto-approve'], { env });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(new RegExp(`^Apply complete: ${notStarted} done\\.$`, 'm'));
    await expectNoChanges((args) => runCli(args, { env }), manifests);
  });

  it('--format json: one document with result "interrupted", applied and skipped changes; exit 143; the login revoked', async () => {
    const recorder = outputRecorder();
    const manifests = await writeManifestFolder(path.join(dir, 'json'), manifest('ldap-json'));
    const result = await interruptedApply(manifests, ['--format', 'json'], 3);
    recorder.record({ code: result.code ?? -1, stdout: result.stdout, stderr: result.stderr });
    expect(result.code, result.stderr).toBe(143);
    const document = JSON.parse(result.stdout) as { result: string; changes: Array<{ outcome: string }>; summary: Record<string, number>; diagnostics: Array<{ origin: string; message: string }> };
    expect(document.result).toBe('interrupted');
    expect(document.summary['applied']).toBeGreaterThanOrEqual(3);
    expect(document.summary['skipped']).toBeGreaterThan(0);
    expect(document.summary['failed']).toBe(0);
    expect(document.summary['applied']! + document.summary['skipped']!).toBe(document.changes.length);
    expect(document.diagnostics).toContainEqual(
      expect.objectContaining({ severity: 'error', origin: 'environment', message: 'interrupted by SIGTERM: no new change was started; the changes in flight were let finish' }),
    );
    await expectLoginRevoked();
    recorder.expectNoCanaries([env['ROLE_ID']!, env['SECRET_ID']!, loginTokens[0]!], 500);
  });

  it('before any change starts (the login held): nothing changed, the document says so, exit 143, the login revoked', async () => {
    const manifests = await writeManifestFolder(path.join(dir, 'early'), manifest('ldap-early'));
    loginTokens.length = 0;
    proxy.requests.length = 0;
    const held = gate.close();
    const run = startCli(['apply', manifests, '--auto-approve', '--format', 'json'], env);
    await held;
    process.kill(run.pid, 'SIGTERM');
    await run.printed(/interrupted by SIGTERM: stopped; what was in flight is abandoned/);
    gate.open();
    const result = await run.exited;
    expect(result.code, result.stderr).toBe(143);
    const document = JSON.parse(result.stdout) as { result: string; summary: Record<string, number> };
    expect(document.result).toBe('interrupted');
    expect(document.summary['applied']).toBe(0);
    await expectLoginRevoked(false);
    expect((await cluster.raw('GET', 'sys/auth')).body).not.toHaveProperty(['data', 'ldap-early/']);
  });
});
