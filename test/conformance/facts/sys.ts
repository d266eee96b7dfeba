import { expect } from 'vitest';
import type { Fact, Step } from '../fact.js';

const HEALTH_GO = 'http/sys_health.go';
const HEALTH_DOC = 'website/content/api-docs/system/health.mdx';
const LOGICAL_SYSTEM_GO = 'vault/logical_system.go';
const DR = 'sys/replication/dr';

const enableLdap: Step = { method: 'POST', path: 'sys/auth/ldap', body: { type: 'ldap' } };

export const SYS_FACTS: readonly Fact[] = [
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
