import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { expectNoChanges } from '../support/e2e.js';
import { startTestServer, type TestCluster } from '../support/server.js';

/**
 * #14.4: a real client nobody here wrote, Python hvac (Debian python3-hvac, installed by
 * test/setup/install-deps.sh), against `lockstep serve` over HTTP, both ways: what hvac writes
 * the way an operator would, a naturally written manifest plans as no changes; what lockstep
 * applies, hvac reads in the service's shapes, and its token and system calls work.
 */
const PYTHON = '/usr/bin/python3';
const SCRIPT = fileURLToPath(new URL('./hvac_interop.py', import.meta.url));
const BINDPASS = 'canary-hvac-bindpass-41c7';

let cluster: TestCluster;
let dir: string;

async function hvac(phase: 'write' | 'read', c: TestCluster = cluster): Promise<any> {
  const origin = new URL(c.baseUrl).origin;
  const { stdout } = await promisify(execFile)(PYTHON, [SCRIPT, origin, c.token, phase, BINDPASS], { timeout: 60_000 });
  return JSON.parse(stdout);
}

const MANIFEST = `apiVersion: lockstep/v1
kind: LdapAuth
config:
  url: ldap://ldap.example.com:389
  userdn: ou=people,dc=example,dc=com
  groupdn: ou=groups,dc=example,dc=com
  binddn: cn=svc,dc=example,dc=com
  bindpass: \${env:LDAP_BINDPASS}
  userattr: uid
  token_ttl: 1h
  token_policies: Dev, ops
groups:
  admins: { policies: [admin, audit] }
  devs: { policies: dev }
users:
  alice: { policies: oncall, groups: [admins, devs] }
`;

function cli(args: string[], c: TestCluster = cluster) {
  return runCli(args, { env: { ...c.env, LDAP_BINDPASS: BINDPASS } });
}

beforeAll(async () => {
  cluster = await startTestServer();
  dir = await mkdtemp(path.join(tmpdir(), 'lockstep-hvac-'));
  await writeFile(path.join(dir, 'ldap.yaml'), MANIFEST);
});
afterAll(async () => {
  await cluster.server.close();
  await rm(dir, { recursive: true, force: true });
});

describe('#14.4 Python hvac against serve', () => {
  it('what hvac writes as an operator would, a natural manifest plans as no changes', async () => {
    expect(await hvac('write')).toEqual({ written: true });
    await expectNoChanges(cli, dir);
  });

  it('reads what lockstep applied in the service shapes, and its token and system calls work', async () => {
    const other = await startTestServer();
    try {
      const applied = await cli(['apply', dir, '--auto-approve'], other);
      expect(applied.code, applied.stdout + applied.stderr).toBe(0);
      expect((await other.raw('POST', 'sys/namespaces/team-a')).status).toBe(200);
      const read = await hvac('read', other);
      expect(read.config).toMatchObject({
        token_policies: ['Dev', 'ops'],
        userfilter: '({{.UserAttr}}={{.Username}})',
        use_token_groups: false,
        token_ttl: 3600,
        userattr: 'uid',
      });
      expect(read.config).not.toHaveProperty('bindpass');
      expect(read.groups).toEqual(['admins', 'devs']);
      expect(read.admins).toEqual({ policies: ['admin', 'audit'] });
      expect(read.alice).toEqual({ groups: 'admins,devs', policies: ['oncall'] });
      expect(read.health).toMatchObject({ initialized: true, sealed: false, version: expect.stringMatching(/\+ent$/) });
      expect(read.health_head_status).toBe(200);
      expect(read.seal).toMatchObject({ type: 'shamir', initialized: true, sealed: false });
      expect(read.init).toEqual({ initialized: true });
      expect([read.initialized, read.sealed]).toEqual([true, false]);
      expect(read.auth_methods).toEqual(['ldap/', 'token/']);
      expect(read.namespaces).toEqual(['team-a/']);
      expect(read.self).toEqual(['root']);
      expect(read).toMatchObject({ child_authenticated: true, child_lookup: ['default'], child_renew: 1800, lookup_accessor_id: '', child_after_revoke: false });
      expect(JSON.stringify(read)).not.toContain(BINDPASS);
    } finally {
      await other.server.close();
    }
  });
});
