import { ACL_POLICY_RESOURCE_TYPE } from '../../core/acl-policy-path.js';
import type { KindModule } from '../kind.js';
import { exportAclPolicies } from './export.js';
import { desiredAclPolicies } from './normalise.js';
import { readAclPolicies } from './read.js';
import { checkAclPolicyValues, validateAclPolicies } from './rules.js';
import { ACL_POLICY_KIND, ACL_POLICY_SCHEMA_FILE } from './types.js';
import { applyAclPolicyChange } from './write.js';

/** ACL policies (`<ns/>sys/policies/acl/<name>`): the text as written, written before the LDAP groups and users that name them. */
export const aclPolicyKind: KindModule = {
  kind: ACL_POLICY_KIND,
  resourceTypes: [ACL_POLICY_RESOURCE_TYPE],
  schemaFile: ACL_POLICY_SCHEMA_FILE,
  // Every release of the service serves sys/policies/acl: nothing to probe.
  feature: { name: 'ACL policies' },
  secretPaths: () => [],
  validate: validateAclPolicies,
  checkValues: checkAclPolicyValues,
  desired: desiredAclPolicies,
  read: readAclPolicies,
  apply: applyAclPolicyChange,
  export: exportAclPolicies,
};
