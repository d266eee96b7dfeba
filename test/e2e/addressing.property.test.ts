import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import type { OutputSink } from '../../src/commands/output.js';
import { segmentProblem } from '../../src/core/path-segment.js';
import { decodedSegments, startRequestRecorder, type RequestRecorder } from '../support/request-recorder.js';
import { startTestServer, type TestCluster } from '../support/server.js';

// Contract section 5 and issue #13.1: every request goes to exactly the object the plan names.
// Names are generated (any character the service can address: ?, #, %, &, =, +, spaces inside,
// non-ASCII...), planned and applied against `serve` through a relay that records every
// request line; each write must decode, segment by segment, to an address the plan shows.

const RUNS = Number(process.env['LOCKSTEP_PROPERTY_RUNS'] ?? 25);

let cluster: TestCluster;
let recorder: RequestRecorder;
let dir: string;

beforeAll(async () => {
  cluster = await startTestServer();
  recorder = await startRequestRecorder(cluster.baseUrl);
  dir = await mkdtemp(path.join(tmpdir(), 'lockstep-addressing-'));
  process.env['SERVICE_ADDR'] = recorder.baseUrl;
  process.env['SERVICE_TOKEN'] = cluster.token;
});
afterAll(async () => {
  await recorder.close();
  await cluster.server.close();
  await rm(dir, { recursive: true, force: true });
});

/** Runs the CLI in this process; returns its exit code and what it printed. */
async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const sink: OutputSink = {
    out: (t) => void (out += t.endsWith('\n') ? t : `${t}\n`),
    err: (t) => void (err += t.endsWith('\n') ? t : `${t}\n`),
    color: false,
    interactive: false,
    prompt: () => Promise.resolve(''),
  };
  const code = await main(args, sink);
  return { code, out, err };
}

/** A name a manifest may hold (the validation rules), lower-case as the server keeps it. */
const addressableName = fc
  .string({ minLength: 1, maxLength: 12, unit: fc.constantFrom(...'abcxyz09 ?#%&=+;:@!$\'()*[]~-._é€'.split('')) })
  .map((s) => s.toLowerCase())
  .filter((s) => segmentProblem(s) === undefined && s.trim() === s && !s.includes(','));

const yamlString = (s: string): string => JSON.stringify(s);

describe('#13.1: each request decodes to the address the plan shows', () => {
  it('property: generated group and user names, planned, applied and pruned against serve', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(addressableName, { minLength: 1, maxLength: 3 }),
        fc.uniqueArray(addressableName, { minLength: 1, maxLength: 3 }),
        addressableName,
        async (groups, users, stray) => {
          // A user the manifests do not list, created behind lockstep's back: prune deletes it, and only it.
          await cluster.raw('DELETE', 'sys/auth/ldap');
          await cluster.raw('POST', 'sys/auth/ldap', { type: 'ldap' });
          const strayListed = users.includes(stray);
          await cluster.raw('POST', `auth/ldap/users/${encodeURIComponent(stray)}`, { policies: 'p' });

          const file = path.join(dir, 'ldap.yaml');
          await writeFile(
            file,
            [
              'apiVersion: lockstep/v1',
              'kind: LdapAuth',
              'prune: true',
              'groups:',
              ...groups.map((g) => `  ${yamlString(g)}: { policies: [dev] }`),
              'users:',
              ...users.map((u) => `  ${yamlString(u)}: { groups: [${groups.map(yamlString).join(', ')}] }`),
              '',
            ].join('\n'),
          );

          const plan = await cli(['plan', file, '--format', 'json']);
          expect(plan.code, plan.err).toBe(0);
          const planned = (JSON.parse(plan.out) as { changes: Array<{ address: string; action: string }> }).changes;
          const plannedPaths = new Set(planned.map((c) => c.address.slice(c.address.indexOf(':') + 1)));
          if (!strayListed) expect(plannedPaths.has(`auth/ldap/users/${stray}`)).toBe(true);

          recorder.requests.length = 0;
          const apply = await cli(['apply', file, '--auto-approve', '--allow-destructive']);
          expect(apply.code, apply.err + apply.out).toBe(0);
          const writes = recorder.requests.filter((r) => r.method === 'POST' || r.method === 'PUT' || r.method === 'DELETE');
          expect(writes.length).toBeGreaterThan(0);
          for (const w of writes) expect(plannedPaths, `${w.method} ${w.target}`).toContain(decodedSegments(w.target).join('/'));

          const again = await cli(['plan', file, '--detailed-exitcode']);
          expect(again.code, again.out + again.err).toBe(0);

          const listed = (await cluster.raw('GET', 'auth/ldap/users?list=true')).body as { data: { keys: string[] } };
          expect([...listed.data.keys].sort()).toEqual([...users].sort());
        },
      ),
      { numRuns: RUNS },
    );
  }, 120_000);
});
