import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAnswerProxy } from '../support/answer-proxy.js';
import { runCli } from '../support/cli.js';
import { useForFile } from '../support/file-scoped.js';
import { startTestServer } from '../support/server.js';
import { startSilentServer } from '../support/silent-server.js';
import { useTempTrees } from '../support/temp-tree.js';

/**
 * The access review's directory read starts while the plan is still read, as soon as the plan
 * has read a config that the manifest changes in a field every login reads
 * (kinds/ldap-auth/access-review/read-ahead.ts): and only then. What reaches the directory is
 * counted by a listener standing in for it, which takes each connection and closes it (the
 * review is then skipped, saying why): a plan that will not review the method must not reach it.
 */
const tree = useTempTrees();
const server = useForFile(() => startTestServer(), (s) => s.server.close());
let connections = 0;
let directory: net.Server;
beforeAll(async () => {
  directory = net.createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((ready) => directory.listen(0, '127.0.0.1', ready));
});
afterAll(async () => {
  await new Promise((closed) => directory.close(closed));
});

const manifest = (tokenPolicies: string) => `apiVersion: lockstep/v1
kind: LdapAuth
config:
  url: ldap://127.0.0.1:${(directory.address() as net.AddressInfo).port}
  binddn: cn=svc,dc=example,dc=com
  bindpass: \${env:LDAP_BINDPASS}
  userdn: ou=people,dc=example,dc=com
  token_policies: [${tokenPolicies}]
groups:
  crew: { policies: [default] }
`;
const cli = (args: string[]) => runCli(args, { env: { ...server().env, LDAP_BINDPASS: 'not-a-real-password' } });

describe('the directory read started ahead of the review', () => {
  it('starts for a changed field every login reads; not with --access-review off, nor with --target, nor when nothing changes', async () => {
    const applied = await cli(['apply', await tree({ 'ldap.yaml': manifest('default') }), '--auto-approve', '--access-review', 'off']);
    expect(applied.code, applied.stderr).toBe(0);
    const changed = await tree({ 'ldap.yaml': manifest('default, extra') });

    connections = 0;
    const unchanged = await cli(['plan', await tree({ 'ldap.yaml': manifest('default') })]);
    expect(unchanged.code, unchanged.stderr).toBe(0);
    const off = await cli(['plan', changed, '--access-review', 'off']);
    expect(off.stdout).toContain('~ default:auth/ldap/config');
    const targeted = await cli(['plan', changed, '--target', 'default:auth/ldap/groups/crew']);
    expect(targeted.code, targeted.stderr).toBe(0);
    expect(connections).toBe(0);

    const reviewed = await cli(['plan', changed]);
    expect(reviewed.code, reviewed.stderr).toBe(0);
    expect(connections).toBeGreaterThan(0);
    // Started ahead or not, the review says what it says: one warning, why it was skipped.
    const warnings = reviewed.stderr.split('\n').filter((l) => l.includes('access review'));
    expect(warnings).toEqual([expect.stringMatching(/^warning: default:auth\/ldap: access review skipped: /)]);
  });

  it('a plan that fails before its review abandons the read it started: the directory connections close, the run ends', async () => {
    // A directory that takes connections and never answers: a read left running would hold the run until its timeouts.
    const silent = await startSilentServer();
    const proxy = await startAnswerProxy(server().baseUrl);
    try {
      const m = await tree({ 'ldap.yaml': manifest('default, extra').replace(/url: \S+/, `url: ldap://127.0.0.1:${silent.port}`) });
      // The group's read is refused once the directory read, started when the config was read, has reached the directory.
      proxy.respond('GET auth/ldap/groups/crew', async () => {
        await silent.reached;
        return { status: 403, body: { errors: ['permission denied'] } };
      });
      const r = await runCli(['plan', m], { env: { ...server().env, SERVICE_ADDR: proxy.baseUrl, LDAP_BINDPASS: 'not-a-real-password' } });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('reading live state failed');
      // The run ended (a read left running would have held it until the test's timeout), and
      // with it every connection to the directory.
      expect(silent.accepted()).toBeGreaterThan(0);
      await silent.allClosed();
    } finally {
      await proxy.close();
      await silent.close();
    }
  });
});
