/**
 * Every LDAP configuration and token field of the spec, with its type, default and how the
 * server returns it. One table drives validation of resolved values, the desired attrs and
 * the normalisation of live answers, so the three cannot drift apart.
 */
export const TLS_VERSIONS = ['tls10', 'tls11', 'tls12', 'tls13'] as const;
const DEREFERENCE_ALIASES = ['never', 'finding', 'searching', 'always'] as const;
/** What the server reads an unset userfilter / groupfilter back as (sdk/helper/ldaputil/config.go ConfigFields). */
const DEFAULT_USERFILTER = '({{.UserAttr}}={{.Username}})';
const DEFAULT_GROUPFILTER = '(|(memberUid={{.Username}})(member={{.UserDN}})(uniqueMember={{.UserDN}}))';

/** '' = not set (the mount's default). */
const TOKEN_TYPES = ['', 'service', 'batch', 'default'] as const;

/** How a field is written and read. */
type FieldType =
  /**
   * Text kept as given; `lowerCase` when the server lower-cases it on write; `emptyIsDefault`
   * when "" means the default (the filter templates: the server reads an unset one back as
   * its default template and uses that default for "").
   */
  | { type: 'string'; default: string; lowerCase?: boolean; emptyIsDefault?: true }
  /** YAML boolean or "true"/"false" text → boolean. */
  | { type: 'bool'; default: boolean }
  /** Whole seconds or a duration string → integer seconds. */
  | { type: 'duration'; default: number }
  /** Whole number ≥ 0 (or its digits as text) → integer. */
  | { type: 'count'; default: number }
  /**
   * Whole number, negative ones too: what the service stores as given (max_page_size: any value
   * below 1 turns paging off, and terraform-provider-vault writes -1 with every config).
   */
  | { type: 'integer'; default: number }
  /**
   * List or comma string → array; `tokenPolicies`: trimmed only (the server keeps case, order
   * and duplicates of token_policies); `cidrs`: trimmed, order kept.
   */
  | { type: 'list'; default: readonly string[]; items: 'tokenPolicies' | 'cidrs' }
  | { type: 'enum'; default: string; values: readonly string[] };

export type LdapFieldSpec = FieldType & {
  name: string;
  /** Never returned by a read: sent on every write, not compared. */
  writeOnly?: true;
  /** Must be a reference; rendered as (sensitive). */
  secret?: true;
};

export const LDAP_FIELD_SPECS: readonly LdapFieldSpec[] = [
  { name: 'url', type: 'string', default: 'ldap://127.0.0.1', lowerCase: true },
  { name: 'case_sensitive_names', type: 'bool', default: false },
  { name: 'connection_timeout', type: 'duration', default: 30 },
  { name: 'request_timeout', type: 'duration', default: 90 },
  { name: 'starttls', type: 'bool', default: false },
  { name: 'tls_min_version', type: 'enum', default: 'tls12', values: TLS_VERSIONS },
  { name: 'tls_max_version', type: 'enum', default: 'tls12', values: TLS_VERSIONS },
  { name: 'insecure_tls', type: 'bool', default: false },
  { name: 'certificate', type: 'string', default: '' },
  { name: 'client_tls_cert', type: 'string', default: '', writeOnly: true },
  { name: 'client_tls_key', type: 'string', default: '', writeOnly: true, secret: true },
  { name: 'binddn', type: 'string', default: '' },
  { name: 'bindpass', type: 'string', default: '', writeOnly: true, secret: true },
  { name: 'userdn', type: 'string', default: '' },
  { name: 'userattr', type: 'string', default: 'cn', lowerCase: true },
  { name: 'discoverdn', type: 'bool', default: false },
  { name: 'deny_null_bind', type: 'bool', default: true },
  { name: 'upndomain', type: 'string', default: '' },
  { name: 'userfilter', type: 'string', default: DEFAULT_USERFILTER, emptyIsDefault: true },
  { name: 'anonymous_group_search', type: 'bool', default: false },
  { name: 'groupfilter', type: 'string', default: DEFAULT_GROUPFILTER, emptyIsDefault: true },
  { name: 'groupdn', type: 'string', default: '' },
  // The spec says "empty (effective default cn)"; the server reads it back as "cn".
  { name: 'groupattr', type: 'string', default: 'cn' },
  // false on a new config; true asks for the pre-1.11 group names (ldaputil client.go getCN).
  { name: 'use_pre111_group_cn_behavior', type: 'bool', default: false },
  { name: 'username_as_alias', type: 'bool', default: false },
  { name: 'dereference_aliases', type: 'enum', default: 'never', values: DEREFERENCE_ALIASES },
  { name: 'max_page_size', type: 'integer', default: 0 },
  { name: 'token_ttl', type: 'duration', default: 0 },
  { name: 'token_max_ttl', type: 'duration', default: 0 },
  { name: 'token_policies', type: 'list', default: [], items: 'tokenPolicies' },
  // Deprecated alias of token_policies; the server reads it back equal to token_policies.
  { name: 'policies', type: 'list', default: [], items: 'tokenPolicies' },
  { name: 'token_bound_cidrs', type: 'list', default: [], items: 'cidrs' },
  { name: 'token_explicit_max_ttl', type: 'duration', default: 0 },
  { name: 'token_no_default_policy', type: 'bool', default: false },
  { name: 'token_num_uses', type: 'count', default: 0 },
  { name: 'token_period', type: 'duration', default: 0 },
  { name: 'token_type', type: 'enum', default: 'default', values: TOKEN_TYPES },
];

/** Every config and token field name, in the spec's order. */
export const LDAP_CONFIG_FIELDS: readonly string[] = LDAP_FIELD_SPECS.map((f) => f.name);

/** Fields the server never returns (bindpass, client_tls_cert, client_tls_key). */
export const LDAP_WRITE_ONLY_FIELDS: readonly string[] = LDAP_FIELD_SPECS.filter((f) => f.writeOnly).map((f) => f.name);

/** Fields whose values are secrets (bindpass, client_tls_key). */
export const LDAP_SECRET_FIELDS: readonly string[] = LDAP_FIELD_SPECS.filter((f) => f.secret).map((f) => f.name);

export function ldapFieldSpec(name: string): LdapFieldSpec | undefined {
  return LDAP_FIELD_SPECS.find((f) => f.name === name);
}
