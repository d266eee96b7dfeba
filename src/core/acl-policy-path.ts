import { Address } from './address.js';

/**
 * ACL policies in addresses: `<cluster>:<namespace/>sys/policies/acl/<name>`, one collection per
 * namespace. Here in core, not in the AclPolicy kind, because other kinds name policies (an LDAP
 * group's `policies`) and order their writes after the policy's (no kind imports another).
 */

/** The resource type of an ACL policy (kinds/acl-policy; Change.resourceType). */
export const ACL_POLICY_RESOURCE_TYPE = 'acl.policy';

function segmentsOf(namespace: string): string[] {
  return namespace === '' ? [] : namespace.split('/');
}

/** `<cluster>:<namespace/>sys/policies/acl`: the ACL policies of one namespace ('' for the root). */
export function aclPolicyCollection(cluster: string, namespace: string): Address {
  return new Address(cluster, [...segmentsOf(namespace), 'sys', 'policies', 'acl']);
}

/** `<cluster>:<namespace/>sys/policies/acl/<name>`; the name is one segment, as the service stores it (lower case). */
export function aclPolicyAddress(cluster: string, namespace: string, name: string): Address {
  return aclPolicyCollection(cluster, namespace).child(name);
}
