import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/index.js';
import { runCli } from '../support/cli.js';

// End to end at a distance: the built CLI against `serve --latency 20` (and a rate limit), over
// HTTP. Real time here: the latency is what is being rehearsed.
const TOKEN = 'distance-e2e-root';
const USERS = 3000;
const GROUPS = 200;

function manifest(mount: string, users = USERS): string {
  const groups = Array.from({ length: GROUPS }, (_, i) => `  g${i}: { policies: [p${i % 10}] }`).join('\n');
  const lines = Array.from({ length: users }, (_, i) => `  u${i}: { policies: [own${i % 10}], groups: [g${i % GROUPS}] }`).join('\n');
  return `apiVersion: lockstep/v1
kind: LdapAuth
mount: ${mount}
config:
  url: ldap://ldap.example.com
  userdn: ou=people,dc=example,dc=com
groups:
${groups}
users:
${lines}
`;
}

let dir: string;
let server: RunningServer | undefined;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'lockstep-distance-'));
});
afterEach(async () => {
  await server?.close();
  server = undefined;
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** `concurrency: default: auto settled at N (peak P in flight, D refused or timed out), R requests` */
function summaryOf(stderr: string): { limit: number; peak: number; dropped: number } {
  const m = /^concurrency: default: auto settled at (\d+) \(peak (\d+) in flight, (\d+) refused or timed out\), [\d,]+ requests$/m.exec(stderr);
  expect(m, stderr).not.toBeNull();
  return { limit: Number(m![1]), peak: Number(m![2]), dropped: Number(m![3]) };
}

describe('at a distance (issue 16)', () => {
  it('#16.2: against serve --latency 20, the default concurrency grows to twice 16 in flight and more, and the plan after is empty', async () => {
    server = await startServer({ port: 0, rootToken: TOKEN, latencyMs: 20 });
    const env = { SERVICE_ADDR: server.clusters[0]!.baseUrl, SERVICE_TOKEN: TOKEN };
    const file = path.join(dir, 'far.yaml');
    await writeFile(file, manifest('far'));

    const apply = await runCli(['apply', file, '--auto-approve', '--verbose'], { env });
    expect(apply.code, apply.stderr).toBe(0);
    // Past the fixed 16 by at least two slow-start steps (16, 24, 36). How far past it gets in 3,200 objects
    // depends on how fast this shared 2-core machine runs the client: under a load average of 7
    // the client's own delays read as a queue and it stopped at 36. How far it goes with the
    // machine to itself is the bench's to measure (bench:distance), the model's to pin
    // (test/client/adaptive-limit.test.ts).
    expect(summaryOf(apply.stderr).peak).toBeGreaterThanOrEqual(32);

    const plan = await runCli(['plan', file, '--detailed-exitcode', '--verbose'], { env });
    expect(plan.code, plan.stderr).toBe(0);
    const { peak, limit } = summaryOf(plan.stderr);
    expect(peak).toBeGreaterThanOrEqual(32);
    expect(limit).toBeGreaterThan(16);
    // stdout is the plan and only the plan.
    expect(plan.stdout).not.toMatch(/concurrency/);

    // A number fixes it.
    const small = path.join(dir, 'small.yaml');
    await writeFile(small, manifest('small', 100));
    const fixed = await runCli(['apply', small, '--auto-approve', '--concurrency', '8', '--verbose'], { env });
    expect(fixed.code, fixed.stderr).toBe(0);
    expect(fixed.stderr).toMatch(/^concurrency: default: fixed at 8 \(peak 8 in flight, 0 refused or timed out\)/m);
  }, 120_000);

  it('#16.2: against serve --rate-limit 32, it settles below the quota with few refusals and finishes', async () => {
    server = await startServer({ port: 0, rootToken: TOKEN, latencyMs: 20, rateLimit: 32 });
    const env = { SERVICE_ADDR: server.clusters[0]!.baseUrl, SERVICE_TOKEN: TOKEN };
    const file = path.join(dir, 'quota.yaml');
    await writeFile(file, manifest('quota'));

    const before = server.stats();
    const apply = await runCli(['apply', file, '--auto-approve', '--verbose'], { env });
    expect(apply.code, apply.stderr).toBe(0);
    const after = server.stats();
    const { limit, dropped } = summaryOf(apply.stderr);
    expect(limit).toBeLessThanOrEqual(32);
    expect(dropped).toBe(after.refused - before.refused);
    expect(dropped / (after.requests - before.requests)).toBeLessThan(0.02);

    const plan = await runCli(['plan', file, '--detailed-exitcode', '--verbose'], { env });
    expect(plan.code, plan.stderr).toBe(0);
  }, 120_000);

  it('#16.2: --concurrency takes auto or a whole number', async () => {
    const file = path.join(dir, 'bad.yaml');
    await writeFile(file, manifest('bad', 1));
    const bad = await runCli(['plan', file, '--concurrency', '12x'], { env: { SERVICE_ADDR: 'http://127.0.0.1:9/v1', SERVICE_TOKEN: 't' } });
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('--concurrency must be auto or a whole number from 1 to 1024');
  });
});
