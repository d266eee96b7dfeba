import { expect } from 'vitest';
import type { Fact, Step } from '../fact.js';

const TOKEN_STORE_GO = 'vault/token_store.go';
const TOKEN_DOC = 'website/content/api-docs/auth/token.mdx';
const DEFAULT_POLICY = 'vault/policy_store.go (defaultPolicy: lookup-self, renew-self, revoke-self)';

/** A child token with the `default` policy only, captured as `child` (its accessor as `childAccessor`). */
const createChild: Step = {
  method: 'POST',
  path: 'auth/token/create',
  body: { policies: ['default'], ttl: '1h', meta: { owner: 'fact' } },
  capture: { child: 'auth.client_token', childAccessor: 'auth.accessor' },
};

export const TOKEN_FACTS: readonly Fact[] = [
  {
    says: 'auth/token/create answers the auth block: the policies with default, the lease, a renewable service token',
    source: `${TOKEN_STORE_GO} (handleCreateCommon), sdk/logical HTTPAuth, ${TOKEN_DOC}`,
    request: { method: 'POST', path: 'auth/token/create', body: { policies: ['Dev', 'ops'], ttl: '1h' } },
    expect: {
      status: 200,
      body: {
        data: null,
        auth: {
          client_token: expect.stringMatching(/^hvs\./),
          accessor: expect.any(String),
          policies: ['default', 'dev', 'ops'],
          token_policies: ['default', 'dev', 'ops'],
          metadata: null,
          lease_duration: 3600,
          renewable: true,
          entity_id: '',
          token_type: 'service',
          orphan: false,
          num_uses: 0,
        },
      },
      absent: ['auth.identity_policies'],
    },
  },
  {
    says: 'a token with the default policy can look itself up',
    source: `${DEFAULT_POLICY}, ${TOKEN_STORE_GO} (handleLookup)`,
    setup: [createChild],
    request: { method: 'GET', path: 'auth/token/lookup-self', token: { captured: 'child' } },
    expect: { status: 200, body: { data: { policies: ['default'], meta: { owner: 'fact' }, renewable: true, path: 'auth/token/create', orphan: false } } },
  },
  {
    says: 'a token with the default policy can renew itself; the answer is an auth block',
    source: `${DEFAULT_POLICY}, ${TOKEN_STORE_GO} (handleRenewSelf)`,
    setup: [createChild],
    request: { method: 'POST', path: 'auth/token/renew-self', token: { captured: 'child' }, body: { increment: '30m' } },
    expect: { status: 200, body: { auth: { client_token: '<<child>>', lease_duration: 1800, renewable: true, policies: ['default'] } } },
  },
  {
    says: 'a token with the default policy can revoke itself; it is gone afterwards',
    source: `${DEFAULT_POLICY}, ${TOKEN_STORE_GO} (handleRevokeSelf)`,
    setup: [createChild, { method: 'POST', path: 'auth/token/revoke-self', token: { captured: 'child' }, okStatus: [204] }],
    request: { method: 'GET', path: 'auth/token/lookup-self', token: { captured: 'child' } },
    expect: { status: 403, body: { errors: ['permission denied'] } },
  },
  {
    says: 'the default policy does not reach administrative paths',
    source: DEFAULT_POLICY,
    setup: [createChild],
    request: { method: 'GET', path: 'sys/auth', token: { captured: 'child' } },
    expect: { status: 403, body: { errors: ['1 error occurred:\n\t* permission denied\n\n'] } },
  },
  {
    says: '#22.3: the default policy grants lookup-self read only: a POST is refused',
    source: `${DEFAULT_POLICY} (capabilities ["read"]), vault/request_handling.go (CheckToken)`,
    setup: [createChild],
    request: { method: 'POST', path: 'auth/token/lookup-self', token: { captured: 'child' }, body: {} },
    expect: { status: 403, body: { errors: ['1 error occurred:\n\t* permission denied\n\n'] } },
  },
  {
    says: "#22.3: GET auth/token/lookup takes the token from the query",
    source: `${TOKEN_STORE_GO} (handleLookup: data.Get("token"); the framework reads a GET's query)`,
    setup: [createChild],
    request: { method: 'GET', path: 'auth/token/lookup?token=<<child>>' },
    expect: { status: 200, body: { data: { id: '<<child>>', policies: ['default'] } } },
  },
  {
    says: 'auth/token/lookup looks up the token in the body',
    source: `${TOKEN_STORE_GO} (handleLookup)`,
    setup: [createChild],
    request: { method: 'POST', path: 'auth/token/lookup', body: { token: '<<child>>' } },
    expect: { status: 200, body: { data: { id: '<<child>>', accessor: '<<childAccessor>>', policies: ['default'], ttl: expect.any(Number) } } },
  },
  {
    says: 'auth/token/lookup of an unknown token is 403 "bad token"',
    source: `${TOKEN_STORE_GO} (handleLookup: ErrorResponse("bad token"), ErrPermissionDenied)`,
    request: { method: 'POST', path: 'auth/token/lookup', body: { token: 'hvs.unknown' } },
    expect: { status: 403, body: { errors: ['bad token'] } },
  },
  {
    says: 'auth/token/lookup-accessor answers the lookup with the id blanked',
    source: `${TOKEN_STORE_GO} (handleUpdateLookupAccessor: resp.Data["id"] = "")`,
    setup: [createChild],
    request: { method: 'POST', path: 'auth/token/lookup-accessor', body: { accessor: '<<childAccessor>>' } },
    expect: { status: 200, body: { data: { id: '', accessor: '<<childAccessor>>', policies: ['default'] } } },
  },
  {
    says: 'auth/token/lookup-accessor of an unknown accessor is 400 "invalid accessor", gathered as an error the backend returned',
    source: `${TOKEN_STORE_GO} (lookupByAccessor: StatusBadRequest "invalid accessor"), vault/request_handling.go (multierror.Append of the routing error)`,
    request: { method: 'POST', path: 'auth/token/lookup-accessor', body: { accessor: 'nope' } },
    expect: { status: 400, body: { errors: ['1 error occurred:\n\t* invalid accessor\n\n'] } },
  },
];
