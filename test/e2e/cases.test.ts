/**
 * The end-to-end cases of test/cases/e2e, one folder each (format in its README.md): for each,
 * a fresh embedded server, the setup calls, `plan` through the built CLI compared exactly with
 * expected-plan.txt, `apply --auto-approve`, and a plan that must show no changes; then the
 * same for manifests-after/ when present. LOCKSTEP_WRITE_EXPECTED=1 rewrites the expected files
 * (review the diff by hand).
 */
import { NOTHING_TO_CHANGE } from '../support/e2e.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CASES_DIR, expandEnv, expectedText, loadCases, stableOutput, startCaseServer, type Case } from '../cases/e2e/support.js';
import { runCli, type CliResult } from '../support/cli.js';

const WRITE = process.env['LOCKSTEP_WRITE_EXPECTED'] === '1';

/**
 * Secrets the manifests reference: canaries, checked absent from every output. HSM_PIN is
 * only sent to the server (the case's key has verify: false; no HSM is touched).
 */
const SECRETS = {
  LDAP_BINDPASS: 'canary-case-bindpass-0b7e',
  HSM_PIN: 'canary-case-pin-51d2',
};

const cases = await loadCases();

describe(`cases in ${CASES_DIR}`, () => {
  it('finds the cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(8);
  });

  for (const c of cases) {
    it(c.name, () => runCase(c), 60_000);
  }
});

async function runCase(c: Case): Promise<void> {
  const caseTmp = await mkdtemp(path.join(tmpdir(), `lockstep-case-${c.name}-`));
  const server = await startCaseServer();
  const env = { ...server.env, ...SECRETS, CASE_TMP: caseTmp };
  const outputs: string[] = [];
  const cli = async (args: string[]): Promise<CliResult> => {
    const r = await runCli(args, { env });
    outputs.push(r.stdout, r.stderr);
    return r;
  };
  try {
    for (const call of c.setup.map((s) => expandEnv(s, env))) {
      const r = await server.raw(call.method, call.path, call.body);
      const ok = call.status === undefined ? r.status >= 200 && r.status < 300 : r.status === call.status;
      expect(ok, `setup ${call.method} ${call.path} answered ${r.status}: ${r.text}`).toBe(true);
    }

    for (const step of c.steps) {
      const plan = await cli(['plan', step.manifests, ...c.args]);
      expect(plan.code, `plan ${step.manifests}:\n${plan.stderr}`).toBe(0);
      const actual = stableOutput(plan.stdout, caseTmp);
      expect(actual, `plan of ${step.manifests} (LOCKSTEP_WRITE_EXPECTED=1 rewrites ${path.basename(step.expected)})`).toBe(
        await expectedText(step.expected, actual, WRITE),
      );

      const apply = await cli(['apply', step.manifests, ...c.args, ...c.applyArgs, '--auto-approve']);
      expect(apply.code, `apply ${step.manifests}:\n${apply.stdout}\n${apply.stderr}`).toBe(0);

      // Nothing left to change; objects a case leaves unmanaged on purpose are listed (and are
      // drift of their own to --detailed-exitcode, unless --ignore-unmanaged).
      const again = await cli(['plan', step.manifests, ...c.args, '--detailed-exitcode', '--ignore-unmanaged']);
      expect(again.code, `plan after apply of ${step.manifests}:\n${again.stdout}\n${again.stderr}`).toBe(0);
      // Unmanaged objects and notes may follow the sentence; no change may precede it.
      expect(again.stdout.split('\n')[0], again.stdout).toMatch(NOTHING_TO_CHANGE);
    }

    const all = outputs.join('\n');
    for (const secret of [...Object.values(SECRETS), server.env['SERVICE_TOKEN']!]) expect(all).not.toContain(secret);
  } finally {
    await server.close();
    await rm(caseTmp, { recursive: true, force: true });
  }
}
