/**
 * Managed keys end to end: the built CLI against the embedded server over HTTP, with SoftHSM2
 * as the HSM behind the server (test/sign really signs on the token) and the loopback cloud
 * fakes behind `check`. The server runs in this process, so it shares SoftHSM's configuration.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/index.js';
import { startFakeAwsKms, type FakeAwsKms } from '../fakes/aws-kms/server.js';
import { startFakeKeyVault, type FakeKeyVault } from '../fakes/azure-keyvault/server.js';
import { startFakeGcpKms, type FakeGcpKms } from '../fakes/gcp-kms/server.js';
import { outputRecorder } from '../support/canaries.js';
import { runCli, type CliResult } from '../support/cli.js';
import { expectNoChanges as expectPlanEmpty, writeManifestFolder } from '../support/e2e.js';
import { startSoftHsm, type SoftHsm } from '../support/softhsm.js';

const TOKEN_LABEL = 'lockstep-e2e';
const PIN = 'pin-canary-e2e-31c7';
const WRONG_PIN = 'wrong-pin-canary-e2e-8d02';
const ACCESS_KEY = 'AKIAE2ECANARY0000001';
const AWS_SECRET = 'aws-secret-canary-e2e-66b1';
const AZURE_CLIENT = 'azure-client-e2e';
const AZURE_SECRET = 'azure-secret-canary-e2e-4a90';
const ROOT_TOKEN = `root-mk-${Math.random().toString(36).slice(2)}`;
/** Each test runs the CLI many times (a process each); a busy machine needs minutes. */
const SLOW = 240_000;

let hsm: SoftHsm;
let server: RunningServer;
let baseUrl: string;
let dir: string;

const HSM_KEY = (over: { name?: string; pin?: string; extra?: string } = {}) => `apiVersion: lockstep/v1
kind: ManagedKey
name: ${over.name ?? 'hsm-signing'}
type: pkcs11
config:
  library: softhsm
  token_label: ${TOKEN_LABEL}
  key_label: ${over.name ?? 'hsm-signing'}
  mechanism: "0x1041"
  pin: \${env:${over.pin ?? 'HSM_PIN'}}
  allow_generate_key: "true"
  curve: P-256
  usages: sign, verify
${over.extra ?? ''}verify: true
`;

const AWS_KEY = (name = 'aws-signing', extra = '') => `apiVersion: lockstep/v1
kind: ManagedKey
name: ${name}
type: provAkms
config:
  key_type: ecdsa
  curve: P256
  kms_key: alias/${name}
  access_key: ${ACCESS_KEY}
  secret_key: \${env:AWS_SECRET_KEY}
  endpoint: http://127.0.0.1:9/kms
${extra}`;

const AZURE_KEY = `apiVersion: lockstep/v1
kind: ManagedKey
name: azure-signing
type: provBkeyvault
config:
  tenant_id: 7f3c2a10-0000-4000-8000-00000000fa4e
  client_id: ${AZURE_CLIENT}
  client_secret: \${env:AZURE_CLIENT_SECRET}
  vault_name: lockstep
  key_name: signing
  key_type: RSA-HSM
  key_bits: 2048
`;

const GCP_KEY = `apiVersion: lockstep/v1
kind: ManagedKey
name: gcp-signing
type: provCckms
config:
  credentials: \${file:sa.json}
  crypto_key: signing
  key_ring: ring
  project: p1
  region: us-east1
  algorithm: EC_SIGN_P256_SHA256
`;

const GCP_CREDENTIALS = JSON.stringify({ type: 'service_account', client_email: 'e2e@p1.iam.example', private_key: 'gcp-private-key-canary-e2e-0c3d' });

function env(extra: Record<string, string> = {}): Record<string, string> {
  return { SERVICE_ADDR: baseUrl, SERVICE_TOKEN: ROOT_TOKEN, HSM_PIN: PIN, AWS_SECRET_KEY: AWS_SECRET, AZURE_CLIENT_SECRET: AZURE_SECRET, ...extra };
}

function cli(args: string[], extra: Record<string, string> = {}): Promise<CliResult> {
  return runCli(args, { env: env(extra) });
}

function manifests(files: Record<string, string>, sub = 'm'): Promise<string> {
  return writeManifestFolder(path.join(dir, sub), files);
}

async function raw(method: string, apiPath: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${baseUrl}/${apiPath}`, {
    method,
    headers: { 'X-Vault-Token': ROOT_TOKEN, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** Every managed key on the server, as `type/name`, sorted. */
async function serverKeys(namespace = ''): Promise<string[]> {
  const prefix = namespace ? `${namespace}/` : '';
  const out: string[] = [];
  for (const type of ['pkcs11', 'provAkms', 'provBkeyvault', 'provCckms']) {
    const res = await raw('GET', `${prefix}sys/managed-keys/${type}?list=true`);
    for (const name of (res.body?.data?.keys as string[] | undefined) ?? []) out.push(`${type}/${name}`);
  }
  return out.sort();
}

function expectNoChanges(m: string, extra: Record<string, string> = {}, args: string[] = []): Promise<void> {
  return expectPlanEmpty((a) => cli(a, extra), m, args);
}

beforeAll(async () => {
  hsm = await startSoftHsm([{ label: TOKEN_LABEL, userPin: PIN }]);
  server = await startServer({ port: 0, rootToken: ROOT_TOKEN, kmsLibraries: { softhsm: hsm.library }, keyBackends: { env: {} } });
  baseUrl = server.clusters[0]!.baseUrl;
});

afterAll(async () => {
  await server?.close();
  await hsm?.cleanup();
});

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'lockstep-e2e-mk-'));
  // Each test starts from a server without managed keys and without key usage on mounts.
  await raw('POST', 'sys/mounts/secret/tune', { allowed_managed_keys: [] });
  for (const ns of ['', 'team-a']) {
    for (const key of await serverKeys(ns)) await raw('DELETE', `${ns ? `${ns}/` : ''}sys/managed-keys/${key}`);
  }
});

afterEach(async () => {
  server.clearFaults();
  await rm(dir, { recursive: true, force: true });
});

describe('pkcs11 with SoftHSM', () => {
  it('applies a key with verify: true (the server signs on the token), then plans no changes', async () => {
    const m = await manifests({ 'hsm.yaml': HSM_KEY() });
    const plan = await cli(['plan', m, '--detailed-exitcode']);
    expect(plan.code, plan.stderr).toBe(2);
    expect(plan.stdout).toContain('+ default:sys/managed-keys/pkcs11/hsm-signing');
    expect(plan.stdout).toContain('mechanism: "0x1041"');
    expect(plan.stdout).toContain('pin: (sensitive, write-only)');
    expect(plan.stdout).toContain('# then test/sign: a key that cannot sign fails the apply');
    expect(plan.stdout).toContain('Plan: 1 to add, 0 to change, 0 to delete.');

    const apply = await cli(['apply', m, '--auto-approve']);
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    // test/sign generated the key on the token (allow_generate_key) and signed with it.
    expect(await hsm.countPrivateKeys('hsm-signing')).toBe(1);
    await expectNoChanges(m);

    const read = await raw('GET', 'sys/managed-keys/pkcs11/hsm-signing');
    expect(read.body.data).toMatchObject({ pin: 'redacted', curve: 'P256', mechanism: 4161, allow_generate_key: true, usages: ['sign', 'verify'] });
  }, SLOW);

  it("a key that cannot sign (wrong PIN) fails the apply with the server's reason; fixed, --sync-secrets converges", async () => {
    const m = await manifests({ 'hsm.yaml': HSM_KEY({ pin: 'WRONG_PIN' }) });
    const failed = await cli(['apply', m, '--auto-approve'], { WRONG_PIN });
    expect(failed.code).toBe(1);
    expect(failed.stdout).toMatch(/Apply failed: 0 done, 1 failed, 0 not started/);
    expect(failed.stdout).toContain('verify: the key was written but cannot sign');
    expect(failed.stdout).toContain('CKR_PIN_INCORRECT');
    expect(failed.stdout + failed.stderr).not.toContain(WRONG_PIN);

    // The pin is write-only: the key matches as far as the server can say, so only
    // --sync-secrets sends the corrected one (and signs again).
    const m2 = await manifests({ 'hsm.yaml': HSM_KEY() });
    await expectNoChanges(m2);
    const fixed = await cli(['apply', m2, '--auto-approve', '--sync-secrets']);
    expect(fixed.code, fixed.stdout).toBe(0);
    expect(fixed.stdout).toContain('sync-secrets');
    await expectNoChanges(m2);
  }, SLOW);
});

describe('type change, delete guard, prune', () => {
  it('a type change is a destructive replace: refused without --allow-destructive, applied with it', async () => {
    const m = await manifests({ 'k.yaml': HSM_KEY({ name: 'signing' }) });
    expect((await cli(['apply', m, '--auto-approve'])).code).toBe(0);

    const changed = await manifests({ 'k.yaml': AWS_KEY('signing') });
    const plan = await cli(['plan', changed]);
    expect(plan.stdout).toMatch(/\+ default:sys\/managed-keys\/provAkms\/signing\s+\(replace, destructive\)/);
    expect(plan.stdout).toMatch(/- default:sys\/managed-keys\/pkcs11\/signing\s+\(replace, destructive\)/);
    expect(plan.stdout).toContain('Plan: 1 to add, 0 to change, 1 to delete (2 destructive).');
    const json = JSON.parse((await cli(['plan', changed, '--format', 'json'])).stdout);
    expect(json.changes.map((c: { address: string; action: string; destructive: boolean }) => [c.action, c.address, c.destructive])).toEqual([
      ['delete', 'default:sys/managed-keys/pkcs11/signing', true],
      ['create', 'default:sys/managed-keys/provAkms/signing', true],
    ]);

    const refused = await cli(['apply', changed, '--auto-approve']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('refusing to apply: 2 destructive actions');
    expect(await serverKeys()).toEqual(['pkcs11/signing']);

    const applied = await cli(['apply', changed, '--auto-approve', '--allow-destructive']);
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect(await serverKeys()).toEqual(['provAkms/signing']);
    await expectNoChanges(changed);
  }, SLOW);

  it('a delete of a key a mount still lists is refused at plan time, naming the mount', async () => {
    const m = await manifests({ 'a.yaml': AWS_KEY('kept'), 'b.yaml': AWS_KEY('in-use') });
    expect((await cli(['apply', m, '--auto-approve'])).code).toBe(0);
    expect((await raw('POST', 'sys/mounts/secret/tune', { allowed_managed_keys: ['in-use'] })).status).toBe(204);

    const fewer = await manifests({ 'a.yaml': AWS_KEY('kept') });
    const unmanaged = await cli(['plan', fewer, '--detailed-exitcode']);
    expect(unmanaged.code).toBe(2);
    expect(unmanaged.stdout).toContain('default:sys/managed-keys/provAkms/in-use');

    for (const command of [['plan', fewer, '--prune'], ['apply', fewer, '--prune', '--auto-approve', '--allow-destructive']]) {
      const refused = await cli(command);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('the plan is refused');
      expect(refused.stderr).toContain('default:sys/managed-keys/provAkms/in-use: cannot delete managed key "in-use" (prune): it is listed in allowed_managed_keys of mount secret/');
    }
    expect(await serverKeys()).toEqual(['provAkms/in-use', 'provAkms/kept']);
    // A --target that leaves the refused delete out is not refused; one that takes it in is.
    const elsewhere = await cli(['plan', fewer, '--prune', '--detailed-exitcode', '--target', 'default:sys/managed-keys/provAkms/kept']);
    expect(elsewhere.code, elsewhere.stderr).toBe(0);
    const onIt = await cli(['plan', fewer, '--prune', '--target', 'default:sys/managed-keys/provAkms/in-use']);
    expect(onIt.code).toBe(1);
    expect(onIt.stderr).toContain('cannot delete managed key "in-use"');

    await raw('POST', 'sys/mounts/secret/tune', { allowed_managed_keys: [] });
    const pruned = await cli(['apply', fewer, '--prune', '--auto-approve', '--allow-destructive']);
    expect(pruned.code, pruned.stdout + pruned.stderr).toBe(0);
    expect(await serverKeys()).toEqual(['provAkms/kept']);
    await expectNoChanges(fewer, {}, ['--prune']);
  }, SLOW);

  it('--prune deletes unlisted keys of every type, only with --allow-destructive, in the manifests\' namespace', async () => {
    const m = await manifests({ 'k.yaml': `${AWS_KEY('kept')}namespace: team-a\n` });
    // #14.3: a namespace that was never created is named at plan time, before anything is read.
    const refused = await cli(['plan', m]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/k\.yaml:\d+:\d+: error: namespace "team-a" does not exist on cluster "default"; declare it \(kind: Namespace, name: team-a\) or create it first \(POST sys\/namespaces\/team-a\)/);
    expect((await raw('POST', 'sys/namespaces/team-a')).status).toBe(200);
    await raw('POST', 'team-a/sys/managed-keys/provCckms/stray', { credentials: '/nowhere.json', crypto_key: 'k', key_ring: 'r', project: 'p', region: 'r', algorithm: 'EC_SIGN_P256_SHA256' });
    await raw('POST', 'sys/managed-keys/provCckms/root-stray', { credentials: '/nowhere.json', crypto_key: 'k', key_ring: 'r', project: 'p', region: 'r', algorithm: 'EC_SIGN_P256_SHA256' });
    const plan = await cli(['plan', m, '--prune']);
    expect(plan.stdout).toContain('+ default:team-a/sys/managed-keys/provAkms/kept');
    expect(plan.stdout).toMatch(/- default:team-a\/sys\/managed-keys\/provCckms\/stray\s+\(prune, destructive\)/);
    expect(plan.stdout).not.toContain('root-stray');
    expect((await cli(['apply', m, '--prune', '--auto-approve'])).code).toBe(1);
    const applied = await cli(['apply', m, '--prune', '--auto-approve', '--allow-destructive']);
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect(await serverKeys('team-a')).toEqual(['provAkms/kept']);
    expect(await serverKeys()).toEqual(['provCckms/root-stray']);
    await expectNoChanges(m, {}, ['--prune']);
  }, SLOW);
});

describe('export', () => {
  it('round-trips every type: plan on the exported manifests shows no changes, and no secret is written', async () => {
    const m = await manifests({ 'hsm.yaml': HSM_KEY(), 'aws.yaml': AWS_KEY(), 'az.yaml': AZURE_KEY, 'gcp.yaml': GCP_KEY, 'sa.json': GCP_CREDENTIALS });
    const applied = await cli(['apply', m, '--auto-approve']);
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    await expectNoChanges(m);

    const out = path.join(dir, 'exported');
    const exp = await cli(['export', '--out', out]);
    expect(exp.code, exp.stderr).toBe(0);
    expect(await readdir(out)).toContain('default-managed-key.yaml');
    const text = await readFile(path.join(out, 'default-managed-key.yaml'), 'utf8');
    for (const ref of ['DEFAULT_HSM_SIGNING_PIN', 'DEFAULT_AWS_SIGNING_SECRET_KEY', 'DEFAULT_AZURE_SIGNING_CLIENT_SECRET', 'DEFAULT_GCP_SIGNING_CREDENTIALS']) {
      expect(text).toContain(`\${env:${ref}}`);
    }
    for (const canary of [PIN, AWS_SECRET, AZURE_SECRET, 'gcp-private-key-canary-e2e-0c3d', 'redacted']) expect(text).not.toContain(canary);
    const filled = { DEFAULT_HSM_SIGNING_PIN: 'x', DEFAULT_AWS_SIGNING_SECRET_KEY: 'x', DEFAULT_AZURE_SIGNING_CLIENT_SECRET: 'x', DEFAULT_GCP_SIGNING_CREDENTIALS: 'x' };
    await expectNoChanges(out, filled);
  }, SLOW);
});

describe('check', () => {
  let aws: FakeAwsKms;
  let vault: FakeKeyVault;
  let gcp: FakeGcpKms;
  let checkEnv: Record<string, string>;

  beforeAll(async () => {
    await hsm.createEcKey({ label: 'check-ec' });
    aws = await startFakeAwsKms({ credentials: { [ACCESS_KEY]: AWS_SECRET } });
    aws.seedKey({ keySpec: 'ECC_NIST_P256', alias: 'alias/aws-signing' });
    vault = await startFakeKeyVault({ clients: { [AZURE_CLIENT]: AZURE_SECRET } });
    vault.seedKey({ name: 'signing' });
    gcp = await startFakeGcpKms();
    gcp.seedKey({ keyRing: gcp.addKeyRing('p1', 'us-east1', 'ring'), id: 'signing', algorithm: 'EC_SIGN_P256_SHA256' });
    const caFile = path.join(tmpdir(), `lockstep-e2e-mk-ca-${process.pid}.pem`);
    await writeFile(caFile, vault.caCert);
    checkEnv = {
      SOFTHSM2_CONF: process.env.SOFTHSM2_CONF!,
      LOCKSTEP_KMS_LIBRARIES: `softhsm=${hsm.library}`,
      LOCKSTEP_PROVB_AUTHORITY_HOST: vault.authorityHost,
      LOCKSTEP_PROVB_CA_FILE: caFile,
      LOCKSTEP_PROVC_KMS_ENDPOINT: gcp.endpoint,
    };
  });
  afterAll(async () => {
    await Promise.all([aws?.stop(), vault?.stop(), gcp?.stop()]);
  });

  async function checkManifests(over: { hsmKey?: string; gcpKey?: string } = {}): Promise<string> {
    const hsmKey = (over.hsmKey ?? HSM_KEY({ name: 'check-ec' })).replace('  allow_generate_key: "true"\n', '');
    const awsKey = AWS_KEY().replace('http://127.0.0.1:9/kms', aws.endpoint);
    const azureKey = AZURE_KEY.replace('key_bits: 2048', `key_bits: 2048\n  resource: ${vault.resource}`);
    return manifests({ 'hsm.yaml': hsmKey, 'aws.yaml': awsKey, 'az.yaml': azureKey, 'gcp.yaml': over.gcpKey ?? GCP_KEY, 'sa.json': JSON.stringify(gcp.addServiceAccount()) });
  }

  it('probes SoftHSM and the three cloud fakes directly, without the server', async () => {
    const m = await checkManifests();
    const before = server.stats().requests;
    const r = await cli(['check', m], checkEnv);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    // One request only: whether the server serves managed keys at all (kinds/feature.ts), not the keys.
    expect(server.stats().requests).toBe(before + 1);
    for (const subject of [
      'default:sys/managed-keys/pkcs11/check-ec managed key check-ec: ',
      'default:sys/managed-keys/provAkms/aws-signing managed key aws-signing: key alias/aws-signing',
      'default:sys/managed-keys/provBkeyvault/azure-signing managed key azure-signing: key signing',
      'default:sys/managed-keys/provCckms/gcp-signing managed key gcp-signing: crypto key projects/p1/locations/us-east1/keyRings/ring/cryptoKeys/signing',
    ]) expect(r.stdout).toContain(subject);
    expect(r.stdout).toMatch(/Check passed: \d+ findings\./);
    // lockstep's stderr carries its own messages, not its SDKs' notices to their maintainers.
    expect(r.stderr).not.toContain('Warning:');
    const json = JSON.parse((await cli(['check', m, '--format', 'json'], checkEnv)).stdout);
    expect(json.findings.every((f: { ok: boolean }) => f.ok)).toBe(true);
  }, SLOW);

  it('fails on a missing HSM key, a wrong PIN and a missing cloud key, naming each', async () => {
    const m = await checkManifests({ hsmKey: HSM_KEY({ name: 'no-such-key', pin: 'WRONG_PIN' }), gcpKey: GCP_KEY.replace('crypto_key: signing', 'crypto_key: missing') });
    const r = await cli(['check', m], { ...checkEnv, WRONG_PIN });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/FAIL default:sys\/managed-keys\/pkcs11\/no-such-key .*CKR_PIN_INCORRECT/);
    expect(r.stdout).toMatch(/FAIL default:sys\/managed-keys\/provCckms\/gcp-signing /);
    expect(r.stdout).toMatch(/Check failed: 2 of \d+ findings failed\./);
    expect(r.stdout + r.stderr).not.toContain(WRONG_PIN);
  }, SLOW);
});

describe('secrets never appear', () => {
  it('pin, secret_key, client_secret and credentials stay out of stdout, stderr, every format, saved plans and errors', async () => {
    const m = await manifests({ 'hsm.yaml': HSM_KEY(), 'aws.yaml': AWS_KEY(), 'az.yaml': AZURE_KEY, 'gcp.yaml': GCP_KEY, 'sa.json': GCP_CREDENTIALS });
    const { record, add, expectNoCanaries } = outputRecorder();
    record(await cli(['validate', m]));
    for (const format of ['text', 'json', 'markdown']) record(await cli(['plan', m, '--format', format]));
    const planFile = path.join(dir, 'mk.plan');
    record(await cli(['plan', m, '--out', planFile]));
    add(await readFile(planFile, 'utf8'));
    // The server echoes what it was sent in its errors (a credentials file's private key even
    // on its own, and other keys' secrets too): lockstep must scrub them.
    const all4 = `${PIN} ${AWS_SECRET} ${AZURE_SECRET} ${GCP_CREDENTIALS}`;
    server.injectFault({ method: 'POST', path: /provCckms/, status: 400, times: 10, errors: [`bad gcp-private-key-canary-e2e-0c3d ${all4}`] });
    server.injectFault({ method: 'POST', path: /^sys\/managed-keys\//, status: 400, times: 100, errors: [`bad ${all4}`] });
    const failed = record(await cli(['apply', m, '--auto-approve']));
    expect(failed.code).toBe(1);
    expect(failed.stdout).toContain('bad (sensitive)');
    server.clearFaults();
    record(await cli(['apply', m, '--auto-approve']));
    record(await cli(['plan', m, '--sync-secrets', '--format', 'json']));
    record(await cli(['apply', planFile]));
    // A wrong pin: the verify failure is an error message too.
    record(await cli(['apply', await manifests({ 'hsm.yaml': HSM_KEY({ pin: 'WRONG_PIN' }) }, 'wrong'), '--auto-approve', '--sync-secrets'], { WRONG_PIN }));
    record(await cli(['export']));
    // check talks to the backends itself (the cloud ones here are unreachable: their errors count too).
    const probed = await manifests({ 'hsm.yaml': HSM_KEY({ pin: 'WRONG_PIN' }), 'aws.yaml': AWS_KEY() }, 'probed');
    record(await cli(['check', probed], { WRONG_PIN, SOFTHSM2_CONF: process.env.SOFTHSM2_CONF!, LOCKSTEP_KMS_LIBRARIES: `softhsm=${hsm.library}` }));
    // Plaintext secrets are refused without quoting them.
    record(await cli(['validate', await manifests({ 'p.yaml': HSM_KEY().replace('${env:HSM_PIN}', PIN) }, 'plain')]));
    expectNoCanaries([PIN, WRONG_PIN, AWS_SECRET, AZURE_SECRET, 'gcp-private-key-canary-e2e-0c3d', ROOT_TOKEN], 1000);
  }, SLOW);
});
