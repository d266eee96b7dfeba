import { aclPolicyCollection } from '../../core/acl-policy-path.js';
import { ApiError } from '../../client/errors.js';
import type { ClusterClient } from '../../client/types.js';
import { listNames } from '../live-read.js';

/** What a LIST of one namespace's ACL policies gave: the names, or why there are none to go by. */
export type ListedPolicies =
  | { kind: 'listed'; names: readonly string[] }
  /** 403: the token may not list them. */
  | { kind: 'denied' }
  | { kind: 'failed'; message: string };

/** LIST `<ns/>sys/policies/acl` (the service adds `root` in the root namespace). */
export async function listPolicies(client: ClusterClient, namespace: string): Promise<ListedPolicies> {
  try {
    return { kind: 'listed', names: await listNames(client, aclPolicyCollection(client.cluster, namespace).path) };
  } catch (err) {
    if (err instanceof ApiError && err.status === 403) return { kind: 'denied' };
    return { kind: 'failed', message: err instanceof Error ? err.message : String(err) };
  }
}
