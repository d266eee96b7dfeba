import { execFile } from 'node:child_process';
import { chmod, cp, mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from '../support/cli.js';

const run = promisify(execFile);

/**
 * An empty repository into which examples/ci is pasted as docs/ci.md says: the GitHub workflows
 * in .github/workflows/, the GitLab pipeline as .gitlab-ci.yml, the scripts in ci/lockstep/. A
 * bare `origin` with `main`, and clones of it for the people who branch, merge and push, and for
 * each CI job (a fresh runner).
 */
export interface PastedRepo {
  origin: string;
  /** Runs git in `dir` (a clone), returning its stdout trimmed. */
  git(dir: string, ...args: string[]): Promise<string>;
  /**
   * A new clone of origin at `ref` (a branch or commit), for a job or a person; at `at` when
   * given (whatever was there before removed: a CI job's checkout lies at the same path on every
   * run, as on hosted runners), else in a directory of its own.
   */
  clone(name: string, ref?: string, at?: string): Promise<string>;
  /** Commits `files` (path → text) on a new branch from main, pushed; returns the head commit. */
  branch(name: string, files: Record<string, string>): Promise<string>;
  /** Merges the branch into main with a merge commit (as a pull request's merge), pushed; returns the merge commit. */
  merge(branch: string): Promise<string>;
  /** The commit `ref` names on origin. */
  sha(ref: string): Promise<string>;
}

export async function pastedRepo(work: string, manifests: Record<string, string>): Promise<PastedRepo> {
  const origin = path.join(work, 'origin.git');
  const git = async (dir: string, ...args: string[]): Promise<string> =>
    (await run('git', ['-c', 'user.name=CI test', '-c', 'user.email=ci@example.com', '-c', 'init.defaultBranch=main', ...args], { cwd: dir })).stdout.trim();
  await mkdir(origin, { recursive: true });
  await git(origin, 'init', '--bare', '--quiet');

  const seed = path.join(work, 'seed');
  await mkdir(seed);
  await git(seed, 'init', '--quiet');
  await git(seed, 'checkout', '--quiet', '-b', 'main');
  // As pasted: the templates and scripts where docs/ci.md puts them, modes kept.
  await mkdir(path.join(seed, '.github', 'workflows'), { recursive: true });
  for (const f of await readdir(path.join(ROOT, 'examples', 'ci', 'github'))) await cp(path.join(ROOT, 'examples', 'ci', 'github', f), path.join(seed, '.github', 'workflows', f));
  await cp(path.join(ROOT, 'examples', 'ci', 'gitlab', '.gitlab-ci.yml'), path.join(seed, '.gitlab-ci.yml'));
  await mkdir(path.join(seed, 'ci', 'lockstep'), { recursive: true });
  for (const f of await readdir(path.join(ROOT, 'examples', 'ci', 'scripts'))) {
    const from = path.join(ROOT, 'examples', 'ci', 'scripts', f);
    await cp(from, path.join(seed, 'ci', 'lockstep', f));
    await chmod(path.join(seed, 'ci', 'lockstep', f), (await stat(from)).mode);
  }
  await writeFiles(seed, manifests);
  await git(seed, 'add', '-A');
  await git(seed, 'commit', '--quiet', '-m', 'lockstep: manifests and CI');
  await git(seed, 'remote', 'add', 'origin', origin);
  await git(seed, 'push', '--quiet', 'origin', 'main');

  let clones = 0;
  const repo: PastedRepo = {
    origin,
    git,
    sha: async (ref) => git(origin, 'rev-parse', `${ref}^{commit}`),
    clone: async (name, ref = 'main', at) => {
      const dir = at ?? path.join(work, `${name}-${++clones}`);
      if (at) await rm(at, { recursive: true, force: true });
      await mkdir(path.dirname(dir), { recursive: true });
      await git(work, 'clone', '--quiet', origin, dir);
      await git(dir, 'checkout', '--quiet', '--detach', ref);
      return dir;
    },
    branch: async (name, files) => {
      const dir = await repo.clone(`author-${name}`);
      await git(dir, 'checkout', '--quiet', '-b', name, 'origin/main');
      await writeFiles(dir, files);
      await git(dir, 'add', '-A');
      await git(dir, 'commit', '--quiet', '-m', name);
      await git(dir, 'push', '--quiet', 'origin', name);
      return git(dir, 'rev-parse', 'HEAD');
    },
    merge: async (branch) => {
      const dir = await repo.clone(`merge-${branch}`);
      await git(dir, 'checkout', '--quiet', '-B', 'main', 'origin/main');
      await git(dir, 'merge', '--quiet', '--no-ff', '-m', `Merge ${branch}`, `origin/${branch}`);
      await git(dir, 'push', '--quiet', 'origin', 'main');
      return git(dir, 'rev-parse', 'HEAD');
    },
  };
  return repo;
}

async function writeFiles(dir: string, files: Record<string, string>): Promise<void> {
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), text);
  }
}
