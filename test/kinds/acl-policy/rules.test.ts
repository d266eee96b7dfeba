import { describe, expect, it } from 'vitest';
import { Diagnostics } from '../../../src/core/diagnostics.js';
import type { ResolvedDocument } from '../../../src/load/document.js';
import { parseManifest } from '../../../src/load/parse.js';
import { resolveReferences } from '../../../src/load/references.js';
import { validateAclPolicies } from '../../../src/kinds/acl-policy/rules.js';
import type { KindContext } from '../../../src/kinds/kind.js';

const ctx: KindContext = { clusters: new Map(), prune: false };

/** AclPolicy documents of one file, placed as prepare would (cluster `default`, root namespace unless given). */
async function policyDocs(text: string, env: NodeJS.ProcessEnv = {}): Promise<ResolvedDocument[]> {
  const diags = new Diagnostics();
  const docs: ResolvedDocument[] = [];
  for (const source of parseManifest(text, 'p.yaml', '/tmp/p.yaml', diags)) {
    const data = (await resolveReferences(source, [], { allowPlaintextSecrets: true, env }, diags)) as Record<string, unknown>;
    docs.push({ source, kind: 'AclPolicy', data: { cluster: 'default', namespace: '', ...data } });
  }
  if (diags.items.length > 0) throw new Error(diags.format().join('\n'));
  return docs;
}

async function problems(text: string): Promise<string[]> {
  const diags = new Diagnostics();
  validateAclPolicies(await policyDocs(text), diags, ctx);
  return diags.format();
}

const doc = (name: string, policy: string): string => `apiVersion: lockstep/v1\nkind: AclPolicy\nname: ${name}\npolicy: ${policy}\n`;

describe('AclPolicy rules', () => {
  it('each problem of the text at its line and column inside the block scalar, every one at once', async () => {
    const text = doc('a', '|\n    path "x" {\n      capabilities = ["read", "sudo", "reed"]\n      frobnicate = 1\n    }\n    path "y" { capabilities = ["creat"] }');
    expect(await problems(text)).toEqual([
      expect.stringMatching(/^p\.yaml:7:\d+: error: policy: path "x": invalid key "frobnicate" on line 3$/),
      expect.stringMatching(/^p\.yaml:9:\d+: error: policy: path "y": invalid capability "creat"$/),
    ]);
  });

  it('a folded or double-quoted text is reported at the value, naming the place in the text', async () => {
    expect(await problems(doc('a', '"path \\"x\\" { capabilities = [\\"reed\\"] }"'))).toEqual([
      expect.stringMatching(/^p\.yaml:4:9: error: policy: path "x": invalid capability "reed" \(line 1, column \d+ of the policy text\)$/),
    ]);
    expect(await problems(doc('a', '>\n  path "x" {\n  capabilities = ["reed"] }'))).toEqual([
      expect.stringMatching(/^p\.yaml:4:9: error: policy: path "x": invalid capability "reed" \(line \d+, column \d+ of the policy text\)$/),
    ]);
  });

  it('names: one declaration per namespace as the service stores them (lower case); prune agreement', async () => {
    const ok = 'path "x" { capabilities = ["read"] }';
    const text = [doc('Ops', ok), doc('ops', ok), `${doc('dev', ok)}prune: true\n`, `${doc('qa', ok)}prune: false\n`, `${doc('x', ok)}namespace: team-a\n`, `${doc('ops', ok)}namespace: team-a\n`].join('---\n');
    expect(await problems(text)).toEqual([
      'p.yaml:8:7: error: name: ACL policy "ops" is already declared at p.yaml:3:7 (cluster default; the service stores names lower-cased)',
      'p.yaml:21:8: error: prune: disagrees with prune: true at p.yaml:15:8 (the ACL policies of cluster default are one collection)',
    ]);
  });
});
