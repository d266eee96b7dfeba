import { spawn, type ChildProcess } from 'node:child_process';
import { access, chmod, constants, cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { ROOT } from '../support/cli.js';
import { startFakeGitLab, type FakeGitLab } from './fake-gitlab.js';

// Issue 17.3: the CI templates' shell steps (examples/ci/scripts) run as the templates run them,
// against `lockstep serve`, with `gh` and GitLab's API stood in for by fakes that record what
// would have been posted.

const SCRIPTS = path.join(ROOT, 'examples', 'ci', 'scripts');
const TEMPLATES = path.join(ROOT, 'examples', 'ci');
const CANARY = 'CANARY-ci-7c41-bindpass';
const REPO = 'acme/infra';

let work: string;
let bin: string;
let serve: ChildProcess;
let serviceEnv: Record<string, string>;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}
const everything: string[] = [];

/** A script of examples/ci/scripts, run in `cwd` as a CI job would (lockstep on the PATH). */
function script(name: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [path.join(SCRIPTS, name), ...args], {
      cwd,
      env: { PATH: `${bin}:${process.env['PATH']}`, HOME: process.env['HOME'] ?? '/tmp', NO_COLOR: '1', ...serviceEnv, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      everything.push(stdout, stderr);
      resolve({ code: code ?? -1, stdout, stderr });
    });
  });
}

async function manifests(dir: string, groups: Record<string, string>): Promise<void> {
  await mkdir(path.join(dir, 'manifests'), { recursive: true });
  const lines = ['apiVersion: lockstep/v1', 'kind: LdapAuth', 'mount: ldap', 'config:', '  url: ldaps://ldap.example.com', '  binddn: cn=svc,dc=example,dc=com', '  bindpass: ${env:LDAP_BINDPASS}', 'groups:'];
  for (const [name, policy] of Object.entries(groups)) lines.push(`  ${name}: { policies: [${policy}] }`);
  await writeFile(path.join(dir, 'manifests', 'ldap.yaml'), lines.join('\n') + '\n');
}

/** A fresh checkout of the "repository" (another runner) at `name`. */
async function checkout(name: string, groups: Record<string, string>): Promise<string> {
  const dir = path.join(work, name);
  await manifests(dir, groups);
  return dir;
}

async function raw(method: string, p: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${serviceEnv['SERVICE_ADDR']}/${p}`, {
    method,
    headers: { 'X-Vault-Token': serviceEnv['SERVICE_TOKEN']!, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'lockstep-ci-'));
  bin = path.join(work, 'bin');
  await mkdir(bin);
  await writeFile(path.join(bin, 'lockstep'), `#!/bin/sh\nexec "${process.execPath}" "${ROOT}dist/cli.js" "$@"\n`);
  await chmod(path.join(bin, 'lockstep'), 0o755);
  await writeFile(path.join(bin, 'gh'), `#!/bin/sh\nexec "${process.execPath}" "${path.join(ROOT, 'test', 'ci', 'fake-gh.mjs')}" "$@"\n`);
  await chmod(path.join(bin, 'gh'), 0o755);
  serve = spawn(process.execPath, [`${ROOT}dist/cli.js`, 'serve', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const first = await new Promise<string>((resolve, reject) => {
    createInterface({ input: serve.stdout! }).on('line', (line) => line.includes(' root token: ') && resolve(line));
    serve.once('exit', (code) => reject(new Error(`lockstep serve exited (${code})`)));
  });
  const [, address, token] = /^cluster \S+: (\S+) root token: (\S+)$/.exec(first)!;
  serviceEnv = { SERVICE_ADDR: address!, SERVICE_TOKEN: token!, LDAP_BINDPASS: CANARY };
});

afterAll(async () => {
  serve?.kill('SIGKILL');
  if (work) await rm(work, { recursive: true, force: true });
});

describe('#17.3: the CI templates call scripts that exist', () => {
  it('every step of the GitHub and GitLab templates names a script of examples/ci/scripts, and every script is used by a template or a script it runs', async () => {
    const used = new Map<string, Set<string>>();
    const files = [...(await readdir(path.join(TEMPLATES, 'github'))).map((f) => path.join('github', f)), path.join('gitlab', '.gitlab-ci.yml')];
    for (const file of files) {
      const doc = parseYaml(await readFile(path.join(TEMPLATES, file), 'utf8'));
      const commands = JSON.stringify(doc).match(/ci\/lockstep\/[a-z-]+\.sh/g) ?? [];
      expect(commands.length, file).toBeGreaterThan(0);
      for (const c of commands) used.set(path.basename(c), (used.get(path.basename(c)) ?? new Set()).add(file.split('/')[0]!));
    }
    // Scripts run by other scripts (`"$(dirname "$0")/replan.sh"`) go where those go.
    const scripts = (await readdir(SCRIPTS)).filter((f) => f.endsWith('.sh') && f !== 'gitlab-lib.sh').sort();
    for (const s of scripts) {
      const calls = (await readFile(path.join(SCRIPTS, s), 'utf8')).match(/"\$\(dirname "\$0"\)\/([a-z-]+\.sh)"/g) ?? [];
      for (const call of calls) {
        const callee = /([a-z-]+\.sh)/.exec(call)![1]!;
        if (!scripts.includes(callee)) continue; // gitlab-lib.sh, sourced
        for (const where of used.get(s) ?? []) used.set(callee, (used.get(callee) ?? new Set()).add(where));
      }
    }
    expect([...used.keys()].sort()).toEqual(scripts);
    for (const s of scripts) await access(path.join(SCRIPTS, s), constants.X_OK);
    for (const [s, where] of used) {
      if (s.startsWith('github-')) expect([...where]).toEqual(['github']);
      else if (s.startsWith('gitlab-')) expect([...where]).toEqual(['gitlab']);
      else expect([...where].sort()).toEqual(['github', 'gitlab']);
    }
  });
});

describe('#24.7: the ID token request', () => {
  it('without id-token: write (no request URL, as for a fork) it stops saying so, and writes no token file', async () => {
    const dir = await mkdtemp(path.join(work, 'id-token-'));
    const r = await script('github-id-token.sh', ['lockstep'], dir, { RUNNER_TEMP: dir, GITHUB_ENV: path.join(dir, 'env') });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('give the job `permissions: id-token: write`');
    expect(await readdir(dir)).toEqual([]);
  });
});

describe('#17.3: GitHub Actions, step by step', () => {
  let state: string;
  const gh = { GH_TOKEN: 'ghs_fake', GH_REPO: REPO };
  const read = async (): Promise<any> => JSON.parse(await readFile(state, 'utf8'));

  beforeAll(async () => {
    state = path.join(work, 'gh-state.json');
    await writeFile(state, JSON.stringify({ repo: REPO, calls: [], comments: [], issues: [], labels: [], runs: [], nextId: 1 }));
  });

  it('pull request: plans, saves the plan and keeps one comment, updated on each push; a failed plan is shown there too', async () => {
    const env = { ...gh, FAKE_GH_STATE: state, PR_NUMBER: '7' };
    const pr = await checkout('gh-pr', { admins: 'admin' });
    const outputs = path.join(work, 'gh-output');
    const plan = await script('plan.sh', ['manifests/'], pr, { GITHUB_OUTPUT: outputs });
    expect(plan.code, plan.stderr).toBe(0);
    expect(await readFile(outputs, 'utf8')).toBe('changes=true\n');
    expect(plan.stdout).toContain('+ default:auth/ldap/groups/admins');
    await access(path.join(pr, '.lockstep', 'plan.json'));
    const posted = await script('github-comment.sh', ['.lockstep/comment.md'], pr, env);
    expect(posted.code, posted.stderr).toBe(0);
    let s = await read();
    expect(s.comments).toHaveLength(1);
    expect(s.comments[0].body).toMatch(/^<!-- lockstep: plan -->\n### lockstep plan: 2 to add/);

    // A new push: another group. The same comment now shows it.
    await manifests(pr, { admins: 'admin', readers: 'read' });
    expect((await script('plan.sh', ['manifests/'], pr)).code).toBe(0);
    expect((await script('github-comment.sh', ['.lockstep/comment.md'], pr, env)).stdout).toContain('updated comment');
    s = await read();
    expect(s.comments).toHaveLength(1);
    expect(s.comments[0].body).toContain('default:auth/ldap/groups/readers');

    // A push that breaks the manifests: the comment says why, where.
    await writeFile(path.join(pr, 'manifests', 'broken.yaml'), 'apiVersion: lockstep/v1\nkind: LdapAuth\nmount: ldap\ngroups:\n  x: { policies: 7 }\n');
    const broken = await script('plan.sh', ['manifests/'], pr);
    expect(broken.code).toBe(1);
    await script('github-comment.sh', ['.lockstep/comment.md'], pr, env);
    s = await read();
    expect(s.comments).toHaveLength(1);
    expect(s.comments[0].body).toContain('### lockstep plan failed');
    expect(s.comments[0].body).toMatch(/manifests\/broken\.yaml:5:\d+: error: /);
    await rm(path.join(pr, 'manifests', 'broken.yaml'));
    expect((await script('plan.sh', ['manifests/'], pr)).code).toBe(0);
    await script('github-comment.sh', ['.lockstep/comment.md'], pr, env);

    // What upload-artifact keeps: the run of the head commit. The runner is gone afterwards.
    const artifact = path.join(work, 'artifact-555');
    await mkdir(artifact);
    await cp(path.join(pr, '.lockstep', 'plan.json'), path.join(artifact, 'plan.json'));
    await rm(pr, { recursive: true });
    s = await read();
    s.runs.push({ databaseId: 555, workflow: 'lockstep-plan.yml', headSha: 'abc123', conclusion: 'success', artifacts: { 'lockstep-plan': artifact } });
    await writeFile(state, JSON.stringify(s));
  });

  it('merge: fetches the plan reviewed for the head commit and applies exactly it on another runner; a stale one is refused', async () => {
    const env = { ...gh, FAKE_GH_STATE: state, PR_NUMBER: '7', HEAD_SHA: 'abc123' };
    const merged = await checkout('gh-merged', { admins: 'admin', readers: 'read' });
    expect((await script('github-fetch-plan.sh', [], merged, { ...env, HEAD_SHA: 'fff999' })).stderr).toContain('no successful plan run for fff999');
    const fetched = await script('github-fetch-plan.sh', [], merged, env);
    expect(fetched.code, fetched.stderr).toBe(0);

    // Before it runs, someone edits the manifests on main: the plan is stale and nothing changes.
    const moved = await checkout('gh-moved', { admins: 'admin', readers: 'read', extra: 'x' });
    await cp(path.join(merged, '.lockstep'), path.join(moved, '.lockstep'), { recursive: true });
    const stale = await script('apply.sh', ['.lockstep/plan.json'], moved);
    expect(stale.code).toBe(1);
    expect(await readFile(path.join(moved, '.lockstep', 'apply.md'), 'utf8')).toContain('the saved plan is stale');
    expect((await raw('GET', 'auth/ldap/groups/admins')).status).toBe(404);

    // A refusal for any other reason than staleness (here a token the server refuses) is reported
    // as it is: the re-plan path is only for a stale plan.
    const refused = await script('apply.sh', ['.lockstep/plan.json', 'manifests/'], merged, { SERVICE_TOKEN: 'not-a-token' });
    expect(refused.code).toBe(1);
    expect(refused.stdout).not.toContain('planning again');
    expect(await readFile(path.join(merged, '.lockstep', 'apply.md'), 'utf8')).toContain('### lockstep apply failed (exit 1)');

    const applied = await script('apply.sh', ['.lockstep/plan.json'], merged);
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect((await raw('GET', 'auth/ldap/groups/readers')).body.data.policies).toEqual(['read']);
    expect((await script('github-comment.sh', ['.lockstep/apply.md', 'apply'], merged, env)).code).toBe(0);
    const s = await read();
    expect(s.comments.map((c: any) => c.body.split('\n')[0])).toEqual(['<!-- lockstep: plan -->', '<!-- lockstep: apply -->']);
    expect(s.comments[1].body).toContain('### lockstep apply: done');
  });

  it('schedule: drift opens one issue, updates it while the drift lasts, closes it when gone', async () => {
    const env = { ...gh, FAKE_GH_STATE: state };
    const main = await checkout('gh-main', { admins: 'admin', readers: 'read' });
    const clean = await script('drift.sh', ['manifests/'], main);
    expect(clean.stdout).toContain('drift=false');
    expect((await script('github-drift-issue.sh', ['close'], main, env)).code).toBe(0);
    expect((await read()).issues).toEqual([]);

    expect((await raw('POST', 'auth/ldap/groups/readers', { policies: 'everything' })).status).toBe(204);
    const outputs = path.join(work, 'gh-drift-output');
    const drift = await script('drift.sh', ['manifests/'], main, { GITHUB_OUTPUT: outputs });
    expect(drift.code, drift.stderr).toBe(0);
    expect(await readFile(outputs, 'utf8')).toBe('drift=true\n');
    expect((await script('github-drift-issue.sh', ['open', '.lockstep/drift.md'], main, env)).code).toBe(0);
    expect((await raw('DELETE', 'auth/ldap/groups/admins')).status).toBe(204);
    await script('drift.sh', ['manifests/'], main);
    expect((await script('github-drift-issue.sh', ['open', '.lockstep/drift.md'], main, env)).stdout).toContain('updated drift issue');
    let s = await read();
    expect(s.issues).toHaveLength(1);
    expect(s.issues[0]).toMatchObject({ state: 'open', labels: ['lockstep-drift'] });
    expect(s.issues[0].body).toContain('~ default:auth/ldap/groups/readers');
    expect(s.issues[0].body).toContain('default:auth/ldap/groups/admins');

    const fixed = await script('apply.sh', ['manifests/'], main);
    expect(fixed.code).toBe(1); // a manifest path asks for approval: CI applies saved plans only
    expect((await script('plan.sh', ['manifests/'], main)).code).toBe(0);
    expect((await script('apply.sh', ['.lockstep/plan.json'], main)).code).toBe(0);
    expect((await script('drift.sh', ['manifests/'], main)).stdout).toContain('drift=false');
    expect((await script('github-drift-issue.sh', ['close'], main, env)).stdout).toContain('closed drift issue');
    s = await read();
    expect(s.issues[0].state).toBe('closed');
    expect(JSON.stringify(s)).not.toContain(CANARY);
  });
});

describe('#17.3: GitLab CI, step by step', () => {
  let gitlab: FakeGitLab;
  const env = (): Record<string, string> => ({ CI_API_V4_URL: gitlab.apiUrl, CI_PROJECT_ID: gitlab.projectId, GITLAB_TOKEN: gitlab.token });

  beforeAll(async () => {
    gitlab = await startFakeGitLab();
  });
  afterAll(async () => gitlab?.close());

  it('merge request: one note, updated on each push; merge: the plan of the reviewed head applied; schedule: one drift issue', async () => {
    await raw('DELETE', 'auth/ldap/groups/admins');
    const mr = await checkout('gl-mr', { admins: 'admin', readers: 'read', writers: 'write' });
    const mrEnv = { ...env(), CI_MERGE_REQUEST_IID: '3' };
    expect((await script('plan.sh', ['manifests/'], mr)).code).toBe(0);
    expect((await script('gitlab-comment.sh', ['.lockstep/comment.md'], mr, mrEnv)).stdout).toContain('commented on !3');
    expect((await script('plan.sh', ['manifests/'], mr)).code).toBe(0);
    expect((await script('gitlab-comment.sh', ['.lockstep/comment.md'], mr, mrEnv)).stdout).toMatch(/updated note \d+ on !3/);
    expect(gitlab.notes).toHaveLength(1);
    expect(gitlab.notes[0]!.body).toMatch(/^<!-- lockstep: plan -->\n### lockstep plan: 2 to add/);
    expect((await script('gitlab-comment.sh', ['.lockstep/comment.md'], mr, { ...mrEnv, GITLAB_TOKEN: 'wrong' })).code).not.toBe(0);

    // The merge request's pipelines: an older head, then the reviewed one with its plan job.
    const plan = await readFile(path.join(mr, '.lockstep', 'plan.json'), 'utf8');
    gitlab.mergeRequests.push({ iid: 3, sha: 'b0b0b0', state: 'merged', mergeCommit: 'feed01' });
    gitlab.pipelines.push({ id: 1, mr: 3, sha: 'a1a1a1', status: 'success', jobs: [{ id: 11, name: 'lockstep-plan', status: 'success', artifacts: { '.lockstep/plan.json': '{}' } }] });
    gitlab.pipelines.push({ id: 2, mr: 3, sha: 'b0b0b0', status: 'success', jobs: [{ id: 21, name: 'lockstep-plan', status: 'success', artifacts: { '.lockstep/plan.json': plan } }] });
    await rm(mr, { recursive: true });
    const main = await checkout('gl-main', { admins: 'admin', readers: 'read', writers: 'write' });
    const fetched = await script('gitlab-fetch-plan.sh', [], main, { ...env(), CI_COMMIT_SHA: 'feed01' });
    expect(fetched.code, fetched.stderr).toBe(0);
    expect(fetched.stdout).toContain('fetched the plan of job 21 (pipeline 2, !3 at b0b0b0)');
    expect((await script('gitlab-fetch-plan.sh', [], main, { ...env(), CI_COMMIT_SHA: 'dead00' })).stderr).toContain('no merged merge request for dead00');
    const applied = await script('apply.sh', ['.lockstep/plan.json'], main);
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect((await raw('GET', 'auth/ldap/groups/writers')).body.data.policies).toEqual(['write']);
    const iid = (await readFile(path.join(main, '.lockstep', 'merge-request'), 'utf8')).trim();
    expect((await script('gitlab-comment.sh', ['.lockstep/apply.md', 'apply'], main, { ...env(), CI_MERGE_REQUEST_IID: iid })).code).toBe(0);
    expect(gitlab.notes.map((n) => n.body.split('\n')[0])).toEqual(['<!-- lockstep: plan -->', '<!-- lockstep: apply -->']);

    // The drift check, as the template's job runs it.
    const drift = async (): Promise<void> => {
      expect((await script('drift.sh', ['manifests/'], main)).code).toBe(0);
      const drifting = (await readFile(path.join(main, '.lockstep', 'drift'), 'utf8')).trim() === 'true';
      const r = await script('gitlab-drift-issue.sh', drifting ? ['open', '.lockstep/drift.md'] : ['close'], main, env());
      expect(r.code, r.stderr).toBe(0);
    };
    await drift();
    expect(gitlab.issues).toEqual([]);
    await raw('POST', 'auth/ldap/groups/writers', { policies: 'root' });
    await drift();
    await raw('DELETE', 'auth/ldap/groups/readers');
    await drift();
    expect(gitlab.issues).toHaveLength(1);
    expect(gitlab.issues[0]).toMatchObject({ state: 'opened', labels: ['lockstep-drift'] });
    expect(gitlab.issues[0]!.description).toContain('+ default:auth/ldap/groups/readers');
    expect((await script('plan.sh', ['manifests/'], main)).code).toBe(0);
    expect((await script('apply.sh', ['.lockstep/plan.json'], main)).code).toBe(0);
    await drift();
    expect(gitlab.issues[0]!.state).toBe('closed');
    expect(gitlab.issues[0]!.notes).toEqual(['The servers match the manifests again.']);
    expect(JSON.stringify(gitlab.requests)).not.toContain(CANARY);
  });

  it('no secret in anything the scripts printed or posted', () => {
    expect(everything.join('\n').length).toBeGreaterThan(1_000);
    expect(everything.join('\n')).not.toContain(CANARY);
  });
});
