import { NOTHING_TO_CHANGE } from '../support/e2e.js';
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/index.js';
import { ROOT, runCli, type CliResult } from '../support/cli.js';
import {
  deletedTokens,
  DR,
  portToComeBackOn,
  generatedTokens,
  raw,
  RecordingProxy,
  secretsSeen,
  serveChild,
  waitFor,
  type ServeChild,
} from './dr-replication.support.js';

/**
 * DR replication end to end: the built CLI against three clusters of the embedded server, each
 * behind a recording proxy (so the test knows every secret lockstep handled). east runs as
 * `lockstep serve` in a child process, killed and restarted for the unplanned failover; west
 * and south run in this process. The manifests are examples/dr (Cluster documents and the set
 * with east as primary) plus variants written here (key shares from ${file:...}).
 */
const EXAMPLES = path.join(ROOT, 'examples/dr');
const CLUSTERS = path.join(EXAMPLES, 'clusters.yaml');
const EAST_PRIMARY = path.join(EXAMPLES, 'replication.yaml');
const REFUSAL = 'path disabled in replication DR secondary mode';
/** Each phase runs a dozen CLI commands; generous on a busy machine. */
const STEP_TIMEOUT_MS = 120_000;

let dir: string;
let eastPort: number;
let east: ServeChild;
let eastInit: { address: string; root_token: string; key_shares: string[]; key_threshold: number };
let westSouth: RunningServer;
const proxies = new Map<string, RecordingProxy>();
/** Real base URLs and root tokens (the proxies' are what lockstep uses). */
const real = new Map<string, { baseUrl: string; token: string }>();
/** Every stdout/stderr of every command, and every saved plan: none may hold a secret. */
const outputs: Array<{ what: string; text: string }> = [];
const serverLogs: string[] = [];
const eastOutputs: string[][] = [];
/** Secrets known from the start: root tokens and every key share. */
const knownSecrets = new Set<string>();

async function startEast(extra: string[] = []): Promise<void> {
  east = await serveChild(['--port', String(eastPort), '--clusters', 'east', '--data', path.join(dir, 'east-data'), ...extra]);
  eastOutputs.push(east.output);
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'lockstep-e2e-dr-'));
  eastPort = await portToComeBackOn();
  const eastInitFile = path.join(dir, 'east-init.json');
  await startEast(['--key-shares', '3', '--key-threshold', '2', '--init-out', eastInitFile]);
  eastInit = JSON.parse(await readFile(eastInitFile, 'utf8')).clusters.east;
  westSouth = await startServer({
    clusters: ['west', 'south'],
    port: 0,
    dataDir: path.join(dir, 'west-south-data'),
    keyShares: 3,
    keyThreshold: 2,
    initOut: path.join(dir, 'west-south-init.json'),
    log: (line) => serverLogs.push(line),
  });
  real.set('east', { baseUrl: east.baseUrl, token: east.rootToken });
  for (const c of westSouth.clusters) {
    real.set(c.name, { baseUrl: c.baseUrl, token: c.rootToken });
    c.keyShares.forEach((s) => knownSecrets.add(s));
  }
  eastInit.key_shares.forEach((s) => knownSecrets.add(s));
  for (const [name, { baseUrl, token }] of real) {
    knownSecrets.add(token);
    const proxy = new RecordingProxy(name, new URL(baseUrl).origin);
    await proxy.listen();
    proxies.set(name, proxy);
  }
  // The set's key shares: east's (its first primary), as --init-out wrote them.
  await mkdir(path.join(dir, 'manifests', 'shares'), { recursive: true });
  for (const [i, share] of eastInit.key_shares.entries()) {
    await writeFile(path.join(dir, 'manifests', 'shares', String(i + 1)), `${share}\n`, { mode: 0o600 });
  }
}, 60_000);

afterAll(async () => {
  for (const p of proxies.values()) await p.close();
  await east?.kill();
  await westSouth?.close();
  await rm(dir, { recursive: true, force: true });
});

function env(): Record<string, string> {
  const e: Record<string, string> = {
    DR_KEY_SHARE_1: eastInit.key_shares[0]!,
    DR_KEY_SHARE_2: eastInit.key_shares[1]!,
    // For the exported set (a plan with no changes never uses them).
    WEST_DR_OPERATION_TOKEN: 'unused-west',
    SOUTH_DR_OPERATION_TOKEN: 'unused-south',
  };
  for (const [name, proxy] of proxies) {
    e[`${name.toUpperCase()}_ADDR`] = proxy.baseUrl;
    e[`${name.toUpperCase()}_TOKEN`] = real.get(name)!.token;
  }
  return e;
}

async function cli(...args: string[]): Promise<CliResult> {
  const t0 = Date.now();
  const result = await runCli(args, { env: env() });
  if (process.env['DR_E2E_TRACE']) console.log(`${Date.now() - t0}ms lockstep ${args.join(' ').replaceAll(dir, '.')} -> ${result.code}`);
  outputs.push({ what: `lockstep ${args.join(' ')}`, text: result.stdout + result.stderr });
  return result;
}

/** A DrReplication document (key shares from files, ${file:...}) written next to the others. */
async function drManifest(name: string, primary: string, secondaries: string[]): Promise<string[]> {
  const file = path.join(dir, 'manifests', `${name}.yaml`);
  const text = [
    'apiVersion: lockstep/v1',
    'kind: DrReplication',
    'name: prod',
    `primary: ${primary}`,
    `secondaries: [${secondaries.join(', ')}]`,
    'keyShares:',
    '  - ${file:shares/3}',
    '  - ${file:shares/1}',
    '',
  ].join('\n');
  await writeFile(file, text);
  return [CLUSTERS, file];
}

/** An LdapAuth manifest for one cluster with one group: how the test writes data through lockstep. */
async function ldapManifest(cluster: string, group: string): Promise<string[]> {
  const file = path.join(dir, 'manifests', `ldap-${cluster}-${group}.yaml`);
  await writeFile(file, ['apiVersion: lockstep/v1', 'kind: LdapAuth', `cluster: ${cluster}`, 'groups:', `  ${group}: { policies: [${cluster}-team] }`, ''].join('\n'));
  return [CLUSTERS, file];
}

/** The step addresses of a text plan, in order, with "!" after destructive ones. */
function steps(stdout: string): string[] {
  return [...stdout.matchAll(/^ {2}> (\S+)(\s+\(destructive\))?$/gm)].map((m) => `${m[1]}${m[2] ? ' !' : ''}`);
}

async function status(cluster: string): Promise<any> {
  const { baseUrl } = real.get(cluster)!;
  const res = await raw(baseUrl, null, 'GET', `${DR}/status`);
  expect(res.status).toBe(200);
  return res.body.data;
}

/** Every secondary follows the primary and holds exactly its data (same merkle root, streaming). */
async function inSync(primary: string, secondaries: string[], ms = 2_000): Promise<void> {
  await waitFor(
    `${secondaries.join(', ')} in sync with ${primary}`,
    async () => {
      const p = await status(primary);
      const s = await Promise.all(secondaries.map(status));
      const ok = s.every((x) => x.state === 'stream-wals' && x.connection_state === 'ready' && x.merkle_root === p.merkle_root);
      return ok ? true : undefined;
    },
    ms,
  );
}

/** Nothing left to change; the LDAP groups the tests write to watch replication are no DR manifest's (unmanaged). */
async function expectEmptyPlan(paths: string[], ...flags: string[]): Promise<void> {
  const again = await cli('plan', ...paths, '--detailed-exitcode', '--ignore-unmanaged', ...flags);
  expect(again.code, again.stdout + again.stderr).toBe(0);
  expect(again.stdout).toMatch(NOTHING_TO_CHANGE);
}

/** lockstep writes a group on the primary; it reaches the secondaries within two seconds. */
async function writeThroughPrimary(primary: string, group: string, secondaries: string[]): Promise<void> {
  const ldap = await ldapManifest(primary, group);
  const applied = await cli('apply', ...ldap, '--auto-approve');
  expect(applied.code, applied.stdout + applied.stderr).toBe(0);
  await inSync(primary, secondaries, 2_000);
  await expectEmptyPlan(ldap);
}

async function groupOn(cluster: string, group: string): Promise<any> {
  const { baseUrl, token } = real.get(cluster)!;
  return raw(baseUrl, token, 'GET', `auth/ldap/groups/${group}`);
}

const BOOTSTRAP = [
  'east:sys/replication/dr/primary/enable',
  'west:sys/replication/dr/secondary/generate-public-key',
  'east:sys/replication/dr/primary/secondary-token/west',
  'west:sys/replication/dr/secondary/enable !',
  'south:sys/replication/dr/secondary/generate-public-key',
  'east:sys/replication/dr/primary/secondary-token/south',
  'south:sys/replication/dr/secondary/enable !',
];

/** The planned failover from `from` to `to` with one other secondary, step by step. */
function failoverSteps(from: string, to: string, other: string): string[] {
  return [
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
}

describe('DR replication through the CLI: east, west and south', () => {
  const eastSet = [CLUSTERS, EAST_PRIMARY];

  it('bootstraps east as primary with west and south: ordered plan, destructive enables gated, data replicated', async () => {
    expect((await cli('validate', EXAMPLES)).code).toBe(0);
    const plan = await cli('plan', ...eastSet, '--detailed-exitcode');
    expect(plan.code, plan.stderr).toBe(2);
    expect(steps(plan.stdout)).toEqual(BOOTSTRAP);
    expect(plan.stdout).toContain('token: (sensitive, write-only)');
    expect(plan.stdout).toContain('Plan: 0 to add, 0 to change, 0 to delete, 7 transitions (2 destructive).');

    const json = JSON.parse((await cli('plan', ...eastSet, '--format', 'json')).stdout);
    expect(json.changes.filter((c: any) => c.destructive).map((c: any) => c.address)).toEqual([
      'west:sys/replication/dr/secondary/enable',
      'south:sys/replication/dr/secondary/enable',
    ]);
    expect(json.changes.every((c: any) => c.action === 'transition')).toBe(true);
    expect(json.changes[3]).toMatchObject({ changedFields: ['follows', 'mode'], sensitiveFields: ['token'], after: { mode: 'secondary', follows: 'east' } });

    const refused = await cli('apply', ...eastSet, '--auto-approve');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('refusing to apply: 2 destructive actions');
    expect(refused.stderr).toContain('--allow-destructive');
    expect((await status('east')).mode).toBe('disabled');

    const applied = await cli('apply', ...eastSet, '--auto-approve', '--allow-destructive');
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect(applied.stdout).toContain('Apply complete: 7 done.');
    await expectEmptyPlan(eastSet);

    const [e, w, s] = await Promise.all(['east', 'west', 'south'].map(status));
    expect(e).toMatchObject({ mode: 'primary', known_secondaries: ['south', 'west'] });
    for (const [name, x] of [['west', w], ['south', s]] as const) {
      expect(x).toMatchObject({ mode: 'secondary', cluster_id: e.cluster_id, secondary_id: name, primary_cluster_addr: new URL(east.baseUrl).origin });
    }

    // Data written on east through lockstep reaches both secondaries; they refuse writes.
    await writeThroughPrimary('east', 'from-east', ['west', 'south']);
    for (const name of ['west', 'south']) {
      const { baseUrl, token } = real.get(name)!;
      const write = await raw(baseUrl, token, 'POST', 'auth/ldap/groups/local', { policies: 'x' });
      expect(write).toEqual({ status: 400, body: { errors: [REFUSAL] } });
    }
    const onSecondary = await cli('apply', ...(await ldapManifest('west', 'local')), '--auto-approve');
    expect(onSecondary.code).toBe(1);
    expect(onSecondary.stderr).toContain(REFUSAL);
  }, STEP_TIMEOUT_MS);

  it('exports the set from its primary (the secondaries are skipped), and a plan on the export shows no changes', async () => {
    const out = path.join(dir, 'exported');
    const exported = await cli('export', CLUSTERS, '--out', out);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stderr).toContain('west is a DR secondary: it serves no reads, and what it holds is exported from its DR primary');
    expect(exported.stderr).toContain('south is a DR secondary');
    expect((await readdir(out)).sort()).toEqual(['east-dr-replication.yaml', 'east-ldap-auth.yaml']);
    const set = await readFile(path.join(out, 'east-dr-replication.yaml'), 'utf8');
    expect(set).toContain('kind: DrReplication\nname: east\nprimary: east\nsecondaries:\n  - south\n  - west\noperationTokens:\n  south: ${env:SOUTH_DR_OPERATION_TOKEN}\n  west: ${env:WEST_DR_OPERATION_TOKEN}\n');
    await expectEmptyPlan([CLUSTERS, out]);
  }, STEP_TIMEOUT_MS);

  it('check reports the set: east the primary, west and south streaming from it', async () => {
    const checked = await cli('check', ...eastSet);
    expect(checked.code, checked.stdout + checked.stderr).toBe(0);
    expect(checked.stdout).toContain('ok   east:sys/replication/dr/status DR set prod: east: DR primary (2 known secondaries');
    for (const name of ['west', 'south']) {
      expect(checked.stdout).toMatch(new RegExp(`ok {3}${name}:sys/replication/dr/status DR set prod: ${name}: DR secondary of east, streaming, WAL \\d+ of \\d+`));
    }
  }, STEP_TIMEOUT_MS);

  it('fails over east → west as planned (saved plan, refused when stale), and back west → east', async () => {
    const westSet = await drManifest('west-primary', 'west', ['east', 'south']);
    const planFile = path.join(dir, 'failover.plan');
    const saved = await cli('plan', ...westSet, '--out', planFile);
    expect(saved.code, saved.stderr).toBe(0);
    expect(steps(saved.stdout)).toEqual(failoverSteps('east', 'west', 'south'));
    outputs.push({ what: 'saved plan', text: await readFile(planFile, 'utf8') });
    for (const format of ['json', 'markdown']) {
      const shown = await cli('plan', ...westSet, '--format', format);
      expect(shown.code).toBe(0);
      expect(shown.stdout).toContain('west:sys/replication/dr/secondary/promote');
    }
    // The pictures (issue 17.4): the comment draws the failover, `graph` its order; the canary
    // check at the end covers both (every output of cli() is kept).
    const comment = (await cli('plan', ...westSet, '--format', 'markdown')).stdout;
    const mermaid = /```mermaid\n([\s\S]*?)\n```/.exec(comment)?.[1];
    expect(mermaid).toContain('    lockstep->>c1: 1. primary/demote\n    Note over c1: DR secondary, following no primary\n    rect rgba(255, 165, 0, 0.2)');
    expect(mermaid).toContain('    lockstep->>c2: 2. secondary/promote\n    end\n    Note over c2: DR primary');
    const graph = await cli('graph', ...westSet);
    expect(graph.code, graph.stderr).toBe(0);
    const svg = spawnSync('dot', ['-Tsvg'], { input: graph.stdout, encoding: 'utf8' });
    expect(svg.status, svg.stderr).toBe(0);
    expect([...svg.stdout.matchAll(/class="node"/g)]).toHaveLength(failoverSteps('east', 'west', 'south').length);

    // Behind lockstep's back, east drops south: the saved plan no longer describes the world.
    const { baseUrl, token } = real.get('east')!;
    expect((await raw(baseUrl, token, 'POST', `${DR}/primary/revoke-secondary`, { id: 'south' })).status).toBe(204);
    const stale = await cli('apply', planFile);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain('the saved plan is stale');
    expect(stale.stderr).toContain('east:sys/replication/dr/status');
    expect((await status('east')).mode).toBe('primary');

    const fresh = await cli('plan', ...westSet, '--out', planFile);
    expect(steps(fresh.stdout)).toEqual(failoverSteps('east', 'west', 'south'));
    outputs.push({ what: 'saved plan', text: await readFile(planFile, 'utf8') });
    const applied = await cli('apply', planFile);
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect(applied.stdout).toContain('Apply complete: 11 done.');
    await expectEmptyPlan(westSet);

    const [e, w, s] = await Promise.all(['east', 'west', 'south'].map(status));
    expect(w).toMatchObject({ mode: 'primary', known_secondaries: ['east', 'south'] });
    for (const [name, x] of [['east', e], ['south', s]] as const) {
      expect(x).toMatchObject({ mode: 'secondary', cluster_id: w.cluster_id, secondary_id: name, primary_cluster_addr: new URL(real.get('west')!.baseUrl).origin });
    }
    // west holds what east wrote; what west writes reaches east and south.
    expect((await groupOn('west', 'from-east')).body.data).toEqual({ policies: ['east-team'] });
    await writeThroughPrimary('west', 'from-west', ['east', 'south']);

    // east falls behind west (its pulls fail for a few seconds) and a write lands on west then.
    // The failover waits for east to have it before it demotes west, so east keeps it.
    westSouth.injectFault({ cluster: 'west', path: /^sys\/replication\/dr\/emulator\/stream/, status: 503, times: 8 });
    await waitFor('east lagging', async () => ((await status('east')).connection_state === 'transient_failure' ? true : undefined));
    const { baseUrl: westUrl, token: westToken } = real.get('west')!;
    expect((await raw(westUrl, westToken, 'POST', 'auth/ldap/groups/late-write', { policies: 'late' })).status).toBe(204);
    const [eastBefore, westBefore] = await Promise.all([status('east'), status('west')]);
    expect(eastBefore.last_remote_wal).toBeLessThan(westBefore.last_wal);

    const back = await cli('apply', ...eastSet, '--auto-approve');
    expect(back.code, back.stdout + back.stderr).toBe(0);
    expect(steps(back.stdout)).toEqual(failoverSteps('west', 'east', 'south'));
    expect((await groupOn('east', 'late-write')).body.data).toEqual({ policies: ['late'] });
    await expectEmptyPlan(eastSet);
    expect((await status('east')).known_secondaries).toEqual(['south', 'west']);
    expect((await groupOn('east', 'from-west')).body.data).toEqual({ policies: ['west-team'] });
    await inSync('east', ['west', 'south']);
  }, STEP_TIMEOUT_MS);

  it('fails over to west while east is down, then demotes and re-attaches east when it returns', async () => {
    const westSet = await drManifest('west-primary', 'west', ['east', 'south']);
    await proxies.get('east')!.close();
    await east.kill();
    // east refuses every connection now: one retry each (not the default four, whose waits add
    // up to seconds a command) still goes through the retry path before east counts as down.
    const eastDown = ['--retries', '1'];

    const eastGone = await cli('plan', ...eastSet, ...eastDown);
    expect(eastGone.code).toBe(1);
    expect(eastGone.stderr).toContain('east, the desired DR primary, is unreachable');

    const refused = await cli('plan', ...westSet, ...eastDown);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('the plan is refused');
    expect(refused.stderr).toContain('east is unreachable and may still be DR primary');
    expect(refused.stderr).toContain('--allow-unreachable-primary');
    expect((await cli('apply', ...westSet, '--auto-approve', ...eastDown)).code).toBe(1);
    expect((await status('west')).mode).toBe('secondary');

    const plan = await cli('plan', ...westSet, '--allow-unreachable-primary', '--detailed-exitcode', ...eastDown);
    expect(plan.code, plan.stderr).toBe(2);
    expect(steps(plan.stdout)).toEqual([
      'west:sys/replication/dr/secondary/promote',
      'west:sys/replication/dr/secondary/operation-token/delete',
      'south:sys/replication/dr/secondary/generate-public-key',
      'west:sys/replication/dr/primary/secondary-token/south',
      'south:sys/replication/dr/secondary/update-primary',
      'south:sys/replication/dr/secondary/operation-token/delete',
    ]);
    expect(plan.stdout).toContain('warning: west:sys/replication/dr: DrReplication prod: west is promoted while east is unreachable');
    const applied = await cli('apply', ...westSet, '--allow-unreachable-primary', '--auto-approve', ...eastDown);
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    await expectEmptyPlan(westSet, '--allow-unreachable-primary', ...eastDown);
    // Without the flag the outage is not acknowledged: a drift check must fail, not pass.
    const unacknowledged = await cli('plan', ...westSet, '--detailed-exitcode', ...eastDown);
    expect(unacknowledged.code).toBe(1);
    expect(unacknowledged.stderr).toContain('east is unreachable: lockstep cannot confirm it follows west');
    expect(await status('west')).toMatchObject({ mode: 'primary', known_secondaries: ['south'] });
    await writeThroughPrimary('west', 'while-east-down', ['south']);

    // east comes back from its --data, still DR primary: two primaries, so only its demotion.
    await startEast();
    real.set('east', { baseUrl: east.baseUrl, token: east.rootToken });
    await proxies.get('east')!.listen();
    expect((await status('east')).mode).toBe('primary');
    const split = await cli('plan', ...westSet, '--detailed-exitcode');
    expect(split.code, split.stderr).toBe(2);
    expect(steps(split.stdout)).toEqual(['east:sys/replication/dr/primary/demote']);
    expect(split.stdout).toContain('east and west are both DR primaries');
    expect((await cli('apply', ...westSet, '--auto-approve')).code).toBe(0);
    expect((await status('east')).mode).toBe('secondary');

    const reattach = await cli('plan', ...westSet, '--detailed-exitcode');
    expect(reattach.code).toBe(2);
    expect(steps(reattach.stdout)).toEqual([
      'east:sys/replication/dr/secondary/generate-public-key',
      'west:sys/replication/dr/primary/secondary-token/east',
      'east:sys/replication/dr/secondary/update-primary',
      'east:sys/replication/dr/secondary/operation-token/delete',
    ]);
    expect((await cli('apply', ...westSet, '--auto-approve')).code).toBe(0);
    await expectEmptyPlan(westSet);
    expect((await status('west')).known_secondaries).toEqual(['east', 'south']);
    await inSync('west', ['east', 'south'], 5_000);
  }, STEP_TIMEOUT_MS);

  it('removes south: revoked on the primary, then DR disabled on it (destructive)', async () => {
    const withoutSouth = await drManifest('west-without-south', 'west', ['east']);
    const plan = await cli('plan', ...withoutSouth);
    expect(steps(plan.stdout)).toEqual([
      'west:sys/replication/dr/primary/revoke-secondary/south',
      'south:sys/replication/dr/secondary/disable !',
      'south:sys/replication/dr/secondary/operation-token/delete',
    ]);
    const refused = await cli('apply', ...withoutSouth, '--auto-approve');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('refusing to apply: 1 destructive action');
    expect(refused.stderr).toContain('south:sys/replication/dr/secondary/disable');
    expect((await status('south')).mode).toBe('secondary');

    const applied = await cli('apply', ...withoutSouth, '--auto-approve', '--allow-destructive');
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    await expectEmptyPlan(withoutSouth);
    expect((await status('south')).mode).toBe('disabled');
    expect((await status('west')).known_secondaries).toEqual(['east']);
    // Leaving the set keeps south's data: what every primary wrote was replicated to it.
    for (const [group, team] of [['from-east', 'east-team'], ['from-west', 'west-team'], ['while-east-down', 'west-team']]) {
      expect((await groupOn('south', group!)).body.data).toEqual({ policies: [team] });
    }
  }, STEP_TIMEOUT_MS);

  it('deleted every DR operation token it generated, and printed or saved no secret', async () => {
    const exchanges = [...proxies.values()].flatMap((p) => p.exchanges);
    const generated = generatedTokens(exchanges);
    // bootstrap 0, failover east → west 3 (the stale saved plan: none), back 3, unplanned 2,
    // re-attaching east 1, removing south 1.
    expect(generated.length).toBe(10);
    const deleted = deletedTokens(exchanges);
    for (const g of generated) {
      expect(deleted, `lockstep deleted the token generated on ${g.cluster}`).toContainEqual(g);
      // The server agrees: the token is no longer valid.
      const { baseUrl } = real.get(g.cluster)!;
      const again = await raw(baseUrl, null, 'POST', `${DR}/secondary/operation-token/delete`, { dr_operation_token: g.token });
      expect(again).toEqual({ status: 400, body: { errors: ['invalid DR operation token'] } });
    }
    // Nothing left in any cluster's DR state either (tokens are kept there as digests).
    for (const file of ['east-data/east', 'west-south-data/west', 'west-south-data/south']) {
      const state = JSON.parse(await readFile(path.join(dir, file, 'dr-replication.json'), 'utf8'));
      expect(state.operation_tokens, file).toEqual([]);
    }

    const secrets = new Set([...knownSecrets, ...secretsSeen(exchanges)]);
    for (const g of generated) expect(secrets.has(g.token)).toBe(true);
    const logs = [...serverLogs, ...eastOutputs.flat()];
    for (const secret of secrets) {
      for (const { what, text } of outputs) expect(text.includes(secret), `${what} shows a secret`).toBe(false);
      // serve prints the root token and the key shares once at start; nothing else may leak.
      const leaking = logs.filter((l) => l.includes(secret) && !/ root token: | key share \d+ of \d+: /.test(l));
      expect(leaking).toEqual([]);
    }
  }, STEP_TIMEOUT_MS);
});
