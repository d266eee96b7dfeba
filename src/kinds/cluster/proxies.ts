import type { ClusterTarget } from '../../core/cluster.js';
import type { Diagnostics } from '../../core/diagnostics.js';
import { proxyFor } from '../../client/proxy.js';

/**
 * The proxy each cluster is reached through (HTTPS_PROXY, HTTP_PROXY, NO_PROXY): one that
 * cannot be used is a problem of the environment, said with the others before any request,
 * naming the cluster and the variable (never its credentials).
 */
export function checkProxies(targets: ReadonlyMap<string, ClusterTarget>, env: NodeJS.ProcessEnv, diags: Diagnostics): void {
  for (const target of targets.values()) {
    try {
      proxyFor(new URL(target.address), env);
    } catch (e) {
      diags.environmentError(`cluster ${target.name}: ${(e as Error).message}`);
    }
  }
}
