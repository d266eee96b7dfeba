import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { expectNoChanges } from '../support/e2e.js';
import { boundLdapAuth, useLdapE2e } from '../support/ldap-e2e.js';
import { ldapSettingsFor, USERS } from '../support/slapd.js';

/**
 * #14.3, the write-only rule of the contract (section 5): a write-only field the manifest does
 * not set is sent empty when its object is written, and the plan shows it as cleared, unless the
 * document names it in managedElsewhere. Proved against the test directory: a bindpass left on
 * the server after a move to discoverdn with an anonymous bind makes logins fail.
 */
const ldap = useLdapE2e();
const { cli } = ldap;
let dir: string;

async function manifest(text: string): Promise<string> {
  await writeFile(path.join(dir, 'ldap.yaml'), text);
  return dir;
}

async function login(): Promise<number> {
  return (await ldap.cluster.raw('POST', 'auth/ldap/login/alice', { password: USERS.alice.password })).status;
}

function withBind(): string {
  return `${boundLdapAuth(ldap.slapd)}  userattr: uid
`;
}

/** The same directory, found with an anonymous bind: no binddn, no bindpass. */
function anonymous(extra = ''): string {
  const s = ldapSettingsFor(ldap.slapd);
  return `apiVersion: lockstep/v1
kind: LdapAuth
${extra}config:
  url: ${s.url}
  discoverdn: true
  userdn: ${s.userdn}
  userattr: uid
`;
}

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'lockstep-write-only-'));
  await ldap.cluster.raw('DELETE', 'sys/auth/ldap');
  return () => rm(dir, { recursive: true, force: true });
});

describe('#14.3 write-only fields the manifest does not set', () => {
  it('the premise: a config write that leaves bindpass out keeps it, and logins then fail', async () => {
    const s = ldapSettingsFor(ldap.slapd);
    await ldap.cluster.raw('POST', 'sys/auth/ldap', { type: 'ldap' });
    await ldap.cluster.raw('POST', 'auth/ldap/config', { url: s.url, binddn: s.binddn, bindpass: s.bindpass, userdn: s.userdn, userattr: 'uid' });
    expect(await login()).toBe(200);
    await ldap.cluster.raw('POST', 'auth/ldap/config', { binddn: '', discoverdn: true });
    expect(await login()).toBe(400);
  });

  it('a dropped bindpass is shown as cleared and sent empty; logins work; the next plan is empty', async () => {
    const applied = await cli(['apply', await manifest(withBind()), '--auto-approve']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(await login()).toBe(200);

    const plan = await cli(['plan', await manifest(anonymous())]);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain('  ~ default:auth/ldap/config');
    expect(plan.stdout).toContain('      bindpass: (cleared, write-only)');
    expect(plan.stdout).toContain('      client_tls_key: (cleared, write-only)');
    const json = JSON.parse((await cli(['plan', dir, '--format', 'json'])).stdout);
    expect(json.changes.find((c: { address: string }) => c.address === 'default:auth/ldap/config').clearedFields).toEqual([
      'bindpass',
      'client_tls_cert',
      'client_tls_key',
    ]);

    expect((await cli(['apply', dir, '--auto-approve'])).code).toBe(0);
    expect(await login()).toBe(200);
    // Idempotent: the server never says whether it holds a bindpass, so a cleared field is no
    // reason to write by itself; it goes with every write of the config, and the plan says so.
    await expectNoChanges(cli, dir);
    const again = await cli(['plan', dir]);
    expect(again.stdout).toContain('note: write-only fields no manifest sets, sent empty (cleared) whenever their object is written: 1 object (bindpass, client_tls_cert, client_tls_key)');
  });

  it('a bindpass dropped with nothing else changed is cleared by apply --sync-secrets', async () => {
    await cli(['apply', await manifest(withBind()), '--auto-approve']);
    // The operator moved to an anonymous bind behind lockstep's back, leaving the old bindpass.
    await ldap.cluster.raw('POST', 'auth/ldap/config', { binddn: '', discoverdn: true });
    expect(await login()).toBe(400);
    const m = await manifest(anonymous());
    await expectNoChanges(cli, m);
    const synced = await cli(['apply', m, '--auto-approve', '--sync-secrets']);
    expect(synced.code, synced.stderr).toBe(0);
    expect(synced.stdout).toContain('bindpass: (cleared, write-only)');
    expect(await login()).toBe(200);
  });

  it('managedElsewhere: a bindpass set by someone else stays through lockstep writes', async () => {
    const s = ldapSettingsFor(ldap.slapd);
    const elsewhere = `apiVersion: lockstep/v1
kind: LdapAuth
managedElsewhere: [bindpass]
config:
  url: ${s.url}
  binddn: ${s.binddn}
  userdn: ${s.userdn}
  userattr: uid
  token_ttl: 1h
`;
    expect((await cli(['apply', await manifest(elsewhere), '--auto-approve'])).code).toBe(0);
    await ldap.cluster.raw('POST', 'auth/ldap/config', { bindpass: s.bindpass });
    expect(await login()).toBe(200);
    const changed = await manifest(elsewhere.replace('token_ttl: 1h', 'token_ttl: 2h'));
    const plan = await cli(['plan', changed]);
    expect(plan.stdout).not.toContain('bindpass');
    expect(plan.stdout).toContain('client_tls_cert: (cleared, write-only)');
    expect((await cli(['apply', changed, '--auto-approve', '--sync-secrets'])).code).toBe(0);
    expect(await login()).toBe(200);
  });

  it('managedElsewhere names write-only fields only, and not one the config sets', async () => {
    const notWriteOnly = await cli(['validate', await manifest(withBind().replace('config:', 'managedElsewhere: [url]\nconfig:'))]);
    expect(notWriteOnly.code).toBe(1);
    expect(notWriteOnly.stderr).toContain('ldap.yaml:3:20: error: managedElsewhere.0: must be one of "bindpass", "client_tls_cert", "client_tls_key"');
    const both = await cli(['validate', await manifest(withBind().replace('config:', 'managedElsewhere: [bindpass]\nconfig:'))]);
    expect(both.code).toBe(1);
    expect(both.stderr).toContain('ldap.yaml:3:20: error: managedElsewhere[0]: bindpass is also set at config.bindpass');
    const noConfig = await cli(['validate', await manifest('apiVersion: lockstep/v1\nkind: LdapAuth\nmanagedElsewhere: [bindpass]\n')]);
    expect(noConfig.stderr).toContain("ldap.yaml:3:1: error: managedElsewhere: is about the mount's config");
  });

  it('a managed key: a dropped secret the server holds is a change, cleared on apply', async () => {
    const key = `apiVersion: lockstep/v1
kind: ManagedKey
name: aws-signing
type: provAkms
config:
  key_type: ECDSA
  curve: P256
  kms_key: alias/signing
`;
    const body = { key_type: 'ECDSA', curve: 'P256', kms_key: 'alias/signing', access_key: 'AKIAEXAMPLE', secret_key: 'operator-secret-e2e-1' };
    expect((await ldap.cluster.raw('POST', 'sys/managed-keys/provAkms/aws-signing', body)).status).toBeLessThan(300);
    const m = await manifest(key);
    const plan = await cli(['plan', m]);
    expect(plan.stdout).toContain('  ~ default:sys/managed-keys/provAkms/aws-signing');
    expect(plan.stdout).toContain('      secret_key: (cleared, write-only)');
    expect((await cli(['apply', m, '--auto-approve'])).code).toBe(0);
    const read = (await ldap.cluster.raw('GET', 'sys/managed-keys/provAkms/aws-signing')).body as { data: Record<string, unknown> };
    expect(read.data).not.toHaveProperty('secret_key');
    await expectNoChanges(cli, m);

    await ldap.cluster.raw('DELETE', 'sys/managed-keys/provAkms/aws-signing');
  });

  it('a snapshot policy: a saved plan is stale when a credential appears on the server, no compared field moving', async () => {
    const policy = `apiVersion: lockstep/v1
kind: SnapshotPolicy
name: gcs
config:
  interval: 1h
  storage_type: provC-gcs
  path_prefix: snaps/
  provC_gcs_bucket: bucket
`;
    const m = await manifest(policy);
    expect((await cli(['apply', m, '--auto-approve'])).code).toBe(0);
    await expectNoChanges(cli, m);
    const saved = path.join(dir, 'plan.json');
    expect((await cli(['plan', m, '--out', saved, '--sync-secrets'])).code).toBe(0);
    const key = JSON.stringify({ type: 'service_account', client_email: 'sa@p.iam.example.com', private_key: 'not-a-real-key-e2e' });
    const set = await ldap.cluster.raw('POST', 'sys/storage/raft/snapshot-auto/config/gcs', {
      interval: 3600, storage_type: 'provC-gcs', path_prefix: 'snaps/', provC_gcs_bucket: 'bucket', provC_service_account_key: key,
    });
    expect(set.status).toBeLessThan(300);
    const plan = await cli(['plan', m]);
    expect(plan.stdout).toContain('      provC_service_account_key: (cleared, write-only)');
    const stale = await cli(['apply', saved, '--auto-approve']);
    expect(stale.code, stale.stdout + stale.stderr).toBe(1);
    expect(stale.stderr).toContain('sys/storage/raft/snapshot-auto/config/gcs');
    await ldap.cluster.raw('DELETE', 'sys/storage/raft/snapshot-auto/config/gcs');
  });
});
