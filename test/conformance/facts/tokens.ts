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

const createBody = (body: Record<string, unknown>): Step => ({ method: 'POST', path: 'auth/token/create', body });

export const TOKEN_FACTS: readonly Fact[] = [
  {
    says: '#22: token create takes policies as a string slice: a comma text is one policy, and a policy the store lacks is warned about',
    source: `${TOKEN_STORE_GO} (create's "policies" is framework.TypeStringSlice; handleCreateCommon: "Policy %q does not exist"), sdk/framework/field_data.go (TypeStringSlice: mapstructure.WeakDecode)`,
    request: createBody({ policies: 'default,Ops ,dev', ttl: 600 }),
    expect: {
      status: 200,
      body: { auth: { policies: ['default', 'default,ops ,dev'] }, warnings: ['Policy "default,ops ,dev" does not exist'] },
    },
  },
  {
    says: '#22: token create warns of each policy that does not exist, in the token\'s order',
    source: `${TOKEN_STORE_GO} (handleCreateCommon: te.Policies, GetPolicy, "Policy %q does not exist")`,
    request: createBody({ policies: ['Dev', 'ops'] }),
    expect: { status: 200, body: { warnings: ['Policy "dev" does not exist', 'Policy "ops" does not exist'] } },
  },
  {
    says: '#22: token create parses its ttl itself: a bad one is refused with the parser\'s words only',
    source: `${TOKEN_STORE_GO} (create's "ttl" is framework.TypeString; handleCreateCommon: parseutil.ParseDurationSecond, ErrorResponse(err.Error()))`,
    request: createBody({ ttl: 'soon' }),
    expect: { status: 400, body: { errors: ['time: invalid duration "soon"'] } },
  },
  {
    says: '#22: token create refuses a negative ttl',
    source: `${TOKEN_STORE_GO} (handleCreateCommon: "ttl must be positive")`,
    request: createBody({ ttl: '-5m' }),
    expect: { status: 400, body: { errors: ['ttl must be positive'] } },
  },
  {
    says: '#22: token create refuses a token type it does not know',
    source: `${TOKEN_STORE_GO} (handleCreateCommon: "invalid 'token_type' value")`,
    request: createBody({ type: 'nope' }),
    expect: { status: 400, body: { errors: ["invalid 'token_type' value"] } },
  },
  {
    says: '#22: token create takes meta as key=value pairs too',
    source: `${TOKEN_STORE_GO} (create's "meta" is framework.TypeKVPairs), sdk/framework/field_data.go (TypeKVPairs: a list of k=v texts)`,
    request: createBody({ meta: 'owner=ops', policies: ['default'] }),
    expect: { status: 200, body: { auth: { metadata: { owner: 'ops' } } } },
  },
  {
    says: '#22: token create warns of body members that are none of its fields',
    source: 'sdk/framework/backend.go (HandleRequest: "Endpoint ignored these unrecognized parameters")',
    request: createBody({ policies: ['default'], nope: 1 }),
    expect: { status: 200, body: { warnings: ['Endpoint ignored these unrecognized parameters: [nope]'] } },
  },
  {
    says: '#22: a typed field that does not convert is refused naming the value as Go prints it',
    source: 'sdk/framework/field_data.go (Validate: "error converting input %v for field %q"), sdk/framework/backend.go (HandleRequest: "Field validation failed")',
    request: createBody({ num_uses: 'many' }),
    expect: {
      status: 400,
      body: { errors: ['Field validation failed: error converting input many for field "num_uses": cannot parse \'\' as int: strconv.ParseInt: parsing "many": invalid syntax'] },
    },
  },
  {
    says: '#22: auth/token/lookup refuses a null token before the handler runs',
    source: 'vault/request_handling.go (auth/token/lookup: `token == nil` is "invalid token", ErrPermissionDenied)',
    request: { method: 'POST', path: 'auth/token/lookup', body: { token: null } },
    expect: { status: 403, body: { errors: ['invalid token'] } },
  },
  {
    says: '#22: a renewed token looks itself up with last_renewal and last_renewal_time',
    source: `${TOKEN_STORE_GO} (handleLookup: leaseTimes.LastRenewalTime)`,
    setup: [createChild, { method: 'POST', path: 'auth/token/renew-self', token: { captured: 'child' }, body: { increment: '30m' } }],
    request: { method: 'GET', path: 'auth/token/lookup-self', token: { captured: 'child' } },
    expect: { status: 200, body: { data: { last_renewal: expect.stringMatching(/^\d{4}-/), last_renewal_time: expect.any(Number) } } },
  },
  {
    says: '#22: a token never renewed looks itself up without last_renewal',
    source: `${TOKEN_STORE_GO} (handleLookup: only when LastRenewalTime is set)`,
    setup: [createChild],
    request: { method: 'GET', path: 'auth/token/lookup-self', token: { captured: 'child' } },
    expect: { status: 200, absent: ['data.last_renewal', 'data.last_renewal_time'] },
  },
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
