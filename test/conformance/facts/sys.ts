import { expect } from 'vitest';
import type { Fact, Step } from '../fact.js';

const HEALTH_GO = 'http/sys_health.go';
const HEALTH_DOC = 'website/content/api-docs/system/health.mdx';
const LOGICAL_SYSTEM_GO = 'vault/logical_system.go';
const DR = 'sys/replication/dr';

const enableLdap: Step = { method: 'POST', path: 'sys/auth/ldap', body: { type: 'ldap' } };

const JSON_LIMITS = 'http/util.go (wrapJSONLimitsHandler: respondError(w, http.StatusInternalServerError, err)), sdk/helper/jsonutil/json.go (VerifyMaxDepthStreaming)';
const PARSE_JSON = 'http/handler.go (parseJSONRequest: jsonutil.DecodeJSONFromReader, "failed to parse JSON input: %w"), Go encoding/json';

export const SYS_FACTS: readonly Fact[] = [
  {
    says: '#22: a body that is not JSON is refused with Go\'s decoder error',
    source: `${PARSE_JSON} scanner.go (SyntaxError)`,
    request: { method: 'POST', path: 'sys/auth/badjson', rawBody: 'policies=default' },
    expect: { status: 400, body: { errors: ["failed to parse JSON input: invalid character 'p' looking for beginning of value"] } },
  },
  {
    says: '#22: a body cut short is refused by the JSON limits check, before the decoder, with a 500 (Vault 1.20.3 and later)',
    source: `${JSON_LIMITS} ("malformed JSON, unclosed containers")`,
    request: { method: 'POST', path: 'sys/auth/badjson', rawBody: '{"type": "ldap"' },
    expect: { status: 500, body: { errors: ['malformed JSON, unclosed containers'] } },
  },
  {
    says: '#22: a JSON body that is not an object cannot be decoded into the request\'s map',
    source: `${PARSE_JSON} decode.go (UnmarshalTypeError)`,
    request: { method: 'POST', path: 'sys/auth/badjson', rawBody: '["ldap"]' },
    expect: { status: 400, body: { errors: ['failed to parse JSON input: json: cannot unmarshal array into Go value of type map[string]interface {}'] } },
  },
  {
    says: '#22: the decoder reads one JSON value, but the JSON limits check before it refuses what follows it, with a 500 (Vault 1.20.3 and later)',
    source: `${JSON_LIMITS} ("invalid character %c after top-level value")`,
    request: { method: 'POST', path: 'sys/auth/trailing', rawBody: '{"type": "ldap"} and more' },
    expect: { status: 500, body: { errors: ["invalid character 'a' after top-level value"] } },
  },
  {
    says: '#22: enabling an auth method without a type is refused',
    source: `${LOGICAL_SYSTEM_GO} (handleEnableAuth: "backend type must be specified as a string")`,
    request: { method: 'POST', path: 'sys/auth/notype', body: {} },
    expect: { status: 400, body: { errors: ['backend type must be specified as a string'] } },
  },
  {
    says: '#22: an auth method enabled without options has an empty options map',
    source: `${LOGICAL_SYSTEM_GO} (handleEnableAuth: data.Get("options"), TypeKVPairs' zero value is an empty map; mountInfo "options")`,
    setup: [enableLdap],
    request: { method: 'GET', path: 'sys/auth/ldap' },
    expect: { status: 200, body: { data: { options: {} } } },
  },
  {
    says: 'sys/health answers 200 to any client on an active node',
    source: `${HEALTH_GO} (getSysHealth), ${HEALTH_DOC}`,
    request: { method: 'GET', path: 'sys/health', token: 'none' },
    expect: {
      status: 200,
      body: { initialized: true, sealed: false, standby: false, replication_dr_mode: 'disabled', version: expect.stringMatching(/^1\.\d+\.\d+\+ent$/) },
    },
  },
  {
    says: 'sys/health honours activecode',
    source: `${HEALTH_GO} (fetchStatusCode "activecode")`,
    request: { method: 'GET', path: 'sys/health?activecode=299', token: 'none' },
    expect: { status: 299, body: { initialized: true } },
  },
  {
    says: 'sys/health answers HEAD with the status and no body',
    source: `${HEALTH_GO} (handleSysHealthHead)`,
    request: { method: 'HEAD', path: 'sys/health?activecode=204', token: 'none' },
    expect: { status: 204, noBody: true },
  },
  {
    says: 'sys/health refuses a status code that is not a number with a 400 and no messages',
    source: `${HEALTH_GO} (fetchStatusCode: strconv.Atoi fails → http.StatusBadRequest)`,
    request: { method: 'GET', path: 'sys/health?activecode=ok', token: 'none' },
    expect: { status: 400, body: { errors: [] } },
  },
  {
    says: 'sys/health refuses a standbyok that is not a boolean',
    source: `${HEALTH_GO} (parseutil.ParseBool of standbyok)`,
    request: { method: 'GET', path: 'sys/health?standbyok=maybe', token: 'none' },
    expect: { status: 400 },
  },
  {
    says: '#15.2: sys/health reads an empty standbyok as false (parseutil.ParseBool: mapstructure weak decoding takes "" as false)',
    source: `${HEALTH_GO} (parseutil.ParseBool of standbyok), hashicorp/go-secure-stdlib parseutil/parseutil.go (ParseBool)`,
    request: { method: 'GET', path: 'sys/health?standbyok=', token: 'none' },
    expect: { status: 200, body: { initialized: true } },
  },
  {
    says: 'a DR secondary answers sys/health with 472 by default',
    source: `${HEALTH_GO} (drSecondaryCode := 472), ${HEALTH_DOC}`,
    scenario: 'dr-pair',
    request: { method: 'GET', path: 'sys/health', token: 'none', cluster: 1 },
    expect: { status: 472, body: { replication_dr_mode: 'secondary' } },
  },
  {
    says: 'a DR secondary answers sys/health with drsecondarycode when given',
    source: `${HEALTH_GO} (fetchStatusCode "drsecondarycode"), ${HEALTH_DOC} (sample request)`,
    scenario: 'dr-pair',
    request: { method: 'GET', path: 'sys/health?drsecondarycode=200', token: 'none', cluster: 1 },
    expect: { status: 200, body: { replication_dr_mode: 'secondary' } },
  },
  {
    says: 'sys/seal-status answers any client, without the envelope',
    source: 'http/sys_seal.go (handleSysSealStatusRaw), api/sys_seal.go (SealStatusResponse)',
    request: { method: 'GET', path: 'sys/seal-status', token: 'none' },
    expect: {
      status: 200,
      body: { type: 'shamir', initialized: true, sealed: false, t: 1, n: 1, progress: 0, nonce: '', migration: false, recovery_seal: false, version: expect.any(String) },
      absent: ['data'],
    },
  },
  {
    says: 'sys/seal-status is served on a DR secondary too',
    source: 'http/sys_seal.go (handleSysSealStatus is not a replicated path)',
    scenario: 'dr-pair',
    request: { method: 'GET', path: 'sys/seal-status', token: 'none', cluster: 1 },
    expect: { status: 200, body: { sealed: false } },
  },
  {
    says: 'GET sys/init answers whether the node is initialised, to any client',
    source: 'http/sys_init.go (handleSysInitGet)',
    request: { method: 'GET', path: 'sys/init', token: 'none' },
    expect: { status: 200, body: { initialized: true } },
  },
  {
    says: 'an auth method entry carries deprecation_status, a builtin running_plugin_version and no allowed_managed_keys when unset',
    source: `${LOGICAL_SYSTEM_GO} (mountInfo), helper/versions/version.go (DefaultBuiltinVersion)`,
    setup: [enableLdap],
    request: { method: 'GET', path: 'sys/auth/ldap' },
    expect: {
      status: 200,
      body: {
        data: {
          type: 'ldap',
          deprecation_status: 'supported',
          running_plugin_version: expect.stringMatching(/^v1\.\d+\.\d+\+builtin\.vault$/),
          config: { default_lease_ttl: 0, max_lease_ttl: 0, token_type: 'default-service' },
        },
      },
      absent: ['data.config.allowed_managed_keys'],
    },
  },
  {
    says: 'sys/auth lists entries the same way',
    source: `${LOGICAL_SYSTEM_GO} (handleAuthTable, mountInfo)`,
    setup: [enableLdap],
    request: { method: 'GET', path: 'sys/auth' },
    expect: { status: 200, body: { data: { 'ldap/': { deprecation_status: 'supported' } } }, absent: ['data.ldap/.config.allowed_managed_keys'] },
  },
  {
    says: 'allowed_managed_keys shows once set',
    source: `${LOGICAL_SYSTEM_GO} (mountInfo: synthesizedConfigCache "allowed_managed_keys")`,
    setup: [enableLdap, { method: 'POST', path: 'sys/auth/ldap/tune', body: { allowed_managed_keys: ['k1'] } }],
    request: { method: 'GET', path: 'sys/auth/ldap' },
    expect: { status: 200, body: { data: { config: { allowed_managed_keys: ['k1'] } } } },
  },
  {
    says: 'a tune read shows allowed_managed_keys only when set',
    source: `${LOGICAL_SYSTEM_GO} (handleTuneReadCommon: synthesizedConfigCache "allowed_managed_keys")`,
    setup: [enableLdap],
    request: { method: 'GET', path: 'sys/auth/ldap/tune' },
    expect: { status: 200, body: { data: { default_lease_ttl: expect.any(Number), token_type: 'default-service' } }, absent: ['data.allowed_managed_keys'] },
  },
  {
    says: 'the kv mount entry carries deprecation_status; system mounts (not registry plugins) carry none',
    source: `${LOGICAL_SYSTEM_GO} (mountInfo: builtinRegistry.DeprecationStatus)`,
    request: { method: 'GET', path: 'sys/mounts' },
    expect: { status: 200, body: { data: { 'secret/': { type: 'kv', deprecation_status: 'supported' } } }, absent: ['data.sys/.deprecation_status'] },
  },
  {
    says: '#22.3: GET sys/auth/:path also carries the data at the top of the envelope (a route of the mux that injects it)',
    source: 'http/handler.go (injectDataIntoTopRoutes "/v1/sys/auth/"), http/logical.go (respondLogical)',
    setup: [enableLdap],
    request: { method: 'GET', path: 'sys/auth/ldap/tune' },
    expect: { status: 200, body: { token_type: 'default-service', data: { token_type: 'default-service' } } },
  },
  {
    says: '#22.3: a namespace in the path is not one of the injecting routes: no data at the top',
    source: 'http/handler.go (injectDataIntoTopRoutes are matched against the URL path; "/v1/" serves the rest)',
    setup: [{ method: 'POST', path: 'sys/namespaces/team-a' }],
    request: { method: 'GET', path: 'team-a/sys/auth' },
    expect: { status: 200, body: { data: { 'token/': { type: 'ns_token' } } }, absent: ['token/'] },
  },
  {
    says: '#22.3: a tune whose max lease TTL is below its default is refused',
    source: `${LOGICAL_SYSTEM_GO} (handleTuneWriteCommon: "backend max lease TTL of %d would be less than backend default lease TTL of %d")`,
    setup: [enableLdap],
    request: { method: 'POST', path: 'sys/auth/ldap/tune', body: { default_lease_ttl: '5h', max_lease_ttl: '1h' } },
    expect: { status: 400, body: { errors: ['backend max lease TTL of 3600 would be less than backend default lease TTL of 18000'] } },
  },
  {
    says: "#22.3: a tune's lease TTL that does not parse is refused with the parser's words only",
    source: `${LOGICAL_SYSTEM_GO} (handleTuneWriteCommon: parseutil.ParseDurationSecond, handleError)`,
    setup: [enableLdap],
    request: { method: 'POST', path: 'sys/auth/ldap/tune', body: { default_lease_ttl: 'soon' } },
    expect: { status: 400, body: { errors: ['time: invalid duration "soon"'] } },
  },
  {
    says: '#22.3: a secrets engine type outside the catalog is refused',
    source: 'vault/plugin_catalog.go (ErrPluginNotFound), vault/mount.go',
    request: { method: 'POST', path: 'sys/mounts/weird', body: { type: 'nope' } },
    expect: { status: 400, body: { errors: ['plugin not found in the catalog: nope'] } },
  },
  {
    says: '#22.3: the token method can be neither enabled again nor disabled',
    source: 'vault/auth.go (enableCredential, disableCredential)',
    setup: [{ method: 'DELETE', path: 'sys/auth/token', okStatus: [400] }],
    request: { method: 'POST', path: 'sys/auth/token2', body: { type: 'token' } },
    expect: { status: 400, body: { errors: ['token credential backend cannot be instantiated'] } },
  },
  {
    says: '#22.3: disabling the token method is refused',
    source: 'vault/auth.go (disableCredential: "token credential backend cannot be disabled")',
    request: { method: 'DELETE', path: 'sys/auth/token' },
    expect: { status: 400, body: { errors: ['token credential backend cannot be disabled'] } },
  },
  {
    says: "#22.3: a write to a path ending in '/' is refused before anything else",
    source: "vault/request_handling.go (handleCancelableRequest: \"cannot write to a path ending in '/'\")",
    request: { method: 'POST', path: 'sys/auth/', body: { type: 'ldap' } },
    expect: { status: 400, body: { errors: ["cannot write to a path ending in '/'"] } },
  },
  {
    says: '#22.3: the sys/ mount is seal-wrapped and passes Accept through; identity/ passes Authorization',
    source: 'vault/mount.go (requiredMountTable), vault/logical_system.go (mountInfo: passthrough_request_headers when set)',
    request: { method: 'GET', path: 'sys/mounts' },
    expect: {
      status: 200,
      body: { data: { 'sys/': { seal_wrap: true, config: { passthrough_request_headers: ['Accept'] } }, 'identity/': { config: { passthrough_request_headers: ['Authorization'] } } } },
      absent: ['data.secret/.config.passthrough_request_headers'],
    },
  },
  {
    says: '#22.3: a path no mount serves is a 404 naming the route',
    source: 'vault/router.go (routeCommon: "no handler for route %q. route entry not found.")',
    request: { method: 'GET', path: 'auth/nope/config' },
    expect: { status: 404, body: { errors: ['no handler for route "auth/nope/config". route entry not found.'] } },
  },
  {
    says: "#22.3: a path an auth method does not serve is its backend's unsupported path",
    source: 'sdk/framework/backend.go (HandleRequest: logical.ErrUnsupportedPath), vault/request_handling.go (multierror)',
    setup: [enableLdap],
    request: { method: 'GET', path: 'auth/ldap/nope' },
    expect: { status: 404, body: { errors: ['1 error occurred:\n\t* unsupported path\n\n'] } },
  },
  {
    says: 'GET sys/auth/:path of a missing method is a 400 naming the path without auth/',
    source: `${LOGICAL_SYSTEM_GO} (handleReadAuth: "No auth engine at %s", sanitizePath)`,
    request: { method: 'GET', path: 'sys/auth/nope' },
    expect: { status: 400, body: { errors: ['No auth engine at nope/'] } },
  },
  {
    says: 'an operation-token attempt read carries otp, empty',
    source: 'vault/generate_root.go (GenerateRootStatusResponse: `json:"otp"` without omitempty)',
    scenario: 'dr-pair',
    request: { method: 'GET', path: `${DR}/secondary/generate-operation-token/attempt`, token: 'none', cluster: 1 },
    expect: { status: 200, body: { started: false, otp: '', otp_length: expect.any(Number) } },
  },
  {
    says: 'the answer starting an attempt without otp or pgp_key carries the generated 28-character otp',
    source: 'vault/generate_root.go (GenerateRootInit, GenerateRootStatusResponse)',
    scenario: 'dr-pair',
    request: { method: 'POST', path: `${DR}/secondary/generate-operation-token/attempt`, token: 'none', cluster: 1, body: {} },
    expect: { status: 200, body: { started: true, otp: expect.stringMatching(/^[A-Za-z0-9]{28}$/), otp_length: 28 } },
  },
  {
    says: 'a read of an attempt in progress carries otp, empty (never the one-time password)',
    source: 'vault/generate_root.go (GenerateRootStatusResponse), website/content/api-docs/system/replication/replication-dr.mdx',
    scenario: 'dr-pair',
    setup: [{ method: 'POST', path: `${DR}/secondary/generate-operation-token/attempt`, token: 'none', cluster: 1, body: {} }],
    request: { method: 'GET', path: `${DR}/secondary/generate-operation-token/attempt`, token: 'none', cluster: 1 },
    expect: { status: 200, body: { started: true, otp: '', encoded_token: '', complete: false } },
  },
  {
    says: "a DR secondary's status lists its primary under primaries[]",
    source: 'website/content/api-docs/system/replication/replication-dr.mdx (Sample Response from Secondary)',
    scenario: 'dr-pair',
    request: { method: 'GET', path: `${DR}/status`, token: 'none', cluster: 1 },
    expect: {
      status: 200,
      body: {
        data: {
          mode: 'secondary',
          primaries: [
            { api_address: expect.any(String), cluster_address: expect.any(String), connection_status: 'connected', last_heartbeat: expect.any(String) },
          ],
        },
      },
    },
  },
  {
    says: "a DR primary's secondaries[] entries carry cluster_address",
    source: 'website/content/api-docs/system/replication/replication-dr.mdx (Sample Response from Primary)',
    scenario: 'dr-pair',
    request: { method: 'GET', path: `${DR}/status`, token: 'none' },
    expect: {
      status: 200,
      body: {
        data: {
          mode: 'primary',
          secondaries: [{ node_id: 'west', api_address: expect.any(String), cluster_address: expect.any(String), connection_status: 'connected' }],
        },
      },
    },
  },
];
