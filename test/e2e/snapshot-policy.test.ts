import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startAzurite, type Azurite } from '../support/azurite.js';
import { outputRecorder } from '../support/canaries.js';
import { runCli, type CliResult } from '../support/cli.js';
import { expectNoChanges, writeManifestFolder } from '../support/e2e.js';
import { ManualClock } from '../support/manual-clock.js';
import { startS3rver, type S3rver } from '../support/s3rver.js';
import { startTestServer, type TestCluster } from '../support/server.js';
import { fakeServiceAccountKey } from '../fakes/gcs/service-account.js';
import { startFakeGcs, type FakeGcs } from '../fakes/gcs/server.js';
import {
  blobLister,
  gcsLister,
  localLister,
  policyYaml,
  retentionSettles,
  s3Lister,
  startServe,
  type Lister,
} from './snapshot-policy.support.js';

// End to end: the built CLI against the embedded server, whose scheduler writes real snapshots
// to a directory, s3rver, azurite and the GCS fake. The server lives on a clock the tests
// advance (each advance awaits the attempts that fell due); the CLI runs for real. Each CLI run
// is a fresh process (seconds on a busy machine), and several tests run a dozen: generous timeouts.
vi.setConfig({ testTimeout: 240_000 });
const CONFIG_PATH = 'sys/storage/raft/snapshot-auto/config';
const ADDR = `default:${CONFIG_PATH}`;

// Canaries: s3rver checks neither the secret key nor the session token, the GCS fake no key;
// azurite checks signatures, so its (published, unique) development key is the canary there.
const S3_SECRET = 'canary-s3-secret-4f81d2';
const S3_SESSION = 'canary-s3-session-9a0c37';
const SA_KEY = fakeServiceAccountKey();
const SA_CANARIES = [JSON.parse(SA_KEY).private_key_id as string, (JSON.parse(SA_KEY).private_key as string).split('\n')[1]!];

let cluster: TestCluster;
/** The server's time: its wall clock is set to the real one before each test, its timers fire only on advance. */
const clock = new ManualClock();
let s3: S3rver;
let azurite: Azurite;
let gcs: FakeGcs;
let dir: string;

const SECRET_ENV = (): Record<string, string> => ({
  S3_SECRET,
  S3_SESSION,
  BLOB_KEY: azurite.accountKey,
  GCS_KEY: SA_KEY,
});

function canaries(): string[] {
  return [S3_SECRET, S3_SESSION, azurite.accountKey, ...SA_CANARIES, cluster.token];
}

function manifests(files: Record<string, string>, sub = 'm'): Promise<string> {
  return writeManifestFolder(path.join(dir, sub), files);
}

function cli(args: string[], extraEnv: Record<string, string> = {}): Promise<CliResult> {
  return runCli(args, { env: { ...cluster.env, ...SECRET_ENV(), ...extraEnv } });
}

function localConfig(sub: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { interval: '1s', retain: 2, storage_type: 'local', path_prefix: path.join(dir, sub), local_max_space: '10MiB', ...extra };
}

function s3Config(prefix: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    interval: '1s',
    retain: 2,
    storage_type: 'provA-s3',
    path_prefix: prefix,
    provA_s3_bucket: s3.bucket,
    provA_s3_region: s3.region,
    provA_s3_endpoint: s3.endpoint,
    provA_s3_force_path_style: true,
    provA_access_key_id: s3.accessKeyId,
    provA_secret_access_key: '${env:S3_SECRET}',
    provA_session_token: '${env:S3_SESSION}',
    ...extra,
  };
}

function blobConfig(prefix: string): Record<string, unknown> {
  return {
    interval: '1s',
    retain: 2,
    storage_type: 'provB-blob',
    path_prefix: prefix,
    provB_container_name: azurite.container,
    provB_account_name: azurite.accountName,
    provB_account_key: '${env:BLOB_KEY}',
    provB_endpoint: azurite.endpoint,
  };
}

function gcsConfig(prefix: string): Record<string, unknown> {
  return {
    interval: '1s',
    retain: 2,
    storage_type: 'provC-gcs',
    path_prefix: prefix,
    provC_gcs_bucket: 'snapshots',
    provC_endpoint: gcs.endpoint,
    provC_service_account_key: '${env:GCS_KEY}',
  };
}

function expectEmptyPlan(m: string, extra: string[] = []): Promise<void> {
  return expectNoChanges(cli, m, extra);
}

async function applyOk(m: string, extra: string[] = []): Promise<CliResult> {
  const r = await cli(['apply', m, '--auto-approve', ...extra]);
  expect(r.code, r.stdout + r.stderr).toBe(0);
  return r;
}

beforeAll(async () => {
  [cluster, s3, azurite, gcs] = await Promise.all([startTestServer(undefined, { clock }), startS3rver(), startAzurite(), startFakeGcs({ buckets: ['snapshots'] })]);
});
afterAll(async () => {
  await Promise.all([cluster?.server.close(), s3?.stop(), azurite?.stop(), gcs?.stop()]);
});
beforeEach(async () => {
  // The CLI judges the server's times by the real clock (check's freshness).
  clock.setWallTime(Date.now());
  dir = await mkdtemp(path.join(tmpdir(), 'lockstep-snap-e2e-'));
  // Each test starts from a server without snapshot configurations.
  const listed = await cluster.raw('GET', `${CONFIG_PATH}?list=true`);
  const keys = (listed.body as { data?: { keys?: string[] } } | null)?.data?.keys ?? [];
  for (const name of keys) await cluster.raw('DELETE', `${CONFIG_PATH}/${name}`);
});
afterEach(async () => {
  cluster.server.clearFaults();
  // Stop the schedules before their directory goes.
  const listed = await cluster.raw('GET', `${CONFIG_PATH}?list=true`);
  for (const name of (listed.body as { data?: { keys?: string[] } } | null)?.data?.keys ?? []) await cluster.raw('DELETE', `${CONFIG_PATH}/${name}`);
  await rm(dir, { recursive: true, force: true });
});

describe('a local policy', () => {
  it('applies a 1 s policy, plans no changes, and the scheduler keeps exactly `retain` snapshots', async () => {
    const m = await manifests({ 'p.yaml': policyYaml('fast', localConfig('snaps')) });
    const plan = await cli(['plan', m, '--detailed-exitcode']);
    expect(plan.code, plan.stderr).toBe(2);
    expect(plan.stdout).toContain(`+ ${ADDR}/fast`);
    expect(plan.stdout).toContain('interval: 1');
    expect(plan.stdout).toContain('local_max_space: 10485760');
    await applyOk(m);
    await expectEmptyPlan(m);
    const kept = await retentionSettles(clock, 1000, localLister(path.join(dir, 'snaps')), 2);
    expect(kept).toHaveLength(2);
    await expectEmptyPlan(m);

    const check = await cli(['check', m]);
    expect(check.code, check.stdout + check.stderr).toBe(0);
    expect(check.stdout).toContain('reachable and writable');
    expect(check.stdout).toMatch(/snapshot-auto\/status\/fast: the last snapshot ended \d+s ago/);
    expect(check.stdout).toMatch(/Check passed: \d+ findings\./);
  });

  it('restore: serve --restore <snapshot> starts a server that holds what was snapshotted, whose plan is empty', async () => {
    const m = await manifests({ 'p.yaml': policyYaml('nightly', localConfig('snaps', { interval: '1s', retain: 3 })) + '---\n' + policyYaml('other', localConfig('other', { interval: '24h' })) });
    await applyOk(m);
    await clock.advance(1000);
    const [newest] = await localLister(path.join(dir, 'snaps'))();
    expect(newest).toBeDefined();
    // The snapshot is sealed with the source cluster's root key: the new server gets its shares.
    const keys = path.join(dir, 'init.json');
    await writeFile(keys, JSON.stringify({ clusters: { default: { key_shares: cluster.server.clusters[0]!.keyShares, key_threshold: 1 } } }));
    const served = await startServe(['--token', 'restored-root', '--restore', path.join(dir, 'snaps', newest!), '--restore-keys', keys]);
    try {
      // Read back: the restored server answers each policy as the server that took the snapshot.
      const readBack = async (name: string): Promise<unknown> => {
        const res = await fetch(`${served.baseUrl}/${CONFIG_PATH}/${name}`, { headers: { 'X-Vault-Token': 'restored-root' } });
        expect(res.status).toBe(200);
        return ((await res.json()) as { data: unknown }).data;
      };
      const listed = await fetch(`${served.baseUrl}/${CONFIG_PATH}?list=true`, { headers: { 'X-Vault-Token': 'restored-root' } });
      expect(((await listed.json()) as { data: { keys: string[] } }).data.keys.sort()).toEqual(['nightly', 'other']);
      for (const name of ['nightly', 'other']) {
        expect(await readBack(name)).toEqual(((await cluster.raw('GET', `${CONFIG_PATH}/${name}`)).body as { data: unknown }).data);
      }
      await expectNoChanges((args) => runCli(args, { env: { SERVICE_ADDR: served.baseUrl, SERVICE_TOKEN: 'restored-root' } }), m);
    } finally {
      await served.stop();
    }
  });
});

describe('cloud destinations (the server writes there)', () => {
  const cases: Array<[string, () => Record<string, unknown>, () => Lister]> = [
    ['provA-s3 (s3rver)', () => s3Config('e2e-s3/'), () => s3Lister(s3, 'e2e-s3/')],
    ['provB-blob (azurite)', () => blobConfig('e2e-blob/'), () => blobLister(azurite, 'e2e-blob/')],
    ['provC-gcs (GCS fake)', () => gcsConfig('e2e-gcs/'), () => gcsLister(gcs, 'snapshots', 'e2e-gcs/')],
  ];
  it.each(cases)('%s: apply, empty plan, exactly `retain` snapshots, healthy check', async (_label, config, lister) => {
    const m = await manifests({ 'p.yaml': policyYaml('cloud', config()) });
    const apply = await applyOk(m);
    expect(apply.stdout).toMatch(/write-only|\(sensitive/);
    await expectEmptyPlan(m);
    expect(await retentionSettles(clock, 1000, lister(), 2)).toHaveLength(2);
    const check = await cli(['check', m, '--format', 'json']);
    expect(check.code, check.stdout + check.stderr).toBe(0);
    const findings = (JSON.parse(check.stdout) as { findings: Array<{ ok: boolean; subject: string; message: string }> }).findings;
    expect(findings.some((f) => f.message.includes('reachable and writable'))).toBe(true);
    expect(findings.some((f) => f.subject === 'snapshot-auto/status/cloud' && f.ok)).toBe(true);
    const all = [apply.stdout, apply.stderr, check.stdout, check.stderr].join('\n');
    for (const canary of canaries()) expect(all).not.toContain(canary);
    // lockstep's stderr carries its own messages, not its SDKs' notices to their maintainers.
    expect(check.stderr).not.toContain('Warning:');
  });
});

describe('changes', () => {
  it('a storage_type change is an update showing the old and new destinations', async () => {
    const snaps = path.join(dir, 'snaps');
    const m = await manifests({ 'p.yaml': policyYaml('moving', localConfig('snaps', { interval: '1h' })) });
    await applyOk(m);
    const moved = await manifests({ 'p.yaml': policyYaml('moving', s3Config('moved/', { interval: '1s', retain: 1 })) });
    const plan = await cli(['plan', moved, '--detailed-exitcode']);
    expect(plan.code, plan.stderr).toBe(2);
    expect(plan.stdout).toContain(`~ ${ADDR}/moving`);
    expect(plan.stdout).toContain(`# destination: local ${snaps} -> s3 ${s3.bucket}/moved/ at ${s3.endpoint}`);
    expect(plan.stdout).toContain('storage_type: "local" -> "provA-s3"');
    expect(plan.stdout).toContain('local_max_space: 10485760 -> (none)');
    expect(plan.stdout).toContain('provA_secret_access_key: (sensitive, write-only)');
    expect(plan.stdout).toMatch(/Plan: 0 to add, 1 to change, 0 to delete\./);
    const json = JSON.parse((await cli(['plan', moved, '--format', 'json'])).stdout) as { changes: Array<{ action: string; changedFields: string[] }> };
    expect(json.changes.map((c) => c.action)).toEqual(['update']);
    expect(json.changes[0]!.changedFields).toEqual(expect.arrayContaining(['storage_type', 'local_max_space', 'provA_s3_bucket']));
    await applyOk(moved);
    await expectEmptyPlan(moved);
    await clock.advance(1000);
    expect(await s3Lister(s3, 'moved/')()).toHaveLength(1);
  });

  it('shows drift, lists unmanaged configurations, and deletes them only with --prune', async () => {
    const m = await manifests({ 'p.yaml': policyYaml('kept', localConfig('kept', { interval: '24h' })) });
    await applyOk(m);
    await cluster.raw('POST', `${CONFIG_PATH}/kept`, { interval: '12h', storage_type: 'local', path_prefix: path.join(dir, 'kept'), local_max_space: 10485760, retain: 2 });
    await cluster.raw('POST', `${CONFIG_PATH}/stray`, { interval: 3600, storage_type: 'local', path_prefix: path.join(dir, 'stray'), local_max_space: 1000 });
    const drift = await cli(['plan', m, '--detailed-exitcode']);
    expect(drift.code).toBe(2);
    expect(drift.stdout).toContain('interval: 43200 -> 86400');
    expect(drift.stdout).toContain(`${ADDR}/stray`);
    expect(drift.stdout).not.toContain(`- ${ADDR}/stray`);
    await applyOk(m);
    await expectEmptyPlan(m, ['--ignore-unmanaged']);

    const pruning = await cli(['plan', m, '--prune', '--detailed-exitcode']);
    expect(pruning.code).toBe(2);
    expect(pruning.stdout).toMatch(new RegExp(`- ${ADDR}/stray\\s+\\(prune\\)`));
    expect(pruning.stdout).toContain(`# snapshots already written to local ${path.join(dir, 'stray')} are not deleted`);
    await applyOk(m, ['--prune']);
    expect((await cluster.raw('GET', `${CONFIG_PATH}/stray`)).status).toBe(404);
    await expectEmptyPlan(m, ['--prune']);

    // prune: true in the document does the same.
    await cluster.raw('POST', `${CONFIG_PATH}/stray2`, { interval: 3600, storage_type: 'local', path_prefix: path.join(dir, 'stray'), local_max_space: 1000 });
    const doc = await manifests({ 'p.yaml': policyYaml('kept', localConfig('kept', { interval: '24h' }), { prune: true }) }, 'm2');
    await applyOk(doc);
    expect((await cluster.raw('GET', `${CONFIG_PATH}/stray2`)).status).toBe(404);
    await expectEmptyPlan(doc);
  });
});

describe('export', () => {
  it('round-trips: plan on the exported manifests shows no changes; credentials become references', async () => {
    const m = await manifests({
      'a.yaml': policyYaml('local', localConfig('snaps', { interval: '24h', retain: 7, local_max_space: '10GiB' })),
      'b.yaml': policyYaml('offsite', s3Config('exp/', { interval: '1h' })),
      'c.yaml': policyYaml('blob', { ...blobConfig('exp/'), interval: '6h' }),
      'd.yaml': policyYaml('gcs', { ...gcsConfig('exp/'), interval: '90m' }),
    });
    await applyOk(m);
    const out = path.join(dir, 'exported');
    const exp = await cli(['export', '--out', out]);
    expect(exp.code, exp.stderr).toBe(0);
    const files = await readdir(out);
    expect(files).toContain('default-snapshot-policy.yaml');
    const text = await readFile(path.join(out, 'default-snapshot-policy.yaml'), 'utf8');
    expect(text).toContain('# yaml-language-server: $schema=');
    expect(text).toContain('interval: 24h');
    expect(text).toContain('local_max_space: 10GiB');
    expect(text).toContain('${env:DEFAULT_SNAPSHOT_OFFSITE_PROVA_SECRET_ACCESS_KEY}');
    expect(text).toContain('${env:DEFAULT_SNAPSHOT_OFFSITE_PROVA_SESSION_TOKEN}');
    expect(text).toContain('${env:DEFAULT_SNAPSHOT_BLOB_PROVB_ACCOUNT_KEY}');
    expect(text).toContain('${env:DEFAULT_SNAPSHOT_GCS_PROVC_SERVICE_ACCOUNT_KEY}');
    for (const canary of canaries()) expect(text + exp.stdout + exp.stderr).not.toContain(canary);
    const refs = {
      DEFAULT_SNAPSHOT_OFFSITE_PROVA_SECRET_ACCESS_KEY: S3_SECRET,
      DEFAULT_SNAPSHOT_OFFSITE_PROVA_SESSION_TOKEN: S3_SESSION,
      DEFAULT_SNAPSHOT_BLOB_PROVB_ACCOUNT_KEY: azurite.accountKey,
      DEFAULT_SNAPSHOT_GCS_PROVC_SERVICE_ACCOUNT_KEY: SA_KEY,
    };
    const plan = await cli(['plan', path.join(out, 'default-snapshot-policy.yaml'), '--detailed-exitcode'], refs);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  });
});

describe('the sudo capability', () => {
  // (export stops at the first kind it cannot read, LdapAuth's sys/auth here: its sudo message is unit-tested.)
  it('a token without sudo gets a clear error from plan and apply; check still reads the status', async () => {
    const m = await manifests({ 'p.yaml': policyYaml('guarded', localConfig('snaps', { interval: '1h' })) });
    // Read and write on the whole API, but no sudo (the spec: sudo required except for the status read).
    const ops = 'path "sys/*" { capabilities = ["create", "read", "update", "delete", "list"] }';
    expect((await cluster.raw('PUT', 'sys/policies/acl/ops', { policy: ops })).status).toBe(204);
    const token = await cluster.server.mintToken({ policies: ['default', 'ops'] });
    const env = { SERVICE_TOKEN: token };
    const needs = 'needs a token with the sudo capability on sys/storage/raft/snapshot-auto';
    const plan = await cli(['plan', m], env);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain(needs);
    const apply = await cli(['apply', m, '--auto-approve'], env);
    expect(apply.code).toBe(1);
    expect(apply.stderr).toContain(needs);
    for (const r of [plan, apply]) expect(r.stdout + r.stderr).not.toContain(token);

    await applyOk(m);
    const check = await cli(['check', m], env);
    expect(check.code, check.stdout + check.stderr).toBe(0);
    expect(check.stdout).toContain('no snapshot taken yet; the first is due at');
  });
});

describe('check', () => {
  it('an unwritable destination fails, in text and JSON', async () => {
    await writeFile(path.join(dir, 'a-file'), 'not a directory');
    const m = await manifests({ 'p.yaml': policyYaml('blocked', { ...localConfig('x'), path_prefix: path.join(dir, 'a-file', 'snaps') }) });
    await applyOk(m);
    // The server's attempts fail too.
    await clock.advance(1000);
    const s = await cluster.raw('GET', 'sys/storage/raft/snapshot-auto/status/blocked');
    expect((s.body as { data: { consecutive_errors: number } }).data.consecutive_errors).toBe(1);
    const text = await cli(['check', m]);
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/FAIL .*not writable/);
    expect(text.stdout).toMatch(/FAIL .*snapshot-auto\/status\/blocked: last snapshot attempt failed/);
    expect(text.stdout).toMatch(/Check failed: \d+ of \d+ findings failed\./);
    const json = await cli(['check', m, '--format', 'json']);
    expect(json.code).toBe(1);
    const findings = (JSON.parse(json.stdout) as { findings: Array<{ ok: boolean; address: string; message: string }> }).findings;
    expect(findings.filter((f) => !f.ok).length).toBeGreaterThanOrEqual(2);
    expect(findings.every((f) => f.address === `${ADDR}/blocked`)).toBe(true);
  });

  it('failing snapshots (local_max_space too small) make the policy unhealthy', async () => {
    const m = await manifests({ 'p.yaml': policyYaml('cramped', localConfig('cramped', { local_max_space: 100 })) });
    await applyOk(m);
    await clock.advance(1000);
    const s = await cluster.raw('GET', 'sys/storage/raft/snapshot-auto/status/cramped');
    expect((s.body as { data: { last_snapshot_error: string } }).data.last_snapshot_error).toMatch(/^local_max_space exceeded/);
    const check = await cli(['check', m]);
    expect(check.code).toBe(1);
    expect(check.stdout).toMatch(/FAIL .*last snapshot attempt failed: local_max_space exceeded/);
    expect(check.stdout).toMatch(/FAIL .*consecutive failed snapshot attempt/);
    expect(check.stdout).toMatch(/ok {3}.*reachable and writable/);
  });

  it('a policy whose first snapshot is long overdue is stale', async () => {
    const m = await manifests({ 'p.yaml': policyYaml('overdue', localConfig('overdue', { interval: '1h' })) });
    // The server's wall clock reads three hours earlier when the policy is written, then is set
    // right (its timers do not move): the first snapshot was due two hours ago.
    clock.setWallTime(Date.now() - 3 * 3600_000);
    const write = await cluster.raw('POST', `${CONFIG_PATH}/overdue`, { interval: 3600, storage_type: 'local', path_prefix: path.join(dir, 'overdue'), local_max_space: 10485760, retain: 2 });
    expect(write.status).toBeLessThan(300);
    clock.setWallTime(Date.now());
    await expectEmptyPlan(m);
    const check = await cli(['check', m]);
    expect(check.code).toBe(1);
    expect(check.stdout).toMatch(/FAIL .*snapshot-auto\/status\/overdue: no snapshot taken yet, although the first was due at .* \(2h\d*m?\d*s? ago\)/);
  });

  it('without a server, the destination is still checked and the status is skipped', async () => {
    const m = await manifests({ 'p.yaml': policyYaml('offline', localConfig('offline', { interval: '1h' })) });
    const check = await runCli(['check', m]);
    expect(check.code, check.stdout + check.stderr).toBe(0);
    expect(check.stdout).toContain('reachable and writable');
    expect(check.stdout).toContain('health not checked: no server is configured for cluster default');
  });
});

describe('secrets never appear', () => {
  it('keeps every credential out of every output, saved plan and error message', async () => {
    const m = await manifests({
      'a.yaml': policyYaml('s3', s3Config('canary/')),
      'b.yaml': policyYaml('blob', blobConfig('canary/')),
      'c.yaml': policyYaml('gcs', gcsConfig('canary/')),
    });
    const { record, add, expectNoCanaries } = outputRecorder();
    record(await cli(['validate', m]));
    for (const f of ['text', 'json', 'markdown']) record(await cli(['plan', m, '--format', f]));
    const planFile = path.join(dir, 'p.plan');
    record(await cli(['plan', m, '--out', planFile]));
    add(await readFile(planFile, 'utf8'));
    // A server that echoes what it was sent: the client scrubs it.
    cluster.server.injectFault({ method: 'POST', path: /snapshot-auto\/config\//, status: 400, times: 3, errors: [`bad ${S3_SECRET} ${S3_SESSION} ${azurite.accountKey} ${SA_KEY}`] });
    const failed = record(await cli(['apply', m, '--auto-approve']));
    expect(failed.code).toBe(1);
    expect(failed.stdout).toContain('(sensitive)');
    cluster.server.clearFaults();
    expect(record(await cli(['apply', planFile])).code).toBe(0);
    const sync = record(await cli(['apply', m, '--auto-approve', '--sync-secrets']));
    expect(sync.code).toBe(0);
    expect(sync.stdout).toMatch(/Apply complete: 3 done\./);
    for (const f of ['text', 'json']) record(await cli(['check', m, '--format', f]));
    record(await cli(['export']));
    // A literal secret is refused without being quoted; an unreachable server names no secret.
    const literal = await manifests({ 'a.yaml': policyYaml('s3', s3Config('x/', { provA_secret_access_key: S3_SECRET })) }, 'literal');
    expect(record(await cli(['plan', literal])).code).toBe(1);
    record(await cli(['plan', m], { SERVICE_ADDR: 'http://127.0.0.1:1/v1' }));
    expectNoCanaries(canaries(), 1000);
  });
});
