import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../support/cli.js';
import { startTestServer, type TestCluster } from '../support/server.js';

/**
 * docs/terraform.md, "Coming from Terraform", run as written against `serve`: the request
 * bodies it gives as terraform-provider-vault's are sent as they stand, then its export and plan
 * commands run; the plan is empty and the export holds what the page says it does.
 */

const DOC = path.join(ROOT, 'docs', 'terraform.md');

/** The page's `<!-- terraform-request: METHOD path -->` blocks, in order. */
function terraformRequests(text: string): Array<{ method: string; path: string; body: unknown }> {
  return [...text.matchAll(/<!-- terraform-request: (\w+) (\S+) -->\n```json\n([\s\S]*?)```/g)].map((m) => ({ method: m[1]!, path: m[2]!, body: JSON.parse(m[3]!) as unknown }));
}

/** The page's `lockstep ...` command lines, as argument lists. */
function lockstepCommands(text: string): string[][] {
  const blocks = [...text.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
  return blocks.flatMap((b) => b.split('\n').filter((l) => l.startsWith('lockstep ')).map((l) => l.replace(/\s+#.*$/, '').split(/\s+/).slice(1)));
}

let cluster: TestCluster;
let work: string;
beforeAll(async () => {
  cluster = await startTestServer();
  work = await mkdtemp(path.join(tmpdir(), 'lockstep-terraform-'));
});
afterAll(async () => {
  await cluster.server.close();
  await rm(work, { recursive: true, force: true });
});

describe('Coming from Terraform (docs/terraform.md)', () => {
  it('takes over what terraform-provider-vault wrote: export, then an empty plan', async () => {
    const text = await readFile(DOC, 'utf8');
    const requests = terraformRequests(text);
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST sys/auth/ldap', 'POST auth/ldap/config', 'POST auth/ldap/groups/vault-admins', 'POST auth/ldap/users/alice']);
    for (const r of requests) {
      const answer = await cluster.raw(r.method, r.path, r.body);
      expect(answer.status, `${r.path}: ${JSON.stringify(answer.body)}`).toBeLessThan(300);
    }

    const [exportArgs, planArgs] = lockstepCommands(text);
    expect(exportArgs).toEqual(['export', '--out', 'manifests/']);
    expect(planArgs).toEqual(['plan', 'manifests/', '--detailed-exitcode']);
    const exported = await runCli(exportArgs!, { env: cluster.env, cwd: work });
    expect(exported.code, exported.stderr).toBe(0);

    const manifest = await readFile(path.join(work, 'manifests', 'default-ldap-auth.yaml'), 'utf8');
    // What the page says the export holds.
    expect(manifest).toContain('max_page_size: -1');
    expect(manifest).toContain('use_token_groups: true');
    expect(manifest).toContain('bindpass: ${env:DEFAULT_LDAP_BINDPASS}');
    expect(manifest).toMatch(/managedElsewhere:\s*\n\s*- client_tls_cert\s*\n\s*- client_tls_key/);
    expect(manifest).toMatch(/vault-admins:\s*\n\s*policies:/);
    expect(manifest).not.toContain('the-bind-password');

    const plan = await runCli(planArgs!, { env: { ...cluster.env, DEFAULT_LDAP_BINDPASS: 'the-bind-password' }, cwd: work });
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    expect(plan.stdout).toMatch(/^No changes\. Live state matches the manifests\./);
  });
});
