/**
 * The conformance facts test/real-server/facts.test.ts does not run against the real server
 * (OpenBao 2.6.2), each with why: `enterprise`, a feature only Vault Enterprise has; `vault`,
 * an answer where Vault's source says otherwise than OpenBao's (serve follows Vault; `reason`
 * names the files, as the rows of differences.ts do for the corpus).
 */
export interface FactExclusion {
  /** The fact's `says`, exactly. */
  says: string;
  kind: 'enterprise' | 'vault';
  reason: string;
}

const V = 'hashicorp/vault';
const B = 'openbao/openbao';

const DR = 'DR replication is Vault Enterprise only; OpenBao has none';
const MANAGED_KEYS = 'managed keys are Vault Enterprise only; OpenBao has no sys/managed-keys';
const HVS = `Vault issues service tokens as hvs. (${V} vault/token_store.go TokenPrefix); OpenBao as s.`;
const PARSE = `Vault words an undecodable body "failed to parse JSON input: %w" (${V} http/handler.go parseJSONRequest); OpenBao "failed to decode JSON input: %w" (${B} internal/http/json.go)`;
const JSON_LIMITS = `Vault 1.20.3 and later check every body with their own tokenizer before decoding it and answer its error with a 500 (${V} http/util.go wrapJSONLimitsHandler, sdk/helper/jsonutil/json.go VerifyMaxDepthStreaming, CVE-2025-6203); OpenBao has no such check: its decoder answers 400, or reads the first value and leaves what follows (${B} internal/http/json.go)`;
const CONVERT = `Vault names the value, "error converting input %v for field %q", and words the inner error as mitchellh/mapstructure (${V} sdk/framework/field_data.go Validate); OpenBao leaves the value out and uses go-viper/mapstructure v2 (${B} sdk/framework/field_data.go)`;

export const FACTS_NOT_FOR_THE_REAL_SERVER: readonly FactExclusion[] = [
  {
    says: 'a namespace with child namespaces cannot be deleted',
    kind: 'vault',
    reason: 'both refuse with 400; the text is Vault\'s as terraform-provider-vault vault/resource_namespace.go quotes it, OpenBao words it "unable to delete namespace containing child namespaces" (openbao/openbao vault/namespace_store.go)',
  },
  // Vault Enterprise only
  { says: 'sys/health answers 200 to any client on an active node', kind: 'enterprise', reason: `the version is Vault Enterprise's, \`+ent\` (${V} version/version_base.go)` },
  { says: 'a DR secondary answers sys/health with 472 by default', kind: 'enterprise', reason: DR },
  { says: 'a DR secondary answers sys/health with drsecondarycode when given', kind: 'enterprise', reason: DR },
  { says: 'sys/seal-status is served on a DR secondary too', kind: 'enterprise', reason: DR },
  { says: 'an operation-token attempt read carries otp, empty', kind: 'enterprise', reason: DR },
  { says: 'the answer starting an attempt without otp or pgp_key carries the generated 28-character otp', kind: 'enterprise', reason: DR },
  { says: 'a read of an attempt in progress carries otp, empty (never the one-time password)', kind: 'enterprise', reason: DR },
  { says: "a DR secondary's status lists its primary under primaries[]", kind: 'enterprise', reason: DR },
  { says: "a DR primary's secondaries[] entries carry cluster_address", kind: 'enterprise', reason: DR },
  { says: 'a pkcs11 key reads back mechanism and slot as numbers, the PIN as "redacted"', kind: 'enterprise', reason: MANAGED_KEYS },
  { says: 'a mechanism given as 0x1041 (CKM_ECDSA) reads back as 4161', kind: 'enterprise', reason: MANAGED_KEYS },
  { says: 'allowed_managed_keys shows once set', kind: 'enterprise', reason: MANAGED_KEYS },
  {
    says: 'a deleted namespace is gone with what it held',
    kind: 'enterprise',
    reason: `namespaces are Vault Enterprise's, whose deletion is not public code; OpenBao deletes in the background and answers 200 \`in-progress\` (${B} internal/vault/namespace_store.go DeleteNamespace; differences.ts, ns-delete)`,
  },
  // Vault's source says otherwise than OpenBao's
  { says: 'auth/token/create answers the auth block: the policies with default, the lease, a renewable service token', kind: 'vault', reason: HVS },
  { says: 'a login answers the auth block as the service shapes it: sanitised policies, metadata, no empty identity_policies', kind: 'vault', reason: HVS },
  {
    says: 'an auth method entry carries deprecation_status, a builtin running_plugin_version and no allowed_managed_keys when unset',
    kind: 'vault',
    reason: `builtin plugins run as v1.21.0+builtin.vault (${V} helper/versions/version.go); OpenBao's as v2.6.2+builtin.bao`,
  },
  {
    says: 'a config never written reads back with the default filter templates and the fields of ConfigEntry',
    kind: 'vault',
    reason: `enable_samaccountname_login, password_policy and the automated rotation fields came to Vault after OpenBao forked (${V} sdk/helper/ldaputil/config.go ConfigFields, sdk/helper/automatedrotationutil/fields.go)`,
  },
  {
    says: 'a write sets rotation_schema and rotation_credential_type to their defaults when not given',
    kind: 'vault',
    reason: `the rotation fields are Vault's, added after the fork (${V} builtin/credential/ldap/path_config.go pathConfigWrite)`,
  },
  { says: "#22: a body that is not JSON is refused with Go's decoder error", kind: 'vault', reason: PARSE },
  { says: '#22: a body cut short is refused by the JSON limits check, before the decoder, with a 500 (Vault 1.20.3 and later)', kind: 'vault', reason: JSON_LIMITS },
  { says: "#22: a JSON body that is not an object cannot be decoded into the request's map", kind: 'vault', reason: PARSE },
  { says: '#22: the decoder reads one JSON value, but the JSON limits check before it refuses what follows it, with a 500 (Vault 1.20.3 and later)', kind: 'vault', reason: JSON_LIMITS },
  { says: '#22: a typed field that does not convert is refused naming the value as Go prints it', kind: 'vault', reason: CONVERT },
  { says: "#22: a comma-list field given an object is refused in mapstructure's words, the value printed as Go's %v", kind: 'vault', reason: CONVERT },
];
