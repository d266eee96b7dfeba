import type { KindModule } from '../kind.js';
import { LDAP_RESOURCE_TYPES } from './addresses.js';
import { exportLdapAuth } from './export.js';
import { warnUndefinedLocalGroups } from './local-groups.js';
import { desiredLdapAuth } from './normalise.js';
import { ldapPolicyReferences } from './policy-names.js';
import { readLdapAuth } from './read.js';
import { settleNameCase } from './name-case.js';
import { checkLdapValues, validateLdapAuth } from './rules.js';
import { ldapSecretPaths } from './secrets.js';
import { applyLdapChange } from './write.js';

/** The LDAP auth method: its config, groups and users (and the mount it lives on). */
export const ldapAuthKind: KindModule = {
  kind: 'LdapAuth',
  resourceTypes: Object.values(LDAP_RESOURCE_TYPES),
  schemaFile: 'ldap-auth.schema.json',
  // Its mount may not exist yet, so there is nothing to probe: its reads tell.
  feature: { name: 'the LDAP auth method' },
  secretPaths: ldapSecretPaths,
  validate: validateLdapAuth,
  checkValues: checkLdapValues,
  desired: desiredLdapAuth,
  read: readLdapAuth,
  settle: settleNameCase,
  reviewAgainstLive: warnUndefinedLocalGroups,
  apply: applyLdapChange,
  export: exportLdapAuth,
  policyReferences: ldapPolicyReferences,
  // Loaded on use: the LDAP client library is only needed by `check`.
  check: async (desired, opts) => (await import('./check.js')).checkLdapAuth(desired, opts),
  // Loaded on use too: only a plan that changes what a login gets reads the directory.
  reviewAccess: async (input) => (await import('./access-review/review.js')).reviewLdapAccess(input),
};
