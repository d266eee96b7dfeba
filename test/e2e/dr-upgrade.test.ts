/**
 * Upgrading a DR set end to end (issue #26), the built CLI against three clusters of the embedded
 * server on different releases (`serve --cluster-version`), each its own server on a fixed port
 * and its own data, so one can be upgraded (started again on its data with another release)
 * while the others run. The spec's versioning rule 4: a DR primary never runs a newer release
 * than a secondary following it; secondaries are upgraded first.
 *
 * First the runbook of docs/dr-runbook.md ("Upgrading a DR set"): upgrade the secondaries, fail
 * over while the old primary is upgraded, re-attach it, fail back. Then the next upgrade done
 * wrong: a refused failover, the same acknowledged, and a saved plan refused after an upgrade.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/index.js';
import { runCli, type CliResult } from '../support/cli.js';
import { NOTHING_TO_CHANGE } from '../support/e2e.js';
import { DR, portToComeBackOn, raw, waitFor } from './dr-replication.support.js';

const NAMES = ['east', 'west', 'south'] as const;
type Name = (typeof NAMES)[number];
const V0 = '1.21.0+ent';
const V1 = '1.21.1+ent';
const V2 = '1.22.0+ent';
const STEP_TIMEOUT_MS = 120_000;

let dir: string;
const ports = new Map<Name, number>();
const servers = new Map<Name, RunningServer>();
let keyShare: string;
const outputs: Array<{ what: string; text: string }> = [];
const serverLogs: string[] = [];

/** Starts (or starts again, on its data and port) one cluster reporting `release`. */
async function start(name: Name, release: string): Promise<void> {
  servers.set(
    name,
    await startServer({
      clusters: [name],
      port: ports.get(name)!,
      dataDir: path.join(dir, 'data', name),
      rootToken: `root-${name}-4b1f`,
      clusterVersions: { [name]: release },
      log: (line) => serverLogs.push(line),
    }),
  );
}

async function stop(name: Name): Promise<void> {
  await servers.get(name)?.close();
  servers.delete(name);
}

/** An upgrade as the service has it: the same storage, another binary. */
async function upgrade(name: Name, release: string): Promise<void> {
  await stop(name);
  await start(name, release);
}

function baseUrl(name: Name): string {
  return `http://127.0.0.1:${ports.get(name)}/v1`;
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'lockstep-e2e-dr-upgrade-'));
  for (const name of NAMES) {
    ports.set(name, await portToComeBackOn());
    await start(name, V0);
  }
  keyShare = servers.get('east')!.clusters[0]!.keyShares[0]!;
  await mkdir(path.join(dir, 'manifests'), { recursive: true });
  await writeFile(
    path.join(dir, 'manifests', 'clusters.yaml'),
    NAMES.map((n) => ['apiVersion: lockstep/v1', 'kind: Cluster', `name: ${n}`, `address: \${env:${n.toUpperCase()}_ADDR}`, `token: \${env:${n.toUpperCase()}_TOKEN}`, ''].join('\n')).join('---\n'),
  );
}, 60_000);

afterAll(async () => {
  for (const name of NAMES) await stop(name);
  await rm(dir, { recursive: true, force: true });
});

async function cli(...args: string[]): Promise<CliResult> {
  const env: Record<string, string> = { DR_KEY_SHARE: keyShare };
  for (const name of NAMES) {
    env[`${name.toUpperCase()}_ADDR`] = baseUrl(name);
    env[`${name.toUpperCase()}_TOKEN`] = `root-${name}-4b1f`;
  }
  const result = await runCli(args, { env });
  outputs.push({ what: `lockstep ${args.join(' ')}`, text: result.stdout + result.stderr });
  if (process.env['DR_E2E_TRACE']) console.log(`$ lockstep ${args.join(' ').replaceAll(dir, '.')}  # exit ${result.code}\n${result.stdout}${result.stderr}`);
  return result;
}

/** The set with `primary` and the other two as its secondaries; the paths to plan. */
async function set(primary: Name, opts: { acknowledge?: boolean } = {}): Promise<string[]> {
  const file = path.join(dir, 'manifests', `prod-${primary}${opts.acknowledge ? '-acknowledged' : ''}.yaml`);
  const lines = [
    'apiVersion: lockstep/v1',
    'kind: DrReplication',
    'name: prod',
    `primary: ${primary}`,
    `secondaries: [${NAMES.filter((n) => n !== primary).join(', ')}]`,
    'keyShares:',
    '  - ${env:DR_KEY_SHARE}',
    ...(opts.acknowledge ? ['acknowledge: [primary-newer-than-secondary]'] : []),
    '',
  ];
  await writeFile(file, lines.join('\n'));
  return [path.join(dir, 'manifests', 'clusters.yaml'), file];
}

function steps(stdout: string): string[] {
  return [...stdout.matchAll(/^ {2}> (\S+)/gm)].map((m) => m[1]!);
}

async function expectEmptyPlan(paths: string[], ...flags: string[]): Promise<CliResult> {
  const again = await cli('plan', ...paths, '--detailed-exitcode', ...flags);
  expect(again.code, again.stdout + again.stderr).toBe(0);
  expect(again.stdout).toMatch(NOTHING_TO_CHANGE);
  return again;
}

async function apply(paths: string[], ...flags: string[]): Promise<CliResult> {
  const applied = await cli('apply', ...paths, '--auto-approve', ...flags);
  expect(applied.code, applied.stdout + applied.stderr).toBe(0);
  return applied;
}

async function status(name: Name): Promise<any> {
  const res = await raw(baseUrl(name), null, 'GET', `${DR}/status`);
  return res.body.data;
}

/** Every secondary streams from the primary and holds its data. */
async function inSync(primary: Name, secondaries: Name[]): Promise<void> {
  await waitFor(
    `${secondaries.join(', ')} in sync with ${primary}`,
    async () => {
      const p = await status(primary);
      const s = await Promise.all(secondaries.map(status));
      return s.every((x) => x.state === 'stream-wals' && x.connection_state === 'ready' && x.merkle_root === p.merkle_root) ? true : undefined;
    },
    10_000,
  );
}

const releasesLine = (primary: Name, releases: Record<Name, string>): string =>
  `note: ${primary}:sys/replication/dr: DrReplication prod: releases: ` +
  [primary, ...NAMES.filter((n) => n !== primary)].map((n) => `${n} ${releases[n]} (DR ${n === primary ? 'primary' : 'secondary'})`).join(', ');

const failover = (from: Name, to: Name, other: Name): string[] => [
  `${from}:sys/replication/dr/primary/demote`,
  `${to}:sys/replication/dr/secondary/promote`,
  `${to}:sys/replication/dr/secondary/operation-token/delete`,
  `${from}:sys/replication/dr/secondary/generate-public-key`,
  `${to}:sys/replication/dr/primary/secondary-token/${from}`,
  `${from}:sys/replication/dr/secondary/update-primary`,
  `${from}:sys/replication/dr/secondary/operation-token/delete`,
  `${other}:sys/replication/dr/secondary/generate-public-key`,
  `${to}:sys/replication/dr/primary/secondary-token/${other}`,
  `${other}:sys/replication/dr/secondary/update-primary`,
  `${other}:sys/replication/dr/secondary/operation-token/delete`,
];

describe('the upgrade runbook: secondaries first, fail over while the old primary is upgraded, fail back', () => {
  it('bootstraps east, west and south on 1.21.0+ent; every plan and check shows each member beside its release', async () => {
    const east = await set('east');
    await apply(east, '--allow-destructive');
    const empty = await expectEmptyPlan(east);
    expect(empty.stdout).toContain(releasesLine('east', { east: V0, west: V0, south: V0 }));
    const checked = await cli('check', ...east);
    expect(checked.code, checked.stdout + checked.stderr).toBe(0);
    expect(checked.stdout).toMatch(/DR set prod: west: DR secondary of east, streaming, WAL \d+ of \d+; release 1\.21\.0\+ent/);
    await inSync('east', ['west', 'south']);
  }, STEP_TIMEOUT_MS);

  it('1. upgrades the secondaries: they rejoin by themselves, and the set needs no change (a secondary may be newer)', async () => {
    await upgrade('west', V1);
    await upgrade('south', V1);
    await inSync('east', ['west', 'south']);
    const east = await set('east');
    const empty = await expectEmptyPlan(east);
    expect(empty.stdout).toContain(releasesLine('east', { east: V0, west: V1, south: V1 }));
    for (const format of ['json', 'markdown']) {
      const shown = await cli('plan', ...east, '--format', format);
      expect(shown.stdout, format).toContain('releases: east 1.21.0+ent (DR primary), west 1.21.1+ent (DR secondary), south 1.21.1+ent (DR secondary)');
    }
    expect((await cli('check', ...east)).code).toBe(0);
  }, STEP_TIMEOUT_MS);

  it('2. a planned failover to west would make east, still on 1.21.0, follow it: refused, saying how to fail over safely', async () => {
    const refused = await cli('plan', ...(await set('west')));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('after east:sys/replication/dr/secondary/update-primary, west (1.21.1+ent) over east (1.21.0+ent)');
    expect(refused.stderr).toContain('secondaries are upgraded first: bring east to 1.21.1+ent or later');
    expect(refused.stderr).toContain('To fail over while east is upgraded, stop it and plan with --allow-unreachable-primary');
    expect((await status('east')).mode).toBe('primary');
  }, STEP_TIMEOUT_MS);

  it('3. stops east for its upgrade and fails over to west: south follows west, east waits', async () => {
    await stop('east');
    const west = await set('west');
    const fast = ['--retries', '1'];
    const plan = await cli('plan', ...west, '--allow-unreachable-primary', ...fast);
    expect(plan.code, plan.stderr).toBe(0);
    expect(steps(plan.stdout)).toEqual([
      'west:sys/replication/dr/secondary/promote',
      'west:sys/replication/dr/secondary/operation-token/delete',
      'south:sys/replication/dr/secondary/generate-public-key',
      'west:sys/replication/dr/primary/secondary-token/south',
      'south:sys/replication/dr/secondary/update-primary',
      'south:sys/replication/dr/secondary/operation-token/delete',
    ]);
    expect(plan.stdout).toContain('releases: west 1.21.1+ent (DR secondary), east unreachable, south 1.21.1+ent (DR secondary)');
    await apply(west, '--allow-unreachable-primary', ...fast);
    await expectEmptyPlan(west, '--allow-unreachable-primary', ...fast);
    await inSync('west', ['south']);
  }, STEP_TIMEOUT_MS);

  it('4. upgrades east: back as DR primary it is demoted first, then re-attached (same release as west)', async () => {
    await start('east', V1);
    const west = await set('west');
    const demote = await cli('plan', ...west);
    expect(steps(demote.stdout)).toEqual(['east:sys/replication/dr/primary/demote']);
    await apply(west);
    const reattach = await cli('plan', ...west);
    expect(steps(reattach.stdout)).toEqual([
      'east:sys/replication/dr/secondary/generate-public-key',
      'west:sys/replication/dr/primary/secondary-token/east',
      'east:sys/replication/dr/secondary/update-primary',
      'east:sys/replication/dr/secondary/operation-token/delete',
    ]);
    expect(reattach.stdout).not.toContain('warning: after this step');
    await apply(west);
    const empty = await expectEmptyPlan(west);
    expect(empty.stdout).toContain(releasesLine('west', { west: V1, east: V1, south: V1 }));
    await inSync('west', ['east', 'south']);
  }, STEP_TIMEOUT_MS);

  it('5. fails back to east: the whole set on 1.21.1+ent', async () => {
    const east = await set('east');
    const plan = await cli('plan', ...east);
    expect(steps(plan.stdout)).toEqual(failover('west', 'east', 'south'));
    await apply(east);
    const empty = await expectEmptyPlan(east);
    expect(empty.stdout).toContain(releasesLine('east', { east: V1, west: V1, south: V1 }));
    await inSync('east', ['west', 'south']);
  }, STEP_TIMEOUT_MS);
});

describe('the next upgrade done in the wrong order: refused, acknowledged, and a saved plan stale after an upgrade', () => {
  it('refuses the failover to west, upgraded alone to 1.22.0, naming both other clusters', async () => {
    await upgrade('west', V2);
    await inSync('east', ['west', 'south']);
    const refused = await cli('plan', ...(await set('west')));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('west (1.22.0+ent) over east (1.21.1+ent)');
    expect(refused.stderr).toContain('bring east to 1.22.0+ent or later and south to 1.22.0+ent or later before they follow a primary on that release');
    expect(refused.stderr).toContain("add primary-newer-than-secondary to the document's acknowledge list");
  }, STEP_TIMEOUT_MS);

  it('acknowledged: planned with the skew a warning on every step it affects; saved, then stale once south is upgraded', async () => {
    const acknowledged = await set('west', { acknowledge: true });
    const plan = await cli('plan', ...acknowledged);
    expect(plan.code, plan.stderr).toBe(0);
    expect(steps(plan.stdout)).toEqual(failover('east', 'west', 'south'));
    const blocks = plan.stdout.split(/\n(?= {2}> )/);
    const warned = blocks.filter((b) => b.includes('# warning: after this step')).map((b) => steps(b)[0]);
    expect(warned).toEqual(failover('east', 'west', 'south').slice(5));
    expect(plan.stdout).toContain(
      '# warning: after this step west (1.22.0+ent) over east (1.21.1+ent): a DR primary replicates to an older release (acknowledged as primary-newer-than-secondary)',
    );
    expect(plan.stdout).toContain('west (1.22.0+ent) over east (1.21.1+ent) and west (1.22.0+ent) over south (1.21.1+ent)');
    const json = JSON.parse((await cli('plan', ...acknowledged, '--format', 'json')).stdout);
    expect(json.changes.filter((c: any) => c.notes.some((n: string) => n.startsWith('warning:'))).map((c: any) => c.address)).toEqual(warned);
    expect((await cli('plan', ...acknowledged, '--format', 'markdown')).stdout).toContain('warning: after this step west (1.22.0+ent) over east (1.21.1+ent)');

    const planFile = path.join(dir, 'failover.plan');
    expect((await cli('plan', ...acknowledged, '--out', planFile)).code).toBe(0);
    outputs.push({ what: 'saved plan', text: await readFile(planFile, 'utf8') });
    await upgrade('south', V2);
    const stale = await cli('apply', planFile);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain('the saved plan is stale');
    expect(stale.stderr).toContain('south:sys/replication/dr/status');
    expect((await status('east')).mode).toBe('primary');
  }, STEP_TIMEOUT_MS);

  it('applies the acknowledged failover: west primary over east, still older, shown as a warning by every plan and by check', async () => {
    const acknowledged = await set('west', { acknowledge: true });
    await apply(acknowledged);
    const empty = await expectEmptyPlan(acknowledged);
    expect(empty.stdout).toContain(
      'warning: west:sys/replication/dr: DrReplication prod: west (1.22.0+ent) over east (1.21.1+ent): a DR primary replicates to an older release, which is unsafe (acknowledged as primary-newer-than-secondary)',
    );
    const checked = await cli('check', ...acknowledged);
    expect(checked.code, checked.stdout).toBe(0);
    expect(checked.stdout).toContain('older than its primary west (1.22.0+ent): replicating from a newer release to an older one is unsafe (acknowledged as primary-newer-than-secondary)');
    // Without the acknowledgement, check fails on east.
    const strict = await cli('check', ...(await set('west')));
    expect(strict.code).toBe(1);
    expect(strict.stdout).toContain('upgrade east to 1.22.0+ent or later (secondaries are upgraded first)');
    await inSync('west', ['east', 'south']);
  }, STEP_TIMEOUT_MS);

  it('printed and saved no secret', () => {
    const secrets = [keyShare, ...NAMES.map((n) => `root-${n}-4b1f`)];
    for (const secret of secrets) {
      for (const { what, text } of outputs) expect(text.includes(secret), `${what} shows a secret`).toBe(false);
    }
    expect(serverLogs.filter((l) => secrets.some((s) => l.includes(s)))).toEqual([]);
  });
});
