import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../support/cli.js';
import { useRealServer } from '../support/real-server.js';
import { runWorkflowJob, type ActionsContext, type ActionsEvent, type JobResult } from './actions-runner.js';
import { startFakeGitLab, type FakeGitLab } from './fake-gitlab.js';
import { runGitLabJob, type GitLabContext } from './gitlab-runner.js';
import { startOidcProvider, type OidcProvider } from './oidc.js';
import { pastedRepo, type PastedRepo } from './repo.js';

// Issue 24.7: the CI templates as pasted into an empty repository (docs/ci.md: the workflows in
// .github/workflows/, .gitlab-ci.yml, the scripts in ci/lockstep/), their jobs run from there
// by test runners that read the YAML, against a real server. Each job logs in with an ID token
// as the CI provider issues it (id-token: write on GitHub, id_tokens on GitLab), signed by a key
// whose JWKS the server's JWT method trusts: plan and drift as a role that may only read, apply
// as one that may write, every login token revoked when lockstep is done. The real server
// enforces those policies; `serve` does not serve ACL policies yet (issue 23.2), so there a
// login token could do nothing. Main moving after a review: the apply job plans again on the
// merge commit and applies only the reviewed changes.

const server = useRealServer();
const CANARY = 'CANARY-pasted-5d17-bindpass';
const REPOSITORY = 'acme/infra';

let work: string;
let bin: string;
let lockstep: string;
let github: OidcProvider;
let gitlabIds: OidcProvider;
const printed: string[] = [];

const ldap = (mount: string, groups: Record<string, string>): string =>
  [
    'apiVersion: lockstep/v1',
    'kind: LdapAuth',
    `mount: ${mount}`,
    'config:',
    '  url: ldaps://ldap.example.com',
    '  binddn: cn=svc,dc=example,dc=com',
    '  bindpass: ${env:LDAP_BINDPASS}',
    'groups:',
    ...Object.entries(groups).map(([name, policies]) => `  ${name}: { policies: [${policies}] }`),
    '',
  ].join('\n');

async function group(mount: string, name: string): Promise<unknown> {
  const res = await server().raw('GET', `auth/${mount}/groups/${name}`);
  return res.status === 404 ? undefined : (res.body as { data: { policies: string[] } }).data.policies;
}

/** The tokens alive on the server: the root token only, once every login was revoked. */
async function liveAccessors(): Promise<number> {
  const res = await server().raw('LIST', 'auth/token/accessors');
  return (res.body as { data: { keys: string[] } }).data.keys.length;
}

/** What the root token's plan says of a checkout: nothing left to do. */
async function expectClean(dir: string): Promise<void> {
  const plan = await runCli(['plan', 'manifests/', '--detailed-exitcode'], { cwd: dir, env: { ...server().env, LDAP_BINDPASS: CANARY } });
  expect(plan.code, plan.stdout + plan.stderr).toBe(0);
}

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'lockstep-pasted-'));
  bin = path.join(work, 'bin');
  await mkdir(bin);
  lockstep = path.join(bin, 'lockstep');
  await writeFile(lockstep, `#!/bin/sh\nexec "${process.execPath}" "${ROOT}dist/cli.js" "$@"\n`);
  await chmod(lockstep, 0o755);
  await writeFile(path.join(bin, 'gh'), `#!/bin/sh\nexec "${process.execPath}" "${path.join(ROOT, 'test', 'ci', 'fake-gh.mjs')}" "$@"\n`);
  await chmod(path.join(bin, 'gh'), 0o755);
  github = await startOidcProvider('token.actions.githubusercontent');
  gitlabIds = await startOidcProvider('gitlab');

  // The server's side, as docs/ci.md sets it up: a policy that reads, one that writes, and per
  // CI provider a JWT method trusting its JWKS with a role for each.
  const s = server();
  const read = 'path "*" { capabilities = ["read", "list"] }';
  const write = 'path "*" { capabilities = ["create", "read", "update", "delete", "list", "sudo"] }';
  for (const [p, body] of [
    ['sys/policies/acl/lockstep-plan', { policy: read }],
    ['sys/policies/acl/lockstep-apply', { policy: write }],
    ['sys/auth/github', { type: 'jwt' }],
    ['auth/github/config', { jwks_url: github.jwksUrl, bound_issuer: github.issuer }],
    ['auth/github/role/lockstep-plan', { role_type: 'jwt', bound_audiences: ['lockstep'], user_claim: 'sub', bound_claims: { sub: [`repo:${REPOSITORY}:pull_request`, `repo:${REPOSITORY}:ref:refs/heads/main`] }, token_policies: ['lockstep-plan'], token_ttl: '10m' }],
    ['auth/github/role/lockstep-apply', { role_type: 'jwt', bound_audiences: ['lockstep'], user_claim: 'sub', bound_claims: { sub: `repo:${REPOSITORY}:environment:production` }, token_policies: ['lockstep-apply'], token_ttl: '10m' }],
    ['sys/auth/gitlab', { type: 'jwt' }],
    ['auth/gitlab/config', { jwks_url: gitlabIds.jwksUrl, bound_issuer: gitlabIds.issuer }],
    ['auth/gitlab/role/lockstep-plan', { role_type: 'jwt', bound_audiences: ['lockstep'], user_claim: 'sub', bound_claims: { project_path: REPOSITORY }, token_policies: ['lockstep-plan'], token_ttl: '10m' }],
    ['auth/gitlab/role/lockstep-apply', { role_type: 'jwt', bound_audiences: ['lockstep'], user_claim: 'sub', bound_claims: { project_path: REPOSITORY, ref: 'main', ref_protected: 'true' }, token_policies: ['lockstep-apply'], token_ttl: '10m' }],
  ] as const) {
    const res = await s.raw('POST', p, body);
    expect(res.status, `${p}: ${res.text}`).toBeLessThan(300);
  }
});

afterAll(async () => {
  await github?.close();
  await gitlabIds?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('#24.7: GitHub Actions, the workflows as pasted', { timeout: 120_000 }, () => {
  let repo: PastedRepo;
  let ctx: ActionsContext;
  let ghState: string;
  let runs = 100;
  const gh = async (): Promise<{ comments: Array<{ issue: number; body: string }>; issues: Array<{ state: string; body: string }>; runs: unknown[] }> => JSON.parse(await readFile(ghState, 'utf8'));

  beforeAll(async () => {
    repo = await pastedRepo(path.join(work, 'github'), { 'manifests/ldap.yaml': ldap('ldap', { admins: 'admin' }) });
    ghState = path.join(work, 'gh-state.json');
    await writeFile(ghState, JSON.stringify({ repo: REPOSITORY, calls: [], comments: [], issues: [], labels: [], runs: [], nextId: 1 }));
    ctx = {
      repo,
      work,
      bin,
      env: { HOME: work, NO_COLOR: '1', FAKE_GH_STATE: ghState },
      vars: { LOCKSTEP_ADDR: server().addr, LOCKSTEP_PLAN_ROLE: 'lockstep-plan', LOCKSTEP_APPLY_ROLE: 'lockstep-apply', LOCKSTEP_AUTH_MOUNT: 'github', LOCKSTEP_TARBALL_URL: 'https://example.com/lockstep.tgz', LOCKSTEP_TARBALL_SHA256: 'f'.repeat(64) },
      secrets: { LDAP_BINDPASS: CANARY },
      repository: REPOSITORY,
      idToken: () => ({ url: '', token: '' }),
    };
  });

  /** GitHub's ID token claims for a job: its environment, else the event's ref. */
  function claimsFor(event: ActionsEvent, branch: string): (job: { environment?: string }) => { url: string; token: string } {
    return (job) => {
      const sub = job.environment ? `repo:${REPOSITORY}:environment:${job.environment}` : event.name === 'pull_request' ? `repo:${REPOSITORY}:pull_request` : `repo:${REPOSITORY}:ref:refs/heads/${branch}`;
      return github.githubRequest({ sub, repository: REPOSITORY, ref: `refs/heads/${branch}`, ...(job.environment ? { environment: job.environment } : {}) });
    };
  }

  async function job(workflow: string, name: string, event: ActionsEvent, branch: string): Promise<JobResult> {
    const result = await runWorkflowJob({ ...ctx, idToken: claimsFor(event, branch) }, workflow, name, event);
    printed.push(result.log);
    return result;
  }

  /** A pull request's plan run for its head commit, kept as GitHub keeps the run and its artifact. */
  async function planPullRequest(number: number, branch: string, files: Record<string, string>): Promise<{ head: string; result: JobResult }> {
    const head = await repo.branch(branch, files);
    const result = await job('lockstep-plan.yml', 'plan', { name: 'pull_request', sha: head, payload: { pull_request: { number, head: { sha: head } } } }, branch);
    const s = await gh();
    s.runs.push({ databaseId: ++runs, workflow: 'lockstep-plan.yml', headSha: head, conclusion: result.conclusion, artifacts: result.artifacts });
    await writeFile(ghState, JSON.stringify(s));
    return { head, result };
  }

  async function mergeAndApply(number: number, branch: string, head: string): Promise<JobResult> {
    const merged = await repo.merge(branch);
    const payload = { pull_request: { number, merged: true, merge_commit_sha: merged, head: { sha: head } } };
    return job('lockstep-apply.yml', 'apply', { name: 'pull_request', sha: merged, payload }, 'main');
  }

  const commentOn = async (number: number, marker: string): Promise<string> => (await gh()).comments.find((c) => c.issue === number && c.body.startsWith(`<!-- lockstep: ${marker} -->`))?.body ?? '';

  it('pull request → plan comment; merge → the reviewed plan applied, logged in with ID tokens, every login token revoked', async () => {
    const tokensBefore = await liveAccessors();
    const { head, result } = await planPullRequest(7, 'readers', { 'manifests/ldap.yaml': ldap('ldap', { admins: 'admin', readers: 'read' }) });
    expect(result.conclusion, result.log).toBe('success');
    expect(result.steps.map((s) => s.outcome)).not.toContain('skipped');
    expect(result.artifacts['lockstep-plan']).toBeDefined();
    expect(await commentOn(7, 'plan')).toContain('default:auth/ldap/groups/readers');

    const apply = await mergeAndApply(7, 'readers', head);
    expect(apply.conclusion, apply.log).toBe('success');
    expect(await group('ldap', 'readers')).toEqual(['read']);
    expect(await commentOn(7, 'apply')).toContain('### lockstep apply: done');
    expect(await liveAccessors()).toBe(tokensBefore);
    await expectClean(apply.workspace);
  });

  it('main moved with an unrelated change after the review: planned again on the merge commit, the same changes, applied', async () => {
    const writers = await planPullRequest(8, 'writers', { 'manifests/ldap.yaml': ldap('ldap', { admins: 'admin', readers: 'read', writers: 'write' }) });
    expect(writers.result.conclusion, writers.result.log).toBe('success');
    // Another pull request, on another file, is reviewed, merged and applied first.
    const partners = await planPullRequest(9, 'partners', { 'manifests/partners.yaml': ldap('partners', { staff: 'read' }) });
    expect((await mergeAndApply(9, 'partners', partners.head)).conclusion).toBe('success');
    expect(await group('partners', 'staff')).toEqual(['read']);

    const apply = await mergeAndApply(8, 'writers', writers.head);
    expect(apply.conclusion, apply.log).toBe('success');
    expect(apply.log).toContain('the saved plan is stale: the manifests changed since it was made');
    expect(apply.log).toContain('The new plan makes exactly the reviewed changes: applying it.');
    expect(await group('ldap', 'writers')).toEqual(['write']);
    expect(await commentOn(8, 'apply')).toContain('### lockstep apply: done (planned again on the merge commit: exactly the reviewed changes)');
    await expectClean(apply.workspace);
  });

  it('main moved with a change that was not reviewed with it: the new plan commented, nothing applied, the job fails', async () => {
    const audit = await planPullRequest(10, 'readers-audit', { 'manifests/ldap.yaml': ldap('ldap', { admins: 'admin', readers: 'read, audit', writers: 'write' }) });
    expect(audit.result.conclusion, audit.result.log).toBe('success');
    // Merged to main meanwhile, its own apply not run (cancelled): main now holds a change nobody applied.
    const ops = await repo.branch('ops', { 'manifests/partners.yaml': ldap('partners', { staff: 'read', ops: 'root' }) });
    expect(ops).toMatch(/^[0-9a-f]{40}$/);
    await repo.merge('ops');

    const apply = await mergeAndApply(10, 'readers-audit', audit.head);
    expect(apply.conclusion).toBe('failure');
    expect(apply.steps.find((s) => s.name === 'comment')?.outcome).toBe('success');
    const comment = await commentOn(10, 'apply');
    expect(comment).toContain('### lockstep apply: not applied, the plan on the merge commit is not the reviewed one');
    expect(comment).toContain('+ default:auth/partners/groups/ops (create): not in the reviewed plan');
    expect(comment).toContain('Nothing was changed.');
    expect(comment).toMatch(/### lockstep plan: 1 to add, 1 to change/);
    expect(await group('ldap', 'readers')).toEqual(['read']);
    expect(await group('partners', 'ops')).toBeUndefined();
  });

  it('schedule: the drift check logs in as the plan role and opens the issue', async () => {
    const main = await repo.sha('main');
    const drift = await job('lockstep-drift.yml', 'drift', { name: 'schedule', sha: main, payload: {} }, 'main');
    expect(drift.conclusion, drift.log).toBe('success');
    expect(drift.steps.find((s) => s.name === 'open or update the drift issue')?.outcome).toBe('success');
    expect(drift.steps.find((s) => s.name === 'close the drift issue')?.outcome).toBe('skipped');
    const issues = (await gh()).issues;
    expect(issues).toHaveLength(1);
    expect(issues[0]!.body).toContain('default:auth/partners/groups/ops');
  });

  it("the plan role's token may not write: a pull request's ID token cannot apply", async () => {
    const dir = await repo.clone('pr-apply', 'main');
    const jwt = github.sign({ sub: `repo:${REPOSITORY}:pull_request`, aud: 'lockstep' });
    const env = { SERVICE_ADDR: server().addr, SERVICE_AUTH_METHOD: 'jwt', SERVICE_AUTH_MOUNT: 'github', SERVICE_AUTH_JWT: jwt, LDAP_BINDPASS: CANARY };
    const asPlan = await runCli(['apply', 'manifests/', '--auto-approve'], { cwd: dir, env: { ...env, SERVICE_AUTH_ROLE: 'lockstep-plan' } });
    expect(asPlan.code).toBe(1);
    expect(asPlan.stdout + asPlan.stderr).toContain('403');
    expect(await group('partners', 'ops')).toBeUndefined();
    const asApply = await runCli(['plan', 'manifests/'], { cwd: dir, env: { ...env, SERVICE_AUTH_ROLE: 'lockstep-apply' } });
    expect(asApply.code).toBe(1);
    expect(asApply.stderr).toContain('error validating claims');
    printed.push(asPlan.stdout, asPlan.stderr, asApply.stdout, asApply.stderr);
  });

  it('every action is pinned by a commit, with its release in a comment', async () => {
    for (const file of ['lockstep-plan.yml', 'lockstep-apply.yml', 'lockstep-drift.yml']) {
      const text = await readFile(path.join(ROOT, 'examples', 'ci', 'github', file), 'utf8');
      const uses = text.split('\n').filter((l) => /^\s*(-\s+)?uses:/.test(l));
      expect(uses.length, file).toBeGreaterThan(0);
      for (const line of uses) expect(line, file).toMatch(/uses: [\w.-]+\/[\w.-]+@[0-9a-f]{40} # v\d+(\.\d+){0,2}$/);
    }
  });
});

describe('#24.7: GitLab CI, the pipeline as pasted', { timeout: 120_000 }, () => {
  let repo: PastedRepo;
  let gitlab: FakeGitLab;
  let nextPipeline = 1;

  beforeAll(async () => {
    repo = await pastedRepo(path.join(work, 'gitlab'), { 'manifests/ldap.yaml': ldap('gl-ldap', { admins: 'admin' }) });
    gitlab = await startFakeGitLab();
  });
  afterAll(async () => gitlab?.close());

  function context(predefined: Record<string, string>, ref: string): GitLabContext {
    return {
      repo,
      work,
      lockstep,
      project: {
        SERVICE_ADDR: server().addr,
        SERVICE_AUTH_MOUNT: 'gitlab',
        LOCKSTEP_PLAN_ROLE: 'lockstep-plan',
        LOCKSTEP_APPLY_ROLE: 'lockstep-apply',
        LOCKSTEP_TARBALL_URL: 'https://example.com/lockstep.tgz',
        LOCKSTEP_TARBALL_SHA256: 'f'.repeat(64),
        LDAP_BINDPASS: CANARY,
        GITLAB_TOKEN: gitlab.token,
      },
      predefined: { CI_API_V4_URL: gitlab.apiUrl, CI_PROJECT_ID: gitlab.projectId, CI_DEFAULT_BRANCH: 'main', NO_COLOR: '1', ...predefined },
      idToken: (aud) =>
        gitlabIds.sign({ aud, sub: `project_path:${REPOSITORY}:ref_type:branch:ref:${ref}`, project_path: REPOSITORY, ref, ref_type: 'branch', ref_protected: ref === 'main' ? 'true' : 'false' }),
    };
  }

  async function planMergeRequest(iid: number, branch: string, files: Record<string, string>): Promise<string> {
    const head = await repo.branch(branch, files);
    const job = await runGitLabJob(context({ CI_PIPELINE_SOURCE: 'merge_request_event', CI_MERGE_REQUEST_IID: String(iid), CI_COMMIT_BRANCH: '' }, branch), 'lockstep-plan', head);
    printed.push(job.output);
    expect(job.code, job.output).toBe(0);
    const id = nextPipeline++;
    gitlab.pipelines.push({ id, mr: iid, sha: head, status: 'success', jobs: [{ id: id * 10, name: 'lockstep-plan', status: 'success', artifacts: job.artifacts }] });
    return head;
  }

  async function mergeAndApply(iid: number, branch: string, head: string): Promise<{ code: number; output: string; workspace: string }> {
    const merged = await repo.merge(branch);
    gitlab.mergeRequests.push({ iid, sha: head, state: 'merged', mergeCommit: merged });
    const job = await runGitLabJob(context({ CI_PIPELINE_SOURCE: 'push', CI_COMMIT_BRANCH: 'main' }, 'main'), 'lockstep-apply', merged);
    printed.push(job.output);
    return job;
  }

  it('merge requests planned with id_tokens; main moved: the reviewed changes planned again and applied; the drift check clean', async () => {
    // The server matches main to begin with.
    const setup = await runCli(['apply', 'manifests/', '--auto-approve'], { cwd: await repo.clone('setup'), env: { ...server().env, LDAP_BINDPASS: CANARY } });
    expect(setup.code, setup.stderr).toBe(0);
    const tokensBefore = await liveAccessors();
    const readers = await planMergeRequest(3, 'readers', { 'manifests/ldap.yaml': ldap('gl-ldap', { admins: 'admin', readers: 'read' }) });
    const partners = await planMergeRequest(4, 'partners', { 'manifests/partners.yaml': ldap('gl-partners', { staff: 'read' }) });
    expect(gitlab.notes.map((n) => n.mr)).toEqual([3, 4]);

    const first = await mergeAndApply(4, 'partners', partners);
    expect(first.code, first.output).toBe(0);
    expect(await group('gl-partners', 'staff')).toEqual(['read']);
    const second = await mergeAndApply(3, 'readers', readers);
    expect(second.code, second.output).toBe(0);
    expect(second.output).toContain('The new plan makes exactly the reviewed changes: applying it.');
    expect(await group('gl-ldap', 'readers')).toEqual(['read']);
    expect(gitlab.notes.find((n) => n.mr === 3 && n.body.startsWith('<!-- lockstep: apply -->'))?.body).toContain('planned again on the merge commit');
    expect(await liveAccessors()).toBe(tokensBefore);
    await expectClean(second.workspace);

    const drift = await runGitLabJob(context({ CI_PIPELINE_SOURCE: 'schedule', CI_COMMIT_BRANCH: 'main' }, 'main'), 'lockstep-drift', await repo.sha('main'));
    printed.push(drift.output);
    expect(drift.code, drift.output).toBe(0);
    expect(drift.output).toContain('drift=false');
    expect(gitlab.issues).toEqual([]);
    expect(JSON.stringify(gitlab.requests)).not.toContain(CANARY);
  });
});

describe('#24.7: nothing secret in what the jobs printed or posted', () => {
  it('neither the bind password nor any ID token', async () => {
    const all = printed.join('\n') + (await readFile(path.join(work, 'gh-state.json'), 'utf8'));
    expect(all.length).toBeGreaterThan(2_000);
    expect(all).not.toContain(CANARY);
    for (const token of [...github.issued, ...gitlabIds.issued]) expect(all).not.toContain(token);
  });
});
