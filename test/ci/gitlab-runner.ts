import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, symlink } from 'node:fs/promises';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { PastedRepo } from './repo.js';

/**
 * Runs one job of the pasted repository's .gitlab-ci.yml as a GitLab runner would, for the
 * template tests: `default` merged in, the global and job `variables` expanded over the
 * predefined and project variables (project CI/CD variables win over the file's, as GitLab
 * orders them), each `id_tokens` entry a signed ID token for its `aud`, and before_script and
 * script run line by line in one bash from a fresh clone at the job's commit, stopping at the
 * first line that fails. The install line (install.sh, proven by test/package/install.test.ts)
 * leaves the build under test where the next line puts it on the PATH ($HOME/.lockstep/bin).
 */
export interface GitLabContext {
  repo: PastedRepo;
  work: string;
  /** The `lockstep` of the build under test. */
  lockstep: string;
  /** Project CI/CD variables (masked ones included). */
  project: Record<string, string>;
  /** Predefined variables the job's pipeline sets (CI_API_V4_URL, CI_PIPELINE_SOURCE, ...). */
  predefined: Record<string, string>;
  /** An ID token for the job, with this audience and GitLab's claims for the commit's ref. */
  idToken(aud: string): string;
}

export const INSTALL_LINE = 'ci/lockstep/install.sh "$LOCKSTEP_TARBALL_URL" "$LOCKSTEP_TARBALL_SHA256"';

export interface GitLabJob {
  code: number;
  output: string;
  workspace: string;
  /** Artifact path → its text, as GitLab keeps them for the job. */
  artifacts: Record<string, string>;
}

interface JobSpec {
  before_script?: string[];
  script: string[];
  variables?: Record<string, string>;
  id_tokens?: Record<string, { aud: string }>;
  artifacts?: { paths: string[] };
}

export async function runGitLabJob(ctx: GitLabContext, jobName: string, sha: string): Promise<GitLabJob> {
  // Where the runner builds the project, the same for every job (CI_PROJECT_DIR).
  const workspace = await ctx.repo.clone(`gitlab-${jobName}`, sha, path.join(ctx.work, 'builds', 'acme', 'infra'));
  const doc = parseYaml(await readFile(path.join(workspace, '.gitlab-ci.yml'), 'utf8')) as Record<string, unknown> & { default: JobSpec; variables: Record<string, string> };
  const job = doc[jobName] as JobSpec;
  const home = await mkdtemp(path.join(ctx.work, 'gitlab-home-'));
  await mkdir(path.join(home, '.lockstep', 'bin'), { recursive: true });
  const lines = [...(job.before_script ?? doc.default.before_script ?? []), ...job.script];
  const installAt = lines.indexOf(INSTALL_LINE);
  if (installAt >= 0) await symlink(ctx.lockstep, path.join(home, '.lockstep', 'bin', 'lockstep'));

  const env: Record<string, string> = { PATH: process.env['PATH'] ?? '', HOME: home, CI: 'true', GITLAB_CI: 'true', CI_PROJECT_DIR: workspace, CI_COMMIT_SHA: sha, ...ctx.predefined };
  const expand = (value: string): string => value.replace(/\$(\w+)|\$\{(\w+)\}/g, (_m, a: string | undefined, b: string | undefined) => env[(a ?? b)!] ?? ctx.project[(a ?? b)!] ?? '');
  for (const [k, v] of Object.entries({ ...doc.variables, ...job.variables })) env[k] = expand(String(v));
  Object.assign(env, ctx.project);
  for (const [name, spec] of Object.entries(job.id_tokens ?? {})) env[name] = ctx.idToken(spec.aud);

  // Each line as the runner runs it: in one shell, stopping at the first that fails.
  const script = ['set -eo pipefail', ...lines.map((l, i) => (i === installAt ? ': install.sh: the build under test' : l))].join('\n');
  const { code, output } = await bash(script, workspace, env);
  const artifacts: Record<string, string> = {};
  if (code === 0) for (const p of job.artifacts?.paths ?? []) artifacts[p] = await readFile(path.join(workspace, p), 'utf8');
  return { code, output, workspace, artifacts };
}

function bash(script: string, cwd: string, env: Record<string, string>): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, output }));
  });
}
