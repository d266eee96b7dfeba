/**
 * A small LDAP adapter shared by the embedded server's login and `lockstep check`. It depends
 * only on ldapts and node, never on the rest of lockstep.
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
export { searchEntries, attributeValues, type LdapEntry } from './search.js';
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
