import type { Case } from './corpus.js';

/**
 * The differential corpus's ACL cases: whole answers (errors, capabilities) to a token that is
 * not root, a write checked as create or update by the route's existence check
 * (vault/request_handling.go CheckToken; builtin/credential/approle/path_role.go
 * pathRoleExistenceCheck), the policy endpoints read by that token.
 */
const writer = { captured: 'aclWriter' } as const;
const WRITER_POLICY = [
  'path "auth/acl-approle/role/*" { capabilities = ["create", "read"] }',
  'path "sys/policies/acl/acl-*" { capabilities = ["read"] }',
  'path "sys/mounts" { capabilities = ["deny"] }',
].join('\n');

export const ACL: Case[] = [
  { id: 'acl-policy-write', method: 'POST', path: 'sys/policies/acl/acl-writer', body: { policy: WRITER_POLICY } },
  { id: 'acl-approle-enable', method: 'POST', path: 'sys/auth/acl-approle', body: { type: 'approle' } },
  { id: 'acl-approle-existing', method: 'POST', path: 'auth/acl-approle/role/existing', body: {} },
  { id: 'acl-token-create', method: 'POST', path: 'auth/token/create', body: { policies: ['acl-writer'] }, capture: { aclWriter: 'auth.client_token' } },
  { id: 'acl-create-new', method: 'POST', path: 'auth/acl-approle/role/fresh', token: writer, body: { token_ttl: '1h' } },
  { id: 'acl-read-created', method: 'GET', path: 'auth/acl-approle/role/fresh/role-id', token: writer },
  { id: 'acl-create-existing-denied', method: 'POST', path: 'auth/acl-approle/role/existing', token: writer, body: {} },
  { id: 'acl-create-again-denied', method: 'POST', path: 'auth/acl-approle/role/Fresh', token: writer, body: {} },
  { id: 'acl-denied-bad-field', method: 'POST', path: 'auth/acl-approle/role/existing', token: writer, body: { bind_secret_id: 'maybe' } },
  { id: 'acl-policy-read', method: 'GET', path: 'sys/policies/acl/acl-writer', token: writer },
  { id: 'acl-policy-read-denied', method: 'GET', path: 'sys/policies/acl/default', token: writer },
  { id: 'acl-deny-wins', method: 'GET', path: 'sys/mounts', token: writer },
  {
    id: 'acl-capabilities-self',
    method: 'POST',
    path: 'sys/capabilities-self',
    token: writer,
    body: { paths: ['auth/acl-approle/role/x', 'sys/mounts', 'sys/policies/acl/acl-writer', 'auth/token/lookup-self'] },
  },
  { id: 'acl-policy-list', method: 'LIST', path: 'sys/policies/acl' },
  // logical_system.go handlePoliciesList: `root` is listed in the root namespace only.
  { id: 'ns-create-acl', method: 'POST', path: 'sys/namespaces/acl-ns', body: {} },
  { id: 'acl-ns-policy-list', method: 'LIST', path: 'sys/policies/acl', namespace: 'acl-ns' },
  { id: 'acl-ns-policy-list-legacy', method: 'GET', path: 'sys/policy', namespace: 'acl-ns' },
  { id: 'acl-capabilities-one', method: 'POST', path: 'sys/capabilities', body: { token: '<<aclWriter>>', path: 'auth/acl-approle/role/x' } },
];
