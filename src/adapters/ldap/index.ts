/**
 * A small LDAP adapter shared by the embedded server's login, `lockstep check` and a plan's
 * access review. It depends only on ldapts, node and the service's value forms (src/values).
 */
export {
  connectFirst,
  connectOne,
  splitUrls,
  LdapConnectError,
  type LdapConnection,
  type LdapTlsSettings,
  type LdapTimeouts,
  type PresentedChain,
} from './connect.js';
export { searchEntries, searchUpToLimit, attributeValues, type LdapEntry, type LimitedSearch, type SearchSpec } from './search.js';
export {
  DEFAULT_GROUP_FILTER,
  DEFAULT_USER_FILTER,
  FilterTemplateError,
  parseFilterTemplate,
  renderFilterTemplate,
  templateFields,
} from './template.js';
export { escapeDnValue, parseDn, groupNameOf } from './dn.js';
export { groupNamesOf } from './groups.js';
export { describeError, isNoSuchObject } from './errors.js';
export {
  derivedBindDn,
  ldapGroupsOf,
  LoginStepError,
  searchedBindDn,
  searchesForUser,
  userBindDn,
  userEntryDn,
  userFilterValues,
  type LoginDirectorySettings,
} from './login-directory.js';
export { canonicalName, loginPolicies, type LocalUserMapping, type PolicySettings } from './login-policies.js';
