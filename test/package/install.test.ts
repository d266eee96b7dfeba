import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/cli.js';

// Issue 17.2: what `npm pack` makes installs into an empty prefix and runs from there, away
// from the repository: `validate`, `plan`, `apply` and `serve`, the schemas where editors find
// them, installed the way the CI templates do (examples/ci/scripts/install.sh). The pack is the one `npm test` just built (`--ignore-scripts`: prepack would rebuild
// dist/ under the other tests' feet). The dependencies come from the npm cache `npm ci` filled:
// `--offline`, or `--prefer-offline` where the cache lacks the registry's package lists (a fresh
// machine: `npm ci` fetches tarballs, not lists).

const INSTALL_TIMEOUT_MS = 240_000;
const CANARY = 'CANARY-pkg-3b9e-bindpass';

let work: string;
let prefix: string;
let tarball: string;
let installedRoot: string;
let bin: string;
let installSeconds = 0;

/** The environment of a user's shell: the npm_* variables of the `npm test` around us left out. */
function userEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined && !/^npm_/i.test(e[0])));
  const nodedir = process.env['npm_config_nodedir'];
  return { ...env, ...(nodedir ? { npm_config_nodedir: nodedir } : {}), NO_COLOR: '1', ...extra };
}

function run(command: string, args: string[], opts: { cwd?: string; env?: Record<string, string> } = {}): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(command, args, { cwd: opts.cwd ?? work, env: opts.env ?? userEnv(), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return { code: r.status ?? -1, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}

/** As the CI templates install it: examples/ci/scripts/install.sh, the tarball's SHA-256 checked, its shrinkwrap obeyed. */
function install(mode: '--offline' | '--prefer-offline'): { code: number; stdout: string; stderr: string } {
  const sha256 = createHash('sha256').update(readFileSync(tarball)).digest('hex');
  return run('bash', [path.join(ROOT, 'examples', 'ci', 'scripts', 'install.sh'), pathToFileURL(tarball).href, sha256, prefix], { env: userEnv({ LOCKSTEP_NPM_FLAGS: mode }) });
}

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'lockstep-package-'));
  prefix = path.join(work, 'prefix');
  const packed = run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], { cwd: ROOT });
  expect(packed.code, packed.stderr).toBe(0);
  const [info] = JSON.parse(packed.stdout) as Array<{ filename: string }>;
  tarball = path.join(work, info!.filename);
  const started = Date.now();
  let installed = install('--offline');
  if (installed.code !== 0 && /ENOTCACHED/.test(installed.stderr)) installed = install('--prefer-offline');
  installSeconds = (Date.now() - started) / 1000;
  expect(installed.code, installed.stdout + installed.stderr).toBe(0);
  expect(installed.stderr).not.toContain('not yet covered by allowScripts');
  installedRoot = path.join(prefix, 'lib', 'lockstep');
  bin = path.join(prefix, 'bin', 'lockstep');
}, INSTALL_TIMEOUT_MS);

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

/** The installed command, run from a folder outside the repository. */
function lockstep(args: string[], env: Record<string, string> = {}): { code: number; stdout: string; stderr: string } {
  return run(bin, args, { cwd: work, env: userEnv(env) });
}

describe('#17.2: the npm package', () => {
  it('holds what a user needs and nothing else', () => {
    const files = run('tar', ['-tzf', tarball]).stdout.trim().split('\n').map((f) => f.replace(/^package\//, ''));
    const top = [...new Set(files.map((f) => (f.startsWith('dist/') ? f.split('/').slice(0, f.startsWith('dist/validate/') ? 3 : 2).join('/') : f.split('/')[0]!)))].sort();
    expect(top).toEqual(['README.md', 'dist/cli-chunks', 'dist/cli.js', 'dist/validate/precompiled', 'docs', 'npm-shrinkwrap.json', 'package.json', 'schemas']);
    expect(files.filter((f) => /\.(ts|map)$/.test(f) || f.startsWith('src/') || f.startsWith('test/'))).toEqual([]);
    console.log(`package install: ${installSeconds.toFixed(1)} s`);
  });

  it('installs into an empty prefix with its command in bin/, its own dependencies and the native addon built', async () => {
    const version = lockstep(['--version']);
    expect(version.code, version.stderr).toBe(0);
    expect(version.stdout.trim()).toBe(JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8')).version);
    expect(lockstep(['--help']).stdout).toContain('graph');
    const addon = run(process.execPath, ['-e', 'require(process.argv[1])', path.join(installedRoot, 'node_modules', 'pkcs11js')]);
    expect(addon.code, addon.stderr).toBe(0);
  });

  it('installs exactly the dependency releases the lockfile pins (npm-shrinkwrap.json ships in the tarball)', async () => {
    // A package-lock.json is ignored by `npm i -g` of a tarball; a shrinkwrap is obeyed.
    const lock = JSON.parse(await readFile(path.join(ROOT, 'npm-shrinkwrap.json'), 'utf8')) as { packages: Record<string, { version?: string; dev?: boolean; optional?: boolean; devOptional?: boolean }> };
    const pinned = Object.entries(lock.packages).filter(([p, e]) => p.startsWith('node_modules/') && !e.dev && !e.devOptional && !e.optional && e.version);
    expect(pinned.length).toBeGreaterThan(50);
    const differing: string[] = [];
    for (const [p, e] of pinned) {
      const installed = JSON.parse(await readFile(path.join(installedRoot, p, 'package.json'), 'utf8')) as { version: string };
      if (installed.version !== e.version) differing.push(`${p}: locked ${e.version}, installed ${installed.version}`);
    }
    expect(differing).toEqual([]);
  });

  it('gives editors the schemas in the installed package, the same as the repository\'s', async () => {
    const names = (await readdir(path.join(ROOT, 'schemas'))).sort();
    expect((await readdir(path.join(installedRoot, 'schemas'))).sort()).toEqual(names);
    for (const name of names) {
      expect(await readFile(path.join(installedRoot, 'schemas', name), 'utf8')).toBe(await readFile(path.join(ROOT, 'schemas', name), 'utf8'));
    }
  });

  it('validates, plans, applies and serves from the install (and prints no secret)', async () => {
    const manifest = path.join(work, 'ldap.yaml');
    await writeFile(
      manifest,
      [
        `# yaml-language-server: $schema=${path.join(installedRoot, 'schemas', 'ldap-auth.schema.json')}`,
        'apiVersion: lockstep/v1',
        'kind: LdapAuth',
        'mount: ldap',
        'config:',
        '  url: ldaps://ldap.example.com',
        '  binddn: cn=svc,dc=example,dc=com',
        '  bindpass: ${env:LDAP_BINDPASS}',
        'groups:',
        '  admins: { policies: [admin] }',
        '',
      ].join('\n'),
    );
    const bad = path.join(work, 'bad.yaml');
    await writeFile(bad, 'apiVersion: lockstep/v1\nkind: LdapAuth\nmount: ldap\ngroups:\n  admins: { policies: 7 }\n');
    const invalid = lockstep(['validate', bad]);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toMatch(/bad\.yaml:5:\d+: error: /);
    expect(lockstep(['validate', manifest], { LDAP_BINDPASS: CANARY }).code).toBe(0);

    const serve = spawn(bin, ['serve', '--port', '0'], { cwd: work, env: userEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const first = await new Promise<string>((resolve, reject) => {
        createInterface({ input: serve.stdout }).on('line', (line) => line.includes(' root token: ') && resolve(line));
        serve.once('exit', (code) => reject(new Error(`lockstep serve exited (${code})`)));
      });
      const [, address, token] = /^cluster \S+: (\S+) root token: (\S+)$/.exec(first)!;
      const env = { SERVICE_ADDR: address!, SERVICE_TOKEN: token!, LDAP_BINDPASS: CANARY };
      const plan = lockstep(['plan', manifest, '--detailed-exitcode'], env);
      expect(plan.code, plan.stderr).toBe(2);
      expect(plan.stdout).toContain('+ default:auth/ldap/groups/admins');
      const applied = lockstep(['apply', manifest, '--auto-approve'], env);
      expect(applied.code, applied.stderr).toBe(0);
      expect(applied.stdout).toContain('Apply complete');
      const again = lockstep(['plan', manifest, '--detailed-exitcode'], env);
      expect(again.code, again.stdout + again.stderr).toBe(0);
      for (const out of [plan, applied, again]) expect(out.stdout + out.stderr).not.toContain(CANARY);
    } finally {
      serve.kill('SIGKILL');
    }
  });
});
