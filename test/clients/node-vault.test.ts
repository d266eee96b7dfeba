import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import nodeVault from 'node-vault';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { expectNoChanges } from '../support/e2e.js';
import { boundLdapAuth, useLdapE2e } from '../support/ldap-e2e.js';
import { startTestServer, type TestCluster } from '../support/server.js';
import { ldapSettingsFor, USERS } from '../support/slapd.js';

/**
 * #14.4: node-vault, a real client nobody here wrote (a devDependency), against `lockstep serve`
 * over HTTP: every endpoint family it has for what lockstep manages (generic write, read, list,
 * delete; sys/auth; LDAP login against the test directory; health, seal status, init; the token
 * self-service calls, its token-renewal loop on a login token), and interop both ways: what
 * node-vault writes as an operator would, a naturally written manifest plans as no changes;
 * what lockstep applies, node-vault reads in the service's shapes.
 */
const AWS_SECRET = 'canary-node-vault-aws-secret-5d21';

const ldap = useLdapE2e({ AWS_SECRET });
const { cli } = ldap;
let dir: string;

function client(c: TestCluster, token: string | undefined = c.token): nodeVault.client {
  return nodeVault({ endpoint: new URL(c.baseUrl).origin, token });
}

function manifest(): string {
  return `${boundLdapAuth(ldap.slapd)}  groupdn: ${ldapSettingsFor(ldap.slapd).groupdn}
  userattr: uid
  token_ttl: 1h
  token_max_ttl: 4h
  token_policies: Dev, ops
groups:
  admins: { policies: [admin, audit] }
  devs: { policies: dev }
users:
  alice: { policies: oncall, groups: [admins, devs] }
---
apiVersion: lockstep/v1
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
kind: SnapshotPolicy
name: hourly
config:
  interval: 1h
  retain: 24
  storage_type: local
  path_prefix: /var/snapshots
  local_max_space: 10GiB
`;
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'lockstep-node-vault-'));
  await writeFile(path.join(dir, 'all.yaml'), manifest());
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('#14.4 node-vault against serve', () => {
  it('what node-vault writes as an operator would, a natural manifest plans as no changes', async () => {
    const vault = client(ldap.cluster);
    const s = ldapSettingsFor(ldap.slapd);
    await vault.write('sys/auth/ldap', { type: 'ldap' });
    await vault.write('auth/ldap/config', {
      url: s.url,
      binddn: s.binddn,
      bindpass: s.bindpass,
      userdn: s.userdn,
      groupdn: s.groupdn,
      userattr: 'uid',
      token_ttl: '1h',
      token_max_ttl: 14400,
      token_policies: 'Dev, ops',
    });
    await vault.write('auth/ldap/groups/admins', { policies: 'admin,audit' });
    await vault.write('auth/ldap/groups/devs', { policies: ['dev'] });
    await vault.write('auth/ldap/users/alice', { policies: 'oncall', groups: 'admins,devs' });
    await vault.write('sys/managed-keys/provAkms/aws-signing', {
      key_type: 'ECDSA',
      curve: 'P256',
      kms_key: 'alias/signing',
      access_key: 'AKIAEXAMPLE',
      secret_key: AWS_SECRET,
    });
    await vault.write('sys/storage/raft/snapshot-auto/config/hourly', {
      interval: '1h',
      retain: 24,
      storage_type: 'local',
      path_prefix: '/var/snapshots',
      local_max_space: 10737418240,
    });
    await expectNoChanges(cli, dir);

    // A change made with node-vault shows as drift; a delete, as a create.
    await vault.write('auth/ldap/groups/devs', { policies: 'dev,extra' });
    await vault.delete('auth/ldap/users/alice');
    const plan = await cli(['plan', dir]);
    expect(plan.stdout).toContain('  ~ default:auth/ldap/groups/devs');
    expect(plan.stdout).toContain('  + default:auth/ldap/users/alice');
    expect(plan.stdout + plan.stderr).not.toContain(AWS_SECRET);
  });

  it("reads what lockstep applied in the service's shapes: generic read, list, delete; sys/auth; health, seal status, init", async () => {
    const other = await startTestServer();
    try {
      const applied = await cli(['apply', dir, '--auto-approve'], other);
      expect(applied.code, applied.stdout + applied.stderr).toBe(0);
      const vault = client(other);

      const config = (await vault.read('auth/ldap/config')).data;
      expect(config).toMatchObject({ token_policies: ['Dev', 'ops'], token_ttl: 3600, token_max_ttl: 14400, userattr: 'uid', use_token_groups: false, userfilter: '({{.UserAttr}}={{.Username}})' });
      expect(config).not.toHaveProperty('bindpass');
      expect((await vault.list('auth/ldap/groups')).data.keys).toEqual(['admins', 'devs']);
      expect((await vault.read('auth/ldap/groups/admins')).data).toEqual({ policies: ['admin', 'audit'] });
      expect((await vault.read('auth/ldap/users/alice')).data).toEqual({ groups: 'admins,devs', policies: ['oncall'] });
      const key = (await vault.read('sys/managed-keys/provAkms/aws-signing')).data;
      expect(key).toMatchObject({ key_type: 'ECDSA', curve: 'P256', kms_key: 'alias/signing', secret_key: 'redacted' });
      expect((await vault.list('sys/managed-keys/provAkms')).data.keys).toEqual(['aws-signing']);
      expect((await vault.read('sys/storage/raft/snapshot-auto/config/hourly')).data).toMatchObject({ interval: 3600, retain: 24, local_max_space: 10737418240 });

      const auths = (await vault.auths()).data;
      expect(Object.keys(auths).sort()).toEqual(['ldap/', 'token/']);
      expect(auths['ldap/']).toMatchObject({ type: 'ldap', running_plugin_version: expect.stringMatching(/^v.*\+builtin\.vault$/) });
      expect(await vault.health()).toMatchObject({ initialized: true, sealed: false, standby: false, version: expect.stringMatching(/\+ent$/) });
      expect(await vault.status()).toMatchObject({ type: 'shamir', initialized: true, sealed: false });
      expect(await vault.initialized()).toEqual({ initialized: true });

      // A delete through node-vault: the next plan puts it back.
      await vault.delete('auth/ldap/groups/devs');
      await expect(vault.read('auth/ldap/groups/devs')).rejects.toMatchObject({ response: { statusCode: 404 } });
      const plan = await cli(['plan', dir], other);
      expect(plan.stdout).toContain('  + default:auth/ldap/groups/devs');
    } finally {
      await other.server.close();
    }
  });

  it('logs in with ldapLogin against the directory; the login token looks itself up, renews itself, and its renewal loop runs', async () => {
    const other = await startTestServer();
    try {
      expect((await cli(['apply', dir, '--auto-approve'], other)).code).toBe(0);
      const vault = client(other, undefined);
      const login = await vault.ldapLogin({ username: 'alice', password: USERS.alice.password });
      expect(login.auth).toMatchObject({
        policies: ['admin', 'audit', 'default', 'dev', 'oncall', 'ops'],
        token_policies: ['admin', 'audit', 'default', 'dev', 'oncall', 'ops'],
        metadata: { username: 'alice' },
        lease_duration: 3600,
        renewable: true,
      });
      // ldapLogin is a token source: the client now uses the login token.
      expect(vault.token).toBe(login.auth.client_token);

      const self = (await vault.tokenLookupSelf()).data;
      expect(self).toMatchObject({ renewable: true, policies: ['admin', 'audit', 'default', 'dev', 'oncall', 'ops'] });
      expect(self.ttl).toBeGreaterThan(3500);
      // The renewal logs in again and compares policies as written (path_login.go pathLoginRenew,
      // policyutil.EquivalentPolicies): token_policies `Dev` never equals the token's `dev`.
      await expect(vault.tokenRenewSelf({ increment: '2h' })).rejects.toMatchObject({ response: { statusCode: 500, body: { errors: [expect.stringContaining('policies have changed, not renewing')] } } });
      expect((await other.raw('POST', 'auth/ldap/config', { token_policies: 'dev, ops' })).status).toBe(204);
      expect((await vault.tokenRenewSelf({ increment: '2h' })).auth).toMatchObject({ client_token: login.auth.client_token, renewable: true });

      // node-vault's renewal loop: looks the token up, renews at 80% of its TTL (time is faked).
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      const renewed = new Promise<any>((resolve, reject) => {
        vault.on('token:renewed', resolve);
        vault.on('token:error:renew', reject);
      });
      await vault.startTokenRenewal();
      // Only node-vault's own timer is run on fake time: the renewal then logs in again, and the
      // LDAP client's timeouts (in this process, serve being in-process) must run on real time.
      await vi.advanceTimersToNextTimerAsync();
      vi.useRealTimers();
      expect((await renewed).auth).toMatchObject({ client_token: login.auth.client_token, renewable: true });
      vault.stopTokenRenewal();

      await expect(vault.ldapLogin({ username: 'alice', password: 'wrong' })).rejects.toMatchObject({ response: { statusCode: 400 } });
    } finally {
      await other.server.close();
    }
  });

  it('token endpoints: create, lookup, lookup-accessor, revoke-self', async () => {
    // tokenCreate is a token source in node-vault: the creating client then uses the new token.
    const created = await client(ldap.cluster).tokenCreate({ policies: ['default'], ttl: '30m' });
    const root = client(ldap.cluster);
    const child = client(ldap.cluster, created.auth.client_token);
    expect((await root.tokenLookup({ token: created.auth.client_token })).data).toMatchObject({ policies: ['default'], creation_ttl: 1800 });
    expect((await root.tokenLookupAccessor({ accessor: created.auth.accessor })).data).toMatchObject({ policies: ['default'], id: '' });
    expect((await child.tokenLookupSelf()).data.policies).toEqual(['default']);
    await child.tokenRevokeSelf();
    await expect(child.tokenLookupSelf()).rejects.toMatchObject({ response: { statusCode: 403 } });
  });
});
