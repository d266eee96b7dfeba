import { spawn } from 'node:child_process';
import { access, cp, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { evaluate, interpolate, truthy, type ExprContext, type ExprValue } from './actions-expressions.js';
import type { PastedRepo } from './repo.js';

/**
 * Runs one job of a GitHub Actions workflow of the pasted repository as a runner would, for the
 * template tests: the job's and steps' `env`, `if` (with the implied success()), `${{ }}`
 * expressions, `run` steps in `bash -e` from a fresh clone, and the runner's files
 * (GITHUB_ENV, GITHUB_PATH, GITHUB_OUTPUT, RUNNER_TEMP). `uses:` steps are the pinned actions the
 * templates name: checkout clones the repository at its ref, upload-artifact keeps the file,
 * setup-node and cache change nothing here. The install step (install.sh, proven by
 * test/package/install.test.ts) puts the build under test on the PATH instead of a release.
 * An ID token can be requested only when the workflow grants `id-token: write`, as on GitHub.
 */
export interface ActionsContext {
  repo: PastedRepo;
  work: string;
  /** The directory holding `lockstep` (the build under test), and `gh` (the fake). */
  bin: string;
  /** Everything else the steps see: HOME, FAKE_GH_STATE, ... */
  env: Record<string, string>;
  vars: Record<string, string>;
  secrets: Record<string, string>;
  repository: string;
  /** The job's ID token claims (sub, ref, ...) when the workflow may request one. */
  idToken?: (job: { environment?: string }) => { url: string; token: string };
}

export interface ActionsEvent {
  name: 'pull_request' | 'schedule' | 'workflow_dispatch';
  /** The commit checked out by default (github.sha). */
  sha: string;
  payload: Record<string, unknown>;
}

export interface StepResult {
  name: string;
  outcome: 'success' | 'failure' | 'skipped';
  output: string;
}

export interface JobResult {
  ran: boolean;
  conclusion: 'success' | 'failure' | 'skipped';
  steps: StepResult[];
  workspace: string;
  artifacts: Record<string, string>;
  /** Everything the steps printed. */
  log: string;
}

export const INSTALL_STEP = 'ci/lockstep/install.sh "${{ vars.LOCKSTEP_TARBALL_URL }}" "${{ vars.LOCKSTEP_TARBALL_SHA256 }}"';

interface Step {
  name?: string;
  id?: string;
  if?: string;
  uses?: string;
  run?: string;
  env?: Record<string, string>;
  with?: Record<string, unknown>;
}

export async function runWorkflowJob(ctx: ActionsContext, workflow: string, jobName: string, event: ActionsEvent): Promise<JobResult> {
  const doc = parseYaml(await readFile(path.join(await ctx.repo.clone('read-workflow'), '.github', 'workflows', workflow), 'utf8')) as {
    permissions?: Record<string, string>;
    jobs: Record<string, { if?: string; environment?: string; env?: Record<string, string>; steps: Step[] }>;
  };
  const job = doc.jobs[jobName]!;
  const runner = await mkdtemp(path.join(ctx.work, `runner-${jobName}-`));
  // Where a hosted runner checks the repository out, the same for every job.
  const workspace = path.join(ctx.work, 'home', 'runner', 'work', 'infra', 'infra');
  const temp = path.join(runner, 'temp');
  await mkdir(temp);
  const files = { env: path.join(runner, 'github_env'), path: path.join(runner, 'github_path') };
  await writeFile(files.env, '');
  await writeFile(files.path, '');
  const steps: StepResult[] = [];
  const artifacts: Record<string, string> = {};
  const outputs: Record<string, Record<string, string>> = {};
  let failed = false;
  const log: string[] = [];

  const context = (): ExprContext => ({
    vars: ctx.vars,
    secrets: ctx.secrets,
    github: { token: 'ghs_job_token', repository: ctx.repository, sha: event.sha, event_name: event.name, event: event.payload },
    runner: { temp },
    steps: Object.fromEntries(Object.entries(outputs).map(([id, o]) => [id, { outputs: o }])),
    functions: {
      success: () => !failed,
      failure: () => failed,
      cancelled: () => false,
      always: () => true,
      hashFiles: (...patterns: ExprValue[]) => hashFiles(workspace, patterns.map(String)),
    },
  });
  const condition = async (expr: string | undefined): Promise<boolean> => {
    const text = expr === undefined ? 'success()' : unwrap(expr);
    const implied = /\b(success|failure|cancelled|always)\(/.test(text) ? text : `success() && (${text})`;
    return truthy(await evaluate(implied, context()));
  };

  if (job.if !== undefined && !(await condition(job.if))) return { ran: false, conclusion: 'skipped', steps, workspace, artifacts, log: '' };
  const idToken = doc.permissions?.['id-token'] === 'write' && ctx.idToken ? ctx.idToken({ ...(job.environment ? { environment: job.environment } : {}) }) : undefined;

  for (const [i, step] of job.steps.entries()) {
    const name = step.name ?? step.uses ?? step.run ?? `step ${i}`;
    if (!(await condition(step.if))) {
      steps.push({ name, outcome: 'skipped', output: '' });
      continue;
    }
    let result: { ok: boolean; output: string };
    if (step.uses !== undefined) result = await uses(step, runner, workspace, artifacts, event, ctx, context);
    else if (step.run === INSTALL_STEP) {
      await writeFile(files.path, `${ctx.bin}\n`, { flag: 'a' });
      result = { ok: true, output: 'lockstep: the build under test\n' };
    } else {
      const env = {
        ...(await interpolateAll(job.env ?? {}, context)),
        ...(await interpolateAll(step.env ?? {}, context)),
      };
      const outputFile = path.join(runner, `output-${i}`);
      await writeFile(outputFile, '');
      const extraPath = (await readFile(files.path, 'utf8')).split('\n').filter(Boolean).reverse();
      const script = path.join(runner, `step-${i}.sh`);
      await writeFile(script, await interpolate(step.run!, context()));
      result = await bash(['-e', script], workspace, {
        PATH: [...extraPath, process.env['PATH'] ?? ''].join(':'),
        ...ctx.env,
        ...env,
        ...parseEnvFile(await readFile(files.env, 'utf8')),
        GITHUB_ENV: files.env,
        GITHUB_PATH: files.path,
        GITHUB_OUTPUT: outputFile,
        GITHUB_WORKSPACE: workspace,
        RUNNER_TEMP: temp,
        CI: 'true',
        GITHUB_ACTIONS: 'true',
        ...(idToken ? { ACTIONS_ID_TOKEN_REQUEST_URL: idToken.url, ACTIONS_ID_TOKEN_REQUEST_TOKEN: idToken.token } : {}),
      });
      if (step.id) outputs[step.id] = parseEnvFile(await readFile(outputFile, 'utf8'));
    }
    log.push(result.output);
    steps.push({ name, outcome: result.ok ? 'success' : 'failure', output: result.output });
    if (!result.ok) failed = true;
  }
  return { ran: true, conclusion: failed ? 'failure' : 'success', steps, workspace, artifacts, log: log.join('') };
}

async function uses(
  step: Step,
  runner: string,
  workspace: string,
  artifacts: Record<string, string>,
  event: ActionsEvent,
  ctx: ActionsContext,
  context: () => ExprContext,
): Promise<{ ok: boolean; output: string }> {
  const action = step.uses!.replace(/@.*/, '');
  const withs = Object.fromEntries(await Promise.all(Object.entries(step.with ?? {}).map(async ([k, v]) => [k, await interpolate(String(v), context())])));
  switch (action) {
    case 'actions/checkout': {
      const ref = withs['ref'] || event.sha;
      await ctx.repo.clone('checkout', ref, workspace);
      return { ok: true, output: `checked out ${ref}\n` };
    }
    case 'actions/setup-node':
    case 'actions/cache':
      return { ok: true, output: '' };
    case 'actions/upload-artifact': {
      const file = path.join(workspace, String(withs['path']));
      const found = await access(file).then(() => true, () => false);
      if (!found) return { ok: withs['if-no-files-found'] !== 'error', output: `no file at ${withs['path']}\n` };
      const name = String(withs['name']);
      const dir = path.join(runner, 'artifacts', name);
      await mkdir(dir, { recursive: true });
      await cp(file, path.join(dir, path.basename(file)));
      artifacts[name] = dir;
      return { ok: true, output: `uploaded ${withs['path']}\n` };
    }
    default:
      return { ok: false, output: `the test runner does not know ${step.uses}\n` };
  }
}

function bash(args: string[], cwd: string, env: Record<string, string>): Promise<{ ok: boolean; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ ok: code === 0, output }));
  });
}

function parseEnvFile(text: string): Record<string, string> {
  return Object.fromEntries(
    text
      .split('\n')
      .filter((l) => l.includes('='))
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
}

async function interpolateAll(values: Record<string, string>, context: () => ExprContext): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(values)) out[k] = await interpolate(String(v), context());
  return out;
}

function unwrap(expr: string): string {
  const m = /^\s*\$\{\{([\s\S]*)\}\}\s*$/.exec(expr);
  return m ? m[1]! : expr;
}

async function hashFiles(workspace: string, patterns: string[]): Promise<string> {
  // The templates ask only whether one named file exists.
  for (const p of patterns) if (await access(path.join(workspace, p)).then(() => true, () => false)) return `hash-of-${p}`;
  return '';
}
