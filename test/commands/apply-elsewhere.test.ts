// A saved plan names the cluster addresses it was made against: applied to other servers it is
// refused saying so (not as "the manifests changed"), whichever way the address moved
// (SERVICE_ADDR, a Cluster document's address reference), and nothing reaches the other server.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { main } from '../../src/cli.js';
import type { OutputSink } from '../../src/commands/output.js';
import { startTestServer, type TestCluster } from '../support/server.js';
import { useTempTrees } from '../support/temp-tree.js';

const tree = useTempTrees();
const TOKEN = 'root-apply-elsewhere-5e2a';
let first: TestCluster;
let second: TestCluster;
beforeAll(async () => {
  [first, second] = await Promise.all([startTestServer(TOKEN), startTestServer(TOKEN)]);
});
afterAll(async () => {
  await Promise.all([first.server.close(), second.server.close()]);
});

async function cli(args: string[], env: Record<string, string>): Promise<{ code: number; text: string }> {
  const lines: string[] = [];
  const sink: OutputSink = { out: (t) => lines.push(t), err: (t) => lines.push(t), color: false, interactive: false, prompt: async () => '' };
  Object.assign(process.env, env);
  try {
    return { code: await main(args, sink), text: lines.join('\n') };
  } finally {
    for (const key of Object.keys(env)) delete process.env[key];
  }
}

const groupNames = fc.uniqueArray(fc.stringMatching(/^[a-z][a-z0-9-]{0,10}$/), { minLength: 1, maxLength: 5 });

describe('a saved plan applied against other servers', () => {
  test('generated manifests and moves of the address: refused naming the cluster and both addresses; applied where it was made', async () => {
    await fc.assert(
      fc.asyncProperty(
        groupNames,
        fc.constantFrom('SERVICE_ADDR', 'Cluster document'),
        fc.constantFrom('another server', 'the same server by another name'),
        async (groups, given, elsewhere) => {
          const mount = `ldap-${Math.random().toString(36).slice(2, 8)}`;
          const auth = `apiVersion: lockstep/v1\nkind: LdapAuth\nmount: ${mount}\nconfig:\n  url: ldap://a\ngroups:\n${groups.map((g) => `  ${g}: { policies: [p] }`).join('\n')}\n`;
          const clusterDoc = 'apiVersion: lockstep/v1\nkind: Cluster\nname: lab\naddress: ${env:LAB_ADDR}\ntoken: ${env:LAB_TOKEN}\n';
          const dir = await tree(given === 'SERVICE_ADDR' ? { 'auth.yaml': auth } : { 'auth.yaml': auth.replace('kind: LdapAuth', 'kind: LdapAuth\ncluster: lab'), 'cluster.yaml': clusterDoc });
          const cluster = given === 'SERVICE_ADDR' ? 'default' : 'lab';
          const envAt = (address: string): Record<string, string> =>
            given === 'SERVICE_ADDR' ? { SERVICE_ADDR: address, SERVICE_TOKEN: TOKEN } : { LAB_ADDR: address, LAB_TOKEN: TOKEN };
          const planned = first.baseUrl;
          const other = elsewhere === 'another server' ? second.baseUrl : first.baseUrl.replace('127.0.0.1', 'localhost');
          const planFile = join(dir, 'plan.json');

          const plan = await cli(['plan', dir, '--out', planFile], envAt(planned));
          expect(plan.code, plan.text).toBe(0);
          const refused = await cli(['apply', planFile], envAt(other));
          expect(refused).toEqual({
            code: 1,
            text: [
              'error: the saved plan was made against other servers than this run would apply it to:',
              `  cluster "${cluster}": planned at ${planned}, now at ${other}`,
              'run plan against these servers (nothing was changed)',
            ].join('\n'),
          });
          const mounts = async (c: TestCluster): Promise<string[]> => Object.keys(((await c.raw('GET', 'sys/auth')).body as { data: object }).data);
          expect(await mounts(second)).not.toContain(`${mount}/`);
          expect(await mounts(first)).not.toContain(`${mount}/`);

          const applied = await cli(['apply', planFile], envAt(planned));
          expect(applied.code, applied.text).toBe(0);
          expect(await mounts(first)).toContain(`${mount}/`);
          const again = await cli(['plan', dir, '--detailed-exitcode'], envAt(planned));
          expect(again.code, again.text).toBe(0);
          expect(again.text).toContain('No changes. Live state matches the manifests.');
        },
      ),
      { numRuns: 8 },
    );
  });

  test('a plan saved by an earlier build (no addresses) whose address moved is still refused, as stale', async () => {
    const dir = await tree({ 'auth.yaml': 'apiVersion: lockstep/v1\nkind: LdapAuth\nmount: older\nconfig:\n  url: ldap://a\n' });
    const planFile = join(dir, 'plan.json');
    expect((await cli(['plan', dir, '--out', planFile], { SERVICE_ADDR: first.baseUrl, SERVICE_TOKEN: TOKEN })).code).toBe(0);
    const saved = JSON.parse(await readFile(planFile, 'utf8')) as Record<string, unknown>;
    delete saved['clusterAddresses'];
    await writeFile(planFile, JSON.stringify(saved));
    const refused = await cli(['apply', planFile], { SERVICE_ADDR: second.baseUrl, SERVICE_TOKEN: TOKEN });
    expect(refused).toEqual({ code: 1, text: 'error: the saved plan is stale: the manifests changed since it was made; run plan again' });
  });
});
