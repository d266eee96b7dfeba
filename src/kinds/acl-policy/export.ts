import { aclPolicyCollection } from '../../core/acl-policy-path.js';
import type { ClusterTarget } from '../../core/cluster.js';
import type { PlanNote } from '../../core/plan.js';
import type { ClusterClient } from '../../client/types.js';
import { addressableNames, listNames, readShaped } from '../live-read.js';
import { ACL_POLICY_SHAPE } from './live-shapes.js';
import { DEFAULT_POLICY, ROOT_POLICY } from './names.js';
import { ACL_POLICY_KIND } from './types.js';

/**
 * The ACL policies of the cluster's namespace (its default namespace, as for the LDAP method),
 * one AclPolicy document each, names sorted, the text as stored (the writer makes a multi-line
 * text a block scalar). `root` has no text; `default` is the service's own, left to it unless a
 * manifest declares it (docs/manifests.md), so neither is exported.
 */
export async function exportAclPolicies(client: ClusterClient, cluster: ClusterTarget, notes: PlanNote[] = []): Promise<Record<string, unknown>[]> {
  const collection = aclPolicyCollection(cluster.name, cluster.defaultNamespace ?? '');
  const listed = await listNames(client, collection.path);
  const names = addressableNames(listed, collection, 'an ACL policy', notes)
    .filter((name) => name !== ROOT_POLICY && name !== DEFAULT_POLICY)
    .sort();
  const found = await Promise.all(names.map((name) => readShaped(client, collection.child(name).path, ACL_POLICY_SHAPE)));
  return names.flatMap((name, i) => {
    const data = found[i];
    if (!data) return [];
    const doc: Record<string, unknown> = { apiVersion: 'lockstep/v1', kind: ACL_POLICY_KIND };
    if (cluster.name !== 'default') doc['cluster'] = cluster.name;
    doc['name'] = name;
    doc['policy'] = data['policy'];
    return [doc];
  });
}
