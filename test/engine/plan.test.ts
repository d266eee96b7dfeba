import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { useTempTrees } from '../support/temp-tree.js';
import { startTestServer } from '../support/server.js';
import { useForFile } from '../support/file-scoped.js';

// The engine (src/engine/plan.ts) returns what it met as diagnostics, never a thrown string: the
// commands print them (stderr, and `--format json`'s diagnostics[]) and exit 1, nothing saved.
const tree = useTempTrees();
const server = useForFile(() => startTestServer(), (s) => s.server.close());

const IN_NAMESPACE = `apiVersion: lockstep/v1
kind: LdapAuth
namespace: nowhere
groups:
  admins: { policies: [admin] }
`;

describe('the engine returns diagnostics', () => {
  it('a namespace that does not exist: located in text, in --format json with file, line and column; exit 1, no plan saved', async () => {
    const m = await tree({ 'a.yaml': IN_NAMESPACE });
    const text = await runCli(['plan', m, '--out', `${m}/plan.json`], { env: server().env });
    expect(text.code).toBe(1);
    expect(text.stdout).toBe('');
    expect(text.stderr).toMatch(/a\.yaml:3:12: error: namespace "nowhere" does not exist on cluster "default"/);
    expect(text.stderr).toContain('error: the plan is refused (1 error in the manifests, above): it was not saved');
    const json = await runCli(['plan', m, '--format', 'json'], { env: server().env });
    expect(json.code).toBe(1);
    const parsed = JSON.parse(json.stdout) as { changes: unknown[]; diagnostics: Array<Record<string, unknown>> };
    expect(parsed.changes).toEqual([]);
    expect(parsed.diagnostics).toEqual([
      { severity: 'error', origin: 'manifest', message: expect.stringContaining('namespace "nowhere" does not exist') as unknown, file: expect.stringMatching(/a\.yaml$/) as unknown, line: 3, column: 12 },
    ]);
  });

  it('a read that fails is an error of the run, not a stack or an empty plan', async () => {
    const m = await tree({ 'a.yaml': IN_NAMESPACE.replace('namespace: nowhere\n', '') });
    const r = await runCli(['plan', m, '--format', 'json', '--retries', '0'], { env: { ...server().env, SERVICE_ADDR: 'http://127.0.0.1:9' } });
    expect(r.code).toBe(1);
    const parsed = JSON.parse(r.stdout) as { diagnostics: Array<{ message: string; origin: string }> };
    expect(parsed.diagnostics.map((d) => d.message).join('\n')).toMatch(/cannot reach|refused|ECONNREFUSED/);
    // An unreachable server is the run's environment, not the manifests.
    expect(parsed.diagnostics.map((d) => d.origin)).toEqual(['environment']);
    expect(r.stderr).toContain('error: the plan is refused (1 error in the environment, above): it must not be applied');
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('a clean plan in JSON carries an empty diagnostics list', async () => {
    // `default` is a policy every namespace has: no warning that it does not exist.
    const m = await tree({ 'a.yaml': IN_NAMESPACE.replace('namespace: nowhere\n', '').replace('[admin]', '[default]') });
    const r = await runCli(['plan', m, '--format', 'json'], { env: server().env });
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { diagnostics: unknown[] }).diagnostics).toEqual([]);
  });
});
