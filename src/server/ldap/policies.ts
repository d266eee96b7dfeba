/** The login's policies: the one resolution the access review shares (adapters/ldap/login-policies.ts). */
export { canonicalName, configuredPolicies, loginPolicies, mappedPolicies, ROOT_REFUSED } from '../../adapters/ldap/login-policies.js';
