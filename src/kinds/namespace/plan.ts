import type { Refusal } from '../../core/plan.js';
import type { DesiredState, LiveState } from '../../core/resource.js';
import { diffResources } from '../../diff/diff.js';
import type { KindPlan, PlanFlags } from '../kind.js';
import type { NamespaceLiveState } from './read.js';

/**
 * The generic diff, and a refusal for each prune of a namespace that is not empty: the service
 * deletes a namespace with everything in it (auth methods, secrets engines and their data,
 * policies, keys), which no plan line could show. An empty one is deleted; what it held must
 * go first, by hand or by the manifests that made it. Pure.
 */
export function planNamespaces(desired: DesiredState, live: LiveState, flags: PlanFlags): KindPlan {
  const { changes, unmanaged } = diffResources(desired, live, { syncSecrets: flags.syncSecrets });
  const holdings = (live as Partial<NamespaceLiveState>).holdings;
  const errors: Refusal[] = [];
  for (const change of changes) {
    if (change.action !== 'delete') continue;
    const holds = holdings?.get(change.address);
    if (holds === undefined) {
      errors.push({ address: change.address, message: `${change.address}: cannot prune this namespace: what it holds was not read` });
    } else if (holds.length > 0) {
      errors.push({
        address: change.address,
        message: `${change.address}: cannot prune this namespace: it holds ${holds.join(', ')} (deleting a namespace deletes everything in it); remove them first, or declare the namespace`,
      });
    }
  }
  return { changes, unmanaged, notes: [], errors };
}
