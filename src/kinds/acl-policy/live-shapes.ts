import { record } from '../../core/json-shape.js';

/**
 * `GET <ns/>sys/policies/acl/<name>`: its name and its text as stored (vault/logical_system.go
 * handlePoliciesRead answers `policy: policy.Raw`, the text as written; OpenBao adds
 * cas_required, version, modified, which lockstep does not manage).
 */
export const ACL_POLICY_SHAPE = record({ name: 'text', policy: 'text' }, ['policy']);
