/**
 * Reading the end-to-end case folders (see README.md here) and the server each case runs
 * against. Used by test/e2e/cases.test.ts.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { startServer, type RunningServer } from '../../../src/server/index.js';
import { ROOT } from '../../support/cli.js';

/** Relative to the repository root, so paths in output never depend on the checkout. */
export const CASES_DIR = 'test/cases/e2e';

/** A raw HTTP call made against the server before planning (drift, unmanaged objects). */
export interface SetupCall {
  method: string;
  /** API path relative to the base URL, e.g. `auth/ldap/users/mallory`. */
  path: string;
  body?: unknown;
  /** Expected status; any 2xx when absent. */
  status?: number;
}

export interface Step {
  /** Manifest directory, relative to the repository root. */
  manifests: string;
  /** Expected text plan file, absolute. */
  expected: string;
}

export interface Case {
  name: string;
  dir: string;
  setup: SetupCall[];
  args: string[];
  /** `apply-args.json`: flags for `apply` only (`--allow-destructive`), after `args`. */
  applyArgs: string[];
  /** `manifests/` + `expected-plan.txt`, then optionally `manifests-after/` + `expected-plan-after.txt`. */
  steps: Step[];
}

/** Every `NN-name` folder, in name order. */
export async function loadCases(): Promise<Case[]> {
  const root = path.join(ROOT, CASES_DIR);
  const names = (await readdir(root, { withFileTypes: true })).filter((e) => e.isDirectory() && /^\d\d-/.test(e.name)).map((e) => e.name).sort();
  return Promise.all(names.map(loadCase));
}

async function loadCase(name: string): Promise<Case> {
  const rel = path.join(CASES_DIR, name);
  const dir = path.join(ROOT, rel);
  const steps: Step[] = [{ manifests: path.join(rel, 'manifests'), expected: path.join(dir, 'expected-plan.txt') }];
  if (existsSync(path.join(dir, 'manifests-after'))) {
    steps.push({ manifests: path.join(rel, 'manifests-after'), expected: path.join(dir, 'expected-plan-after.txt') });
  }
  if (!existsSync(path.join(dir, 'manifests'))) throw new Error(`${rel}: no manifests/ folder`);
  return {
    name,
    dir,
    setup: await readJson<SetupCall[]>(path.join(dir, 'setup.json'), []),
    args: await readJson<string[]>(path.join(dir, 'args.json'), []),
    applyArgs: await readJson<string[]>(path.join(dir, 'apply-args.json'), []),
    steps,
  };
}

async function readJson<T>(file: string, fallback: T): Promise<T> {
  if (!existsSync(file)) return fallback;
  return JSON.parse(await readFile(file, 'utf8')) as T;
}

/** `${env:NAME}` in setup calls, replaced from the case's environment (e.g. CASE_TMP). */
export function expandEnv(call: SetupCall, env: Record<string, string>): SetupCall {
  const text = JSON.stringify(call).replace(/\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g, (whole, name: string) => {
    const value = env[name];
    if (value === undefined) throw new Error(`setup.json names \${env:${name}}, which the case runner does not set`);
    return JSON.stringify(value).slice(1, -1);
  });
  return JSON.parse(text) as SetupCall;
}

/**
 * Output made stable for comparison: the case's temp dir (random) reads `$CASE_TMP`.
 * Nothing else varies: addresses use the cluster name, never the port.
 */
export function stableOutput(text: string, caseTmp: string): string {
  return text.split(caseTmp).join('$CASE_TMP');
}

/**
 * Compares with an expected file, or (LOCKSTEP_WRITE_EXPECTED=1) rewrites it. Returns the
 * expected text to compare against (the actual text when writing).
 */
export async function expectedText(file: string, actual: string, write: boolean): Promise<string> {
  if (write) {
    await writeFile(file, actual);
    return actual;
  }
  if (!existsSync(file)) throw new Error(`${path.relative(ROOT, file)} is missing; run with LOCKSTEP_WRITE_EXPECTED=1 and review it`);
  return readFile(file, 'utf8');
}

export interface CaseServer {
  server: RunningServer;
  env: Record<string, string>;
  raw(method: string, apiPath: string, body?: unknown): Promise<{ status: number; text: string }>;
  close(): Promise<void>;
}

/** SoftHSM's library: a pkcs11 key's `library: softhsm` names this kms_library stanza. */
const SOFTHSM_LIBRARY = '/usr/lib/softhsm/libsofthsm2.so';

/**
 * A fresh embedded server (one cluster, `default`) on a random loopback port, with a
 * `softhsm` kms_library stanza (test/support/server.ts's startTestServer takes no options).
 */
export async function startCaseServer(): Promise<CaseServer> {
  const token = `root-case-${Math.random().toString(36).slice(2)}`;
  const server = await startServer({ port: 0, rootToken: token, kmsLibraries: { softhsm: SOFTHSM_LIBRARY } });
  const baseUrl = server.clusters[0]!.baseUrl;
  return {
    server,
    env: { SERVICE_ADDR: baseUrl, SERVICE_TOKEN: token },
    raw: async (method, apiPath, body) => {
      const res = await fetch(`${baseUrl}/${apiPath}`, {
        method,
        headers: { 'X-Vault-Token': token, 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, text: await res.text() };
    },
    close: () => server.close(),
  };
}
