import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../support/cli.js';
import { expectNoChanges, writeManifestFolder } from '../support/e2e.js';
import { useRealServer } from '../support/real-server.js';

// Issue 28 against the real server (OpenBao 2.6.2): the fields it has are managed and exported,
// those Vault added after OpenBao forked (enable_samaccountname_login, alias_metadata, the
// root-credential rotation) are neither sent nor compared there, and its own
// token_strictly_bind_ip is not managed: a config terraform-provider-vault wrote is taken over
// with an empty plan.
const server = useRealServer();

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'lockstep-real-fields-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const cli = (args: string[], env: Record<string, string> = {}): Promise<CliResult> => runCli(args, { env: { ...server().env, ...env } });

describe('every LDAP field, against the real server', () => {
  it('manages the fields it has and warns about those it lacks; the plan after apply is empty', async () => {
    const m = await writeManifestFolder(path.join(dir, 'fields'), {
      'ldap.yaml': `apiVersion: lockstep/v1
kind: LdapAuth
mount: ad
config:
  url: ldaps://dc1.example.com
  userattr: sAMAccountName
  use_token_groups: true
  max_page_size: -1
  enable_samaccountname_login: true
  rotation_period: 24h
`,
    });
    const plan = await cli(['plan', m]);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain('use_token_groups: false -> true');
    expect(plan.stdout).toContain('max_page_size: 0 -> -1');
    expect(plan.stdout + plan.stderr).toMatch(/the server \(OpenBao 2\.\d+\.\d+\) has no enable_samaccountname_login \(Vault 1\.19\.0 and later; not in OpenBao\), rotation_period/);
    const applied = await cli(['apply', m, '--auto-approve']);
    expect(applied.code, applied.stderr).toBe(0);
    const read = await server().raw('GET', 'auth/ad/config');
    expect(read.body).toMatchObject({ data: { use_token_groups: true, max_page_size: -1, userattr: 'samaccountname' } });
    expect(JSON.stringify(read.body)).not.toContain('enable_samaccountname_login');
    await expectNoChanges(cli, m);
  });

  it('takes over a config terraform-provider-vault wrote (its request body to a 2.x server without Enterprise), token_strictly_bind_ip left as it is', async () => {
    expect((await server().raw('POST', 'sys/auth/tf-ldap', { type: 'ldap' })).status).toBe(204);
    // resource_ldap_auth_backend.go ldapAuthBackendUpdate: the set strings, every boolean, max_page_size
    // (its schema default -1), the token fields that changed (token_type "default"); no rotation
    // fields (Vault Enterprise 1.19+ only).
    const terraformBody = {
      url: 'ldaps://dc1.example.com',
      userdn: 'OU=Users,DC=example,DC=com',
      userattr: 'sAMAccountName',
      upndomain: 'EXAMPLE.COM',
      groupdn: 'OU=Groups,DC=example,DC=com',
      groupfilter: '(&(objectClass=group)(member:1.2.840.113556.1.4.1941:={{.UserDN}}))',
      binddn: 'CN=svc-vault,OU=Service,DC=example,DC=com',
      bindpass: 'tf-canary-bindpass-93b1',
      starttls: false, insecure_tls: false, case_sensitive_names: false, discoverdn: false, deny_null_bind: true,
      username_as_alias: false, use_token_groups: true, anonymous_group_search: false,
      max_page_size: -1,
      token_type: 'default',
      token_policies: ['default', 'ldap-users'],
      token_ttl: 3600,
    };
    expect((await server().raw('POST', 'auth/tf-ldap/config', terraformBody)).status).toBeLessThan(300);
    // OpenBao's own field, set by someone else: lockstep neither manages nor disturbs it.
    expect((await server().raw('POST', 'auth/tf-ldap/config', { token_strictly_bind_ip: true })).status).toBeLessThan(300);
    expect((await server().raw('POST', 'auth/tf-ldap/groups/vault-admins', { policies: 'admin' })).status).toBe(204);

    const out = path.join(dir, 'export');
    const exported = await cli(['export', '--out', out]);
    expect(exported.code, exported.stderr).toBe(0);
    const text = await readFile(path.join(out, 'default-ldap-auth.yaml'), 'utf8');
    expect(text).toContain('max_page_size: -1');
    expect(text).toContain('use_token_groups: true');
    expect(text).not.toMatch(/enable_samaccountname_login|rotation_|alias_metadata|token_strictly_bind_ip|tf-canary/);
    const env: Record<string, string> = {};
    for (const f of await readdir(out)) for (const [, name] of (await readFile(path.join(out, f), 'utf8')).matchAll(/\$\{env:([A-Z0-9_]+)\}/g)) env[name!] = 'tf-canary-bindpass-93b1';
    await expectNoChanges((args) => cli(args, env), out);
    const applied = await cli(['apply', out, '--auto-approve', '--sync-secrets'], env);
    expect(applied.code, applied.stderr).toBe(0);
    const read = await server().raw('GET', 'auth/tf-ldap/config');
    expect(read.body).toMatchObject({ data: { token_strictly_bind_ip: true, max_page_size: -1 } });
  });
});
