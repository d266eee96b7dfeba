import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LDAP_FIELD_SPECS } from '../../src/kinds/ldap-auth/schema-fields.js';
import { startAnswerProxy, type AnswerProxy } from '../support/answer-proxy.js';
import { runCli, type CliResult } from '../support/cli.js';
import { expectNoChanges, writeManifestFolder } from '../support/e2e.js';
import { startTestServer, type TestCluster } from '../support/server.js';

/**
 * Issue 28 item 2: a server of an older release (or of the other product) lacks fields the
 * emulated release has. Here `serve` answers behind a proxy as such a server would: its
 * sys/health names the release, its config read leaves the fields out. lockstep neither sends
 * nor compares them, says so when a manifest sets one, and plans empty after applying.
 */

let cluster: TestCluster;
let proxy: AnswerProxy;
let dir: string;
let folders = 0;

beforeAll(async () => {
  cluster = await startTestServer();
  proxy = await startAnswerProxy(cluster.baseUrl);
  dir = await mkdtemp(path.join(tmpdir(), 'lockstep-field-releases-'));
});
afterAll(async () => {
  await proxy.close();
  await cluster.server.close();
  await rm(dir, { recursive: true, force: true });
});

const cli = (args: string[]): Promise<CliResult> => runCli(args, { env: { SERVICE_ADDR: proxy.baseUrl, SERVICE_TOKEN: cluster.token } });

/** Answers as `version` would: health names it, the config read lacks `lacked`. */
function serveAs(version: string, enterprise: boolean | undefined, lacked: readonly string[]): void {
  proxy.clear();
  proxy.rewrite('GET sys/health', (body) => {
    body['version'] = version;
    if (enterprise === undefined) delete body['enterprise'];
    else body['enterprise'] = enterprise;
  });
  proxy.rewrite('GET auth/ldap/config', (body) => {
    const data = body['data'] as Record<string, unknown>;
    for (const f of lacked) delete data[f];
  });
}

async function manifest(config: string): Promise<string> {
  return writeManifestFolder(path.join(dir, `m${folders++}`), {
    'ldap.yaml': `apiVersion: lockstep/v1\nkind: LdapAuth\nmount: ldap\nconfig:\n${config}`,
  });
}

/** Fields first answered by Vault 1.19 and later (and alias_metadata, Enterprise 1.21). */
const AFTER_1_18 = ['enable_samaccountname_login', 'alias_metadata', 'password_policy', 'rotation_schedule', 'rotation_window', 'rotation_period', 'disable_automated_rotation', 'rotation_url', 'rotation_schema', 'rotation_credential_type'];

describe('fields a server release lacks (issue 28 item 2)', () => {
  it('a Vault 1.18 server: the later fields are neither compared nor sent; a manifest value for one is a warning', async () => {
    serveAs('1.18.4+ent', true, AFTER_1_18);
    const m = await manifest('  url: ldap://directory.example.com\n  use_token_groups: true\n  enable_samaccountname_login: true\n  rotation_period: 24h\n');
    const plan = await cli(['plan', m]);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain('use_token_groups: false -> true');
    expect(plan.stdout).not.toMatch(/enable_samaccountname_login:|rotation_period:/);
    const said = plan.stdout + plan.stderr;
    expect(said).toContain('the server (Vault 1.18.4+ent) has no enable_samaccountname_login (Vault 1.19.0 and later; not in OpenBao), rotation_period (Vault 1.19.0 and later; not in OpenBao)');

    const applied = await cli(['apply', m, '--auto-approve']);
    expect(applied.code, applied.stderr).toBe(0);
    const written = proxy.bodies.filter((b) => b.key === 'POST auth/ldap/config').map((b) => JSON.parse(b.body) as Record<string, unknown>);
    expect(written).toHaveLength(1);
    expect(written[0]).toMatchObject({ url: 'ldap://directory.example.com', use_token_groups: true });
    for (const f of AFTER_1_18) expect(Object.keys(written[0]!)).not.toContain(f);
    await expectNoChanges(cli, m);
  });

  it('Vault Community 1.21: only the Enterprise alias_metadata is left out', async () => {
    serveAs('1.21.0', false, ['alias_metadata']);
    const m = await manifest('  url: ldap://directory.example.com\n  use_token_groups: true\n  password_policy: ldap-root\n  alias_metadata: { team: platform }\n');
    const plan = await cli(['plan', m]);
    expect(plan.stdout).toContain('password_policy: "" -> "ldap-root"');
    expect(plan.stdout + plan.stderr).toContain('has no alias_metadata (Vault Enterprise 1.21.0 and later; not in OpenBao)');
    expect((await cli(['apply', m, '--auto-approve'])).code).toBe(0);
    const written = proxy.bodies.filter((b) => b.key === 'POST auth/ldap/config').map((b) => JSON.parse(b.body) as Record<string, unknown>);
    expect(Object.keys(written.at(-1)!)).not.toContain('alias_metadata');
    expect(written.at(-1)).toMatchObject({ password_policy: 'ldap-root', rotation_url: '', rotation_schema: 'openldap' });
    await expectNoChanges(cli, m);
  });

  it('the emulated release (Vault Enterprise 1.21.0) has every field: all are written and compared', async () => {
    proxy.clear();
    const m = await manifest('  url: ldap://directory.example.com\n  alias_metadata: { team: platform, tier: 1 }\n  rotation_schedule: "0 * * * SAT"\n  rotation_window: 1h\n');
    expect((await cli(['apply', m, '--auto-approve'])).code).toBe(0);
    const written = proxy.bodies.filter((b) => b.key === 'POST auth/ldap/config').map((b) => JSON.parse(b.body) as Record<string, unknown>);
    const managed = LDAP_FIELD_SPECS.filter((f) => f.name !== 'policies').map((f) => f.name);
    expect(Object.keys(written.at(-1)!).sort()).toEqual([...managed].sort());
    expect(written.at(-1)).toMatchObject({ alias_metadata: { team: 'platform', tier: '1' }, rotation_window: 3600 });
    await expectNoChanges(cli, m);
    // Drift in a field only the newer release has is drift like any other.
    expect((await cluster.raw('POST', 'auth/ldap/config', { alias_metadata: { team: 'other' } })).status).toBeLessThan(300);
    const drift = await cli(['plan', m, '--detailed-exitcode']);
    expect(drift.code).toBe(2);
    expect(drift.stdout).toContain('alias_metadata: {"team":"other"} -> {"team":"platform","tier":"1"}');
  });
});
