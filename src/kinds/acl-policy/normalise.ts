import { ACL_POLICY_RESOURCE_TYPE, aclPolicyAddress, aclPolicyCollection } from '../../core/acl-policy-path.js';
import type { JsonObject } from '../../core/json.js';
import type { DesiredResource, DesiredState, ManagedCollection } from '../../core/resource.js';
import type { ResolvedDocument } from '../../load/document.js';
import type { KindContext } from '../kind.js';
import { canonicalPolicyName } from './names.js';
import { asAclPolicyDocuments, groupByScope, type AclPolicyDocument } from './types.js';

/**
 * The desired ACL policies (valid, placed): one `acl.policy` per document, named as the service
 * stores it (lower case), and per cluster and namespace the collection `<ns/>sys/policies/acl`,
 * pruned when `--prune` or one of its documents says `prune: true` (the rules make them agree).
 * Inputs are not mutated.
 */
const POLICY_DELETE_LOSES = 'deleting the policy takes what it grants from every token and login that names it, at once; needs --allow-destructive';

export function desiredAclPolicies(docs: ReadonlyArray<ResolvedDocument>, ctx: KindContext): DesiredState {
  const resources: DesiredResource[] = [];
  const collections: ManagedCollection[] = [];
  for (const scope of groupByScope(asAclPolicyDocuments(docs))) {
    resources.push(...scope.docs.map(desiredPolicy));
    collections.push({
      address: aclPolicyCollection(scope.cluster, scope.namespace),
      memberType: ACL_POLICY_RESOURCE_TYPE,
      prune: ctx.prune || scope.docs.some((d) => d.data.prune === true),
      // Access taken away, as for LDAP users and groups: every token holding it loses its grants at once.
      deleteLoses: POLICY_DELETE_LOSES,
    });
  }
  return { resources, collections };
}

function desiredPolicy(doc: AclPolicyDocument): DesiredResource {
  const { cluster, namespace, name, policy } = doc.data;
  return {
    address: aclPolicyAddress(cluster, namespace, canonicalPolicyName(name)),
    resourceType: ACL_POLICY_RESOURCE_TYPE,
    attrs: aclPolicyAttrs(policy),
    writeOnly: {},
    sensitiveFields: [],
    dependsOn: [],
  };
}

/**
 * The comparable fields of a policy, manifest or live: its text exactly as written. The service
 * stores the text it is sent and answers it byte for byte (handlePoliciesSet keeps policy.Raw;
 * write.ts sends it so that the service cannot read it as base64), so any difference is drift.
 */
export function aclPolicyAttrs(text: string): JsonObject {
  return { policy: text };
}
