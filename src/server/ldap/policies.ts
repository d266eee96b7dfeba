/** The login's policies: the one resolution the access review shares (adapters/ldap/login-policies.ts). */
export { canonicalName, loginPolicies, ROOT_REFUSED } from '../../adapters/ldap/login-policies.js';
