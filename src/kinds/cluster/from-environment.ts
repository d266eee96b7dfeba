import { readFile } from 'node:fs/promises';
import type { ClusterTarget } from '../../core/cluster.js';
import type { Diagnostics } from '../../core/diagnostics.js';
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
 * The implicit cluster `default` from SERVICE_ADDR, SERVICE_TOKEN (a secret from the
 * environment, so it counts as a reference), SERVICE_NAMESPACE (the default namespace) and
 * SERVICE_CACERT (a path to a CA file). Its name is always known, so documents can be
 * validated without any server settings; it becomes a target only when the settings are complete.
 */
export async function clusterFromEnvironment(opts: EnvironmentClusterOptions, diags: Diagnostics): Promise<ClusterCatalogue> {
  const { env } = opts;
  const defaultNamespace = (env.SERVICE_NAMESPACE ?? '').replace(/^\/+|\/+$/g, '');
  const known = new Map([[IMPLICIT_CLUSTER_NAME, { name: IMPLICIT_CLUSTER_NAME, defaultNamespace }]]);
  const targets = new Map<string, ClusterTarget>();
  const problems: string[] = [];

  const rawAddress = env.SERVICE_ADDR ?? '';
  const address = rawAddress === '' ? undefined : normaliseBaseUrl(rawAddress);
  if (address === undefined) problems.push('no cluster to talk to: add a Cluster document or set SERVICE_ADDR and SERVICE_TOKEN');
  else if (typeof address !== 'string') problems.push(`SERVICE_ADDR: ${address.problem}`);
  const tokenText = env.SERVICE_TOKEN ?? '';
  if (address !== undefined && tokenText === '') problems.push('SERVICE_TOKEN is not set (the token for SERVICE_ADDR)');
  const caCert = env.SERVICE_CACERT ? await readCaFile(env.SERVICE_CACERT, problems) : undefined;

  if (problems.length === 0 && typeof address === 'string') {
    targets.set(IMPLICIT_CLUSTER_NAME, {
      name: IMPLICIT_CLUSTER_NAME,
      address,
      token: new Secret(tokenText, 'env:SERVICE_TOKEN'),
      caCert,
      insecureSkipVerify: false,
      defaultNamespace: defaultNamespace === '' ? undefined : defaultNamespace,
    });
  } else if (opts.requireClusters) {
    for (const p of problems) diags.error(p);
  }
  return { known, targets };
}

async function readCaFile(path: string, problems: string[]): Promise<string | undefined> {
  const text = await readFile(path, 'utf8').catch(() => undefined);
  if (text === undefined) {
    problems.push(`SERVICE_CACERT: cannot read the CA file "${path}"`);
    return undefined;
  }
  const certificates = parseCertificates(text);
  if (!Array.isArray(certificates)) problems.push(`SERVICE_CACERT: "${path}" ${certificates.problem}`);
  return text;
}
