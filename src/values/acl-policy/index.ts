/**
 * The service's ACL policy language, shared by the reconciler (the AclPolicy kind, the access
 * review) and the emulator (serve's sys/policies/acl and its enforcement): parse as
 * vault/policy.go does, decide as vault/acl.go does.
 */
export { CAPABILITY_BIT, isCapability, type Capability } from './capabilities.js';
export { parseAclPolicy, serviceMessage, type AclPolicy, type PathRule, type PolicyError, type PolicyParse } from './parse.js';
export { allowOperation, buildAcl, capabilitiesOf, type Acl, type NamedPolicy, type Operation } from './acl.js';
