import { readFile } from 'node:fs/promises';
import { DEFAULT_AUTH_MOUNT, type ClusterAuth, type ClusterTarget } from '../../core/cluster.js';
import type { Diagnostics } from '../../core/diagnostics.js';
import { apiPathProblem } from '../../core/path-segment.js';
import { Secret } from '../../core/secret.js';
import { parseCertificates } from '../../core/pem.js';
import { normaliseBaseUrl } from './base-url.js';
import type { ClusterCatalogue } from './catalogue.js';
import { IMPLICIT_CLUSTER_NAME } from './kind.js';

export interface EnvironmentClusterOptions {
  env: NodeJS.ProcessEnv;
  /** Report a missing or broken SERVICE_* setup (commands that talk to servers). */
  requireClusters: boolean;
}

/**
 * The service's own CLI names, read when lockstep's are unset (or empty): a CI action or a
 * shell that sets VAULT_ADDR and VAULT_TOKEN works as it is, and SERVICE_* always wins.
 */
const FALLBACK: Readonly<Record<string, string>> = {
  SERVICE_ADDR: 'VAULT_ADDR',
  SERVICE_TOKEN: 'VAULT_TOKEN',
  SERVICE_NAMESPACE: 'VAULT_NAMESPACE',
  SERVICE_CACERT: 'VAULT_CACERT',
};

/** A setting's value and the variable it came from; empty counts as unset. */
interface Setting {
  name: string;
  value: string;
}

function setting(env: NodeJS.ProcessEnv, name: string): Setting | undefined {
  for (const candidate of [name, FALLBACK[name]]) {
    if (candidate === undefined) continue;
    const value = env[candidate];
    if (value !== undefined && value !== '') return { name: candidate, value };
  }
  return undefined;
}

/**
 * The implicit cluster `default` from the environment: SERVICE_ADDR, the credentials,
 * SERVICE_NAMESPACE (the default namespace) and SERVICE_CACERT (a path to a CA file), each
 * VAULT_* when the SERVICE_* name is unset. Credentials: SERVICE_AUTH_METHOD `token` (the
 * default: SERVICE_TOKEN), `jwt` (SERVICE_AUTH_ROLE and SERVICE_AUTH_JWT, or
 * SERVICE_AUTH_JWT_FILE) or `approle` (SERVICE_AUTH_ROLE_ID and SERVICE_AUTH_SECRET_ID), with
 * SERVICE_AUTH_MOUNT and SERVICE_AUTH_NAMESPACE ("/" for the root) for a login. Credentials
 * from the environment are secrets, so they count as references. Its name is always known,
 * so documents can be validated without any server settings; it becomes a target only when the
 * settings are complete.
 */
export async function clusterFromEnvironment(opts: EnvironmentClusterOptions, diags: Diagnostics): Promise<ClusterCatalogue> {
  const { env } = opts;
  const defaultNamespace = trimSlashes(setting(env, 'SERVICE_NAMESPACE')?.value ?? '');
  const known = new Map([[IMPLICIT_CLUSTER_NAME, { name: IMPLICIT_CLUSTER_NAME, defaultNamespace }]]);
  const targets = new Map<string, ClusterTarget>();
  const problems: string[] = [];

  const addressSetting = setting(env, 'SERVICE_ADDR');
  const address = addressSetting === undefined ? undefined : normaliseBaseUrl(addressSetting.value);
  if (address === undefined) problems.push('no cluster to talk to: add a Cluster document or set SERVICE_ADDR and SERVICE_TOKEN');
  else if (typeof address !== 'string') problems.push(`${addressSetting!.name}: ${address.problem}`);
  const auth = address === undefined ? undefined : await authFromEnvironment(env, defaultNamespace, problems);
  const caSetting = setting(env, 'SERVICE_CACERT');
  const caCert = caSetting ? await readCaFile(caSetting, problems) : undefined;

  if (problems.length === 0 && typeof address === 'string' && auth) {
    targets.set(IMPLICIT_CLUSTER_NAME, {
      name: IMPLICIT_CLUSTER_NAME,
      address,
      auth,
      authSource: `the implicit cluster from ${addressSetting!.name}`,
      caCert,
      insecureSkipVerify: false,
      defaultNamespace: defaultNamespace === '' ? undefined : defaultNamespace,
    });
  } else if (opts.requireClusters) {
    for (const p of problems) diags.environmentError(p);
  }
  return { known, targets };
}

/**
 * The secrets the environment holds for the implicit cluster, whatever the command: `validate`
 * builds no cluster, and a manifest may still read one of them into a field that is printed
 * (`cluster: ${env:SERVICE_TOKEN}`), so the run's redaction must know them all the same.
 */
export function environmentSecretTexts(env: NodeJS.ProcessEnv): string[] {
  const names = ['SERVICE_TOKEN', 'SERVICE_AUTH_JWT', 'SERVICE_AUTH_ROLE_ID', 'SERVICE_AUTH_SECRET_ID'];
  const texts: string[] = [];
  for (const name of names) {
    const found = setting(env, name);
    if (found !== undefined) texts.push(found.value, found.value.trim());
  }
  return texts.filter((t) => t !== '');
}

const METHODS = ['token', 'jwt', 'approle'] as const;

async function authFromEnvironment(env: NodeJS.ProcessEnv, defaultNamespace: string, problems: string[]): Promise<ClusterAuth | undefined> {
  const method = env.SERVICE_AUTH_METHOD || 'token';
  if (!(METHODS as readonly string[]).includes(method)) {
    problems.push(`SERVICE_AUTH_METHOD: must be one of ${METHODS.join(', ')}`);
    return undefined;
  }
  const secret = (name: string, why: string): Secret | undefined => {
    const found = setting(env, name);
    if (found === undefined) problems.push(`${name} is not set (${why})`);
    return found && new Secret(found.value, `env:${found.name}`);
  };
  const loginPlace = (kind: 'jwt' | 'approle'): { mount: string; namespace?: string } | undefined => {
    const mount = trimSlashes(env.SERVICE_AUTH_MOUNT ?? '') || DEFAULT_AUTH_MOUNT[kind];
    const givenNamespace = env.SERVICE_AUTH_NAMESPACE ?? '';
    const namespace = givenNamespace === '' ? defaultNamespace : trimSlashes(givenNamespace);
    const mountProblem = apiPathProblem(mount);
    const namespaceProblem = namespace === '' ? undefined : apiPathProblem(namespace);
    if (mountProblem) problems.push(`SERVICE_AUTH_MOUNT: ${mountProblem}`);
    if (namespaceProblem) problems.push(`SERVICE_AUTH_NAMESPACE: ${namespaceProblem}`);
    if (mountProblem || namespaceProblem) return undefined;
    return namespace === '' ? { mount } : { mount, namespace };
  };
  switch (method as (typeof METHODS)[number]) {
    case 'token': {
      const token = secret('SERVICE_TOKEN', 'the token for SERVICE_ADDR; or set SERVICE_AUTH_METHOD to jwt or approle to log in');
      return token && { method: 'token', token };
    }
    case 'jwt': {
      const role = env.SERVICE_AUTH_ROLE ?? '';
      if (role === '') problems.push('SERVICE_AUTH_ROLE is not set (the role of SERVICE_AUTH_METHOD=jwt)');
      const jwt = await jwtFromEnvironment(env, problems);
      const place = loginPlace('jwt');
      return role !== '' && jwt && place ? { method: 'jwt', role, jwt, ...place } : undefined;
    }
    case 'approle': {
      const roleId = secret('SERVICE_AUTH_ROLE_ID', 'the role_id of SERVICE_AUTH_METHOD=approle');
      const secretId = secret('SERVICE_AUTH_SECRET_ID', 'the secret_id of SERVICE_AUTH_METHOD=approle');
      const place = loginPlace('approle');
      return roleId && secretId && place ? { method: 'approle', roleId, secretId, ...place } : undefined;
    }
  }
}

/** SERVICE_AUTH_JWT (the JWT itself) or SERVICE_AUTH_JWT_FILE (a file holding it), exactly one. */
async function jwtFromEnvironment(env: NodeJS.ProcessEnv, problems: string[]): Promise<Secret | undefined> {
  const inline = env.SERVICE_AUTH_JWT ?? '';
  const file = env.SERVICE_AUTH_JWT_FILE ?? '';
  if (inline !== '' && file !== '') {
    problems.push('SERVICE_AUTH_JWT and SERVICE_AUTH_JWT_FILE are both set: set one');
    return undefined;
  }
  if (inline !== '') return new Secret(inline.trim(), 'env:SERVICE_AUTH_JWT');
  if (file === '') {
    problems.push('SERVICE_AUTH_JWT is not set (the JWT of SERVICE_AUTH_METHOD=jwt; or SERVICE_AUTH_JWT_FILE, a file holding it)');
    return undefined;
  }
  const text = await readFile(file, 'utf8').catch(() => undefined);
  if (text === undefined || text.trim() === '') {
    problems.push(`SERVICE_AUTH_JWT_FILE: cannot read a JWT from "${file}"`);
    return undefined;
  }
  return new Secret(text.trim(), `file:${file}`);
}

function trimSlashes(text: string): string {
  return text.replace(/^\/+|\/+$/g, '');
}

async function readCaFile(ca: Setting, problems: string[]): Promise<string | undefined> {
  const text = await readFile(ca.value, 'utf8').catch(() => undefined);
  if (text === undefined) {
    problems.push(`${ca.name}: cannot read the CA file "${ca.value}"`);
    return undefined;
  }
  const certificates = parseCertificates(text);
  if (!Array.isArray(certificates)) problems.push(`${ca.name}: "${ca.value}" ${certificates.problem}`);
  return text;
}
