import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../support/cli.js';
import { writeManifestFolder } from '../support/e2e.js';
import { useForFile } from '../support/file-scoped.js';
import { startRealServer, useRealServer } from '../support/real-server.js';

/**
 * #22.5: ManagedKey, SnapshotPolicy and DrReplication are Vault Enterprise features; the real
 * server here (OpenBao) has none of them and answers their paths 404 "unsupported path"
 * (`GET sys/managed-keys/pkcs11`, `LIST sys/storage/raft/snapshot-auto/config`,
 * `GET sys/replication/dr/status`: pinned below). Through the CLI, each such document is one
 * located error naming the cluster and the version sys/health reports, with no stack trace and
 * nothing written; the LDAP documents of the same run still plan.
 */
const server = useRealServer();
/** A second real server: the DR secondary of the set. */
const second = useForFile(() => startRealServer(), (s) => s.stop(), 60_000);

const AWS_SECRET = 'canary-enterprise-kinds-aws-6b1e';
const HSM_PIN = 'canary-enterprise-kinds-pin-93a0';
const SHARE = 'canary0e1f2a3b4c5d6e7f8091a2b3c4d5e6f7';
const BINDPASS = 'canary-enterprise-kinds-bind-52cd';

const LDAP = `apiVersion: lockstep/v1
kind: LdapAuth
config:
  url: ldap://ldap.example.com
  binddn: cn=svc,dc=example,dc=com
  bindpass: \${env:LDAP_BINDPASS}
  userdn: ou=people,dc=example,dc=com
groups:
  admins: { policies: [admin] }
`;

const KEYS = `apiVersion: lockstep/v1
kind: ManagedKey
name: aws-signing
type: provAkms
config:
  key_type: ECDSA
  curve: P256
  kms_key: alias/signing
  access_key: AKIAEXAMPLE
  secret_key: \${env:AWS_SECRET}
---
apiVersion: lockstep/v1
kind: ManagedKey
name: hsm-signing
type: pkcs11
config:
  library: softhsm
  token_label: lockstep
  key_label: hsm-signing
  mechanism: "0x1041"
  pin: \${env:HSM_PIN}
  allow_generate_key: true
  curve: P256
`;

const SNAPSHOTS = `apiVersion: lockstep/v1
kind: SnapshotPolicy
name: hourly
config:
  interval: 1h
  retain: 24
  storage_type: local
  path_prefix: /var/snapshots
  local_max_space: 10GiB
`;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'lockstep-enterprise-kinds-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function cli(args: string[], env: Record<string, string> = server().env): Promise<CliResult> {
  return runCli(args, { env: { ...env, LDAP_BINDPASS: BINDPASS, AWS_SECRET, HSM_PIN, DR_KEY_SHARE: SHARE } });
}

/** The lines of `stderr` that are located errors. */
function locatedErrors(stderr: string): string[] {
  return stderr.split('\n').filter((line) => /^\S+:\d+:\d+: error: /.test(line));
}

/** No stack frame, no secret of the run in any output. */
function expectClean(run: CliResult): void {
  const all = run.stdout + run.stderr;
  expect(all).not.toMatch(/^\s+at /m);
  for (const secret of [AWS_SECRET, HSM_PIN, SHARE, BINDPASS, server().token]) expect(all).not.toContain(secret);
}

const UNSUPPORTED_PATH = { status: 404, body: { errors: ['1 error occurred:\n\t* unsupported path\n\n'] } };

describe('#22.5 Enterprise-only kinds against a server without them', () => {
  it('the real server answers their paths 404 "unsupported path"', async () => {
    const s = server();
    expect(await s.raw('GET', 'sys/managed-keys/pkcs11')).toMatchObject(UNSUPPORTED_PATH);
    expect(await s.raw('LIST', 'sys/managed-keys/provAkms')).toMatchObject(UNSUPPORTED_PATH);
    expect(await s.raw('LIST', 'sys/storage/raft/snapshot-auto/config')).toMatchObject(UNSUPPORTED_PATH);
    expect(await s.raw('GET', 'sys/storage/raft/snapshot-auto/config/hourly')).toMatchObject(UNSUPPORTED_PATH);
    expect(await s.raw('GET', 'sys/replication/dr/status')).toMatchObject(UNSUPPORTED_PATH);
  });

  it('plan: one located error per document, naming cluster and version; the LDAP document still plans; exit 1, no saved plan', async () => {
    const folder = await writeManifestFolder(path.join(dir, 'plan'), { 'ldap.yaml': LDAP, 'keys.yaml': KEYS, 'snapshots.yaml': SNAPSHOTS });
    const out = path.join(dir, 'plan.json');
    const plan = await cli(['plan', folder, '--out', out]);
    expect(plan.code, plan.stderr).toBe(1);
    expect(plan.stdout).toContain('+ default:sys/auth/ldap');
    expect(plan.stdout).toContain('+ default:auth/ldap/groups/admins');
    expect(plan.stdout).not.toContain('managed-keys');
    expect(plan.stdout).not.toContain('snapshot-auto');
    const version = (await server().raw('GET', 'sys/health')).body as { version: string };
    const where = `cluster "default" (version ${version.version} in sys/health)`;
    expect(locatedErrors(plan.stderr)).toEqual([
      `${path.join(folder, 'keys.yaml')}:2:1: error: ${where} does not serve managed keys: LIST sys/managed-keys/pkcs11 answered 404 "unsupported path"; this ManagedKey is neither read nor written there`,
      `${path.join(folder, 'keys.yaml')}:13:1: error: ${where} does not serve managed keys: LIST sys/managed-keys/pkcs11 answered 404 "unsupported path"; this ManagedKey is neither read nor written there`,
      `${path.join(folder, 'snapshots.yaml')}:2:1: error: ${where} does not serve automated Raft snapshots: LIST sys/storage/raft/snapshot-auto/config answered 404 "unsupported path"; this SnapshotPolicy is neither read nor written there`,
    ]);
    expect(plan.stderr).toContain('error: the plan is refused (3 errors in the manifests, above): it was not saved');
    expect(existsSync(out)).toBe(false);
    expectClean(plan);
  });

  it('apply: the same errors, and nothing written, the LDAP document included', async () => {
    const folder = await writeManifestFolder(path.join(dir, 'apply'), { 'ldap.yaml': LDAP, 'keys.yaml': KEYS, 'snapshots.yaml': SNAPSHOTS });
    const applied = await cli(['apply', folder, '--auto-approve']);
    expect(applied.code, applied.stderr).toBe(1);
    expect(locatedErrors(applied.stderr)).toHaveLength(3);
    expect(applied.stderr).toContain('error: the plan is refused (3 errors in the manifests, above): nothing was changed');
    expectClean(applied);
    const auths = (await server().raw('GET', 'sys/auth')).body as { data: Record<string, unknown> };
    expect(Object.keys(auths.data)).toEqual(['token/']);

    // Without them, the LDAP document applies, and the next plan is empty.
    const ldapOnly = await writeManifestFolder(path.join(dir, 'ldap-only'), { 'ldap.yaml': LDAP });
    expect((await cli(['apply', ldapOnly, '--auto-approve'])).code).toBe(0);
    const next = await cli(['plan', ldapOnly, '--detailed-exitcode']);
    expect(next.code, next.stdout).toBe(0);
  });

  it('check: the same located errors, exit 1', async () => {
    const folder = await writeManifestFolder(path.join(dir, 'check'), { 'keys.yaml': KEYS, 'snapshots.yaml': SNAPSHOTS });
    const checked = await cli(['check', folder]);
    expect(checked.code, checked.stdout + checked.stderr).toBe(1);
    expect(locatedErrors(checked.stderr)).toHaveLength(3);
    expect(checked.stderr).toContain('does not serve managed keys');
    expectClean(checked);
  });

  it('export: what the server serves is exported; each kind it does not serve is one warning', async () => {
    const ldapOnly = await writeManifestFolder(path.join(dir, 'export-ldap'), { 'ldap.yaml': LDAP });
    expect((await cli(['apply', ldapOnly, '--auto-approve'])).code).toBe(0);
    const exported = await cli(['export']);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).toContain('kind: LdapAuth');
    const warnings = exported.stderr.split('\n').filter((line) => line.startsWith('warning: '));
    const version = ((await server().raw('GET', 'sys/health')).body as { version: string }).version;
    expect(warnings).toEqual(
      ['automated Raft snapshots', 'managed keys', 'DR replication'].map((feature) => `warning: cluster "default" (version ${version} in sys/health) does not serve ${feature}: none exported`),
    );
    expectClean(exported);
  });

  it('DrReplication across two real servers: one located error for the set; the LDAP document of the same run plans', async () => {
    const [east, west] = [server(), second()];
    const folder = await writeManifestFolder(path.join(dir, 'dr'), {
      'clusters.yaml': `apiVersion: lockstep/v1
kind: Cluster
name: east
address: ${east.addr}/v1
token: \${env:EAST_TOKEN}
---
apiVersion: lockstep/v1
kind: Cluster
name: west
address: ${west.addr}/v1
token: \${env:WEST_TOKEN}
`,
      'replication.yaml': `apiVersion: lockstep/v1
kind: DrReplication
name: prod
primary: east
secondaries: [west]
keyShares:
  - \${env:DR_KEY_SHARE}
`,
      'ldap.yaml': `cluster: west\n${LDAP}`,
    });
    const plan = await cli(['plan', folder], { EAST_TOKEN: east.token, WEST_TOKEN: west.token });
    expect(plan.code, plan.stderr).toBe(1);
    expect(plan.stdout).toContain('+ west:auth/ldap/groups/admins');
    const version = ((await east.raw('GET', 'sys/health')).body as { version: string }).version;
    expect(locatedErrors(plan.stderr)).toEqual([
      `${path.join(folder, 'replication.yaml')}:2:1: error: cluster "east" (version ${version} in sys/health) and cluster "west" (version ${version} in sys/health) do not serve DR replication: GET sys/replication/dr/status answered 404 "unsupported path"; this DrReplication is neither read nor written there`,
    ]);
    expect(plan.stdout + plan.stderr).not.toMatch(/^\s+at /m);
    for (const secret of [SHARE, east.token, west.token]) expect(plan.stdout + plan.stderr).not.toContain(secret);
  });
});
