import { expect } from 'vitest';
import type { Fact, Step } from '../fact.js';

const NAMESPACES_DOC = 'website/content/api-docs/system/namespaces.mdx';

const MERGE_PATCH = { 'Content-Type': 'application/merge-patch+json' };

const createTeamA: Step = { method: 'POST', path: 'sys/namespaces/team-a' };

export const NAMESPACE_FACTS: readonly Fact[] = [
  {
    says: "#22: a namespace's token method shows token_type default: only the root's `token` mount is set to default-service",
    source: 'vault/auth.go (setupCredentials: entry.Config.TokenType = TokenTypeDefaultService for mountTypeToken only), vault/logical_system.go (mountInfo: Config.TokenType.String())',
    setup: [createTeamA],
    request: { method: 'GET', path: 'team-a/sys/auth' },
    expect: { status: 200, body: { data: { 'token/': { type: 'ns_token', config: { token_type: 'default' } } } } },
  },
  {
    says: '#22: namespace creation warns of body members that are none of its fields',
    source: `sdk/framework/backend.go (HandleRequest: "Endpoint ignored these unrecognized parameters"), ${NAMESPACES_DOC} (path, custom_metadata)`,
    request: { method: 'POST', path: 'sys/namespaces/team-u', body: { nope: 1 } },
    expect: { status: 200, body: { warnings: ['Endpoint ignored these unrecognized parameters: [nope]'] } },
  },
  {
    says: 'a namespace is created through sys/namespaces and read back with its id and path',
    source: `${NAMESPACES_DOC} (Create namespace, Read namespace information)`,
    setup: [createTeamA],
    request: { method: 'GET', path: 'sys/namespaces/team-a' },
    expect: { status: 200, body: { data: { id: expect.stringMatching(/^[A-Za-z0-9]+$/), path: 'team-a/' } } },
  },
  {
    says: 'LIST sys/namespaces names the children with a trailing slash',
    source: `${NAMESPACES_DOC} (List namespaces)`,
    setup: [createTeamA, { method: 'POST', path: 'sys/namespaces/team-b' }],
    request: { method: 'LIST', path: 'sys/namespaces' },
    expect: { status: 200, body: { data: { keys: ['team-a/', 'team-b/'] } } },
  },
  {
    says: 'a nested namespace is created inside its parent',
    source: NAMESPACES_DOC,
    setup: [createTeamA, { method: 'POST', path: 'team-a/sys/namespaces/dev' }],
    request: { method: 'GET', path: 'team-a/sys/namespaces/dev' },
    expect: { status: 200, body: { data: { path: 'team-a/dev/' } } },
  },
  {
    says: 'a request into a namespace never created is not served',
    source: `${NAMESPACES_DOC}; reference page "(corrected) Namespaces exist only once created"`,
    request: { method: 'GET', path: 'team-typo/sys/auth' },
    expect: { status: 404 },
  },
  {
    says: 'a namespace named by the X-Vault-Namespace header must exist too',
    source: NAMESPACES_DOC,
    request: { method: 'GET', path: 'sys/auth', headers: { 'X-Vault-Namespace': 'team-typo' } },
    expect: { status: 404 },
  },
  {
    says: "a created namespace serves its own auth methods: its token method is the namespace variant, ns_token, with an accessor made from the plain type (the real server's CLI shows the same: test/clients/bao-cli.test.ts)",
    source: `${NAMESPACES_DOC}; vault/mount.go (mountTypeNSToken)`,
    setup: [createTeamA],
    request: { method: 'GET', path: 'team-a/sys/auth' },
    expect: { status: 200, body: { data: { 'token/': { type: 'ns_token', accessor: expect.stringMatching(/^auth_token_[0-9a-f]{8}$/) } } } },
  },
  {
    says: 'a deleted namespace is gone with what it held',
    source: `${NAMESPACES_DOC} (Delete namespace)`,
    setup: [
      createTeamA,
      { method: 'POST', path: 'team-a/sys/auth/ldap', body: { type: 'ldap' } },
      { method: 'DELETE', path: 'sys/namespaces/team-a', okStatus: [204] },
      { method: 'POST', path: 'sys/namespaces/team-a' },
    ],
    request: { method: 'GET', path: 'team-a/sys/auth' },
    expect: { status: 200, absent: ['data.ldap/'] },
  },
  {
    says: 'LIST sys/namespaces with no namespace is a 404, as every empty LIST',
    source: 'website/content/api-docs/system/namespaces.mdx; sdk/logical ListResponse (no keys → 404)',
    request: { method: 'LIST', path: 'sys/namespaces' },
    expect: { status: 404 },
  },
  {
    says: "PATCH is a JSON merge patch of a namespace's custom metadata: a key set to null goes, the others are set",
    source: `${NAMESPACES_DOC} (Patch namespace); openbao vault/logical_system_namespaces.go handleNamespacesPatch`,
    setup: [{ method: 'POST', path: 'sys/namespaces/team-a', body: { custom_metadata: { owner: 'ops', tier: 'gold' } } }],
    request: { method: 'PATCH', path: 'sys/namespaces/team-a', headers: MERGE_PATCH, body: { custom_metadata: { owner: null, cost: 'c1' } } },
    expect: { status: 200, body: { data: { path: 'team-a/', custom_metadata: { tier: 'gold', cost: 'c1' } } }, absent: ['data.custom_metadata.owner'] },
  },
  {
    says: 'a PATCH whose body is not a merge patch is refused before anything else (415)',
    source: 'http/logical.go buildLogicalRequestNoAuth ("PATCH requires Content-Type of application/merge-patch+json")',
    setup: [createTeamA],
    request: { method: 'PATCH', path: 'sys/namespaces/team-a', body: { custom_metadata: { tier: 'gold' } } },
    expect: { status: 415, body: { errors: ['PATCH requires Content-Type of application/merge-patch+json, provided application/json'] } },
  },
  {
    says: 'a PATCH of a namespace that does not exist is refused',
    source: `${NAMESPACES_DOC} (Patch namespace: "an existing namespace"); openbao vault/logical_system_namespaces.go handleNamespacesPatch`,
    request: { method: 'PATCH', path: 'sys/namespaces/nope', headers: MERGE_PATCH, body: { custom_metadata: { tier: 'gold' } } },
    expect: { status: 400, body: { errors: ['namespace not found'] } },
  },
  {
    says: 'a namespace with child namespaces cannot be deleted',
    source: 'website/content/api-docs/system/namespaces.mdx ("You cannot delete a namespace with existing child namespaces", hvac delete_namespace); the text as terraform-provider-vault vault/resource_namespace.go namespaceDelete quotes it',
    setup: [createTeamA, { method: 'POST', path: 'team-a/sys/namespaces/dev' }],
    request: { method: 'DELETE', path: 'sys/namespaces/team-a' },
    expect: { status: 400, body: { errors: ['child namespaces exist under path "team-a/", cannot remove'] } },
  },
];
