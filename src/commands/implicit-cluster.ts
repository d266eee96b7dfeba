import type { ClusterTarget } from '../core/cluster.js';
import { Diagnostics } from '../core/diagnostics.js';
import { clusterFromEnvironment } from '../kinds/cluster/index.js';
import { CliError } from './errors.js';

/** The `default` cluster from the environment (SERVICE_ADDR or VAULT_ADDR, a token or a login), for commands given no manifests. */
export async function implicitClusterOrFail(env: NodeJS.ProcessEnv): Promise<Map<string, ClusterTarget>> {
  const diags = new Diagnostics();
  const catalogue = await clusterFromEnvironment({ env, requireClusters: true }, diags);
  if (diags.hasErrors() || catalogue.targets.size === 0) {
    const why = diags.errors.map((d) => d.message).join('; ') || 'SERVICE_ADDR (or VAULT_ADDR) and SERVICE_TOKEN (or VAULT_TOKEN) are not set';
    throw new CliError(`no cluster to export from: ${why} (or give manifests with Cluster documents)`);
  }
  return catalogue.targets;
}
