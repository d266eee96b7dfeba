import { releaseHas, type FieldRelease, type ServerRelease } from '../server-release.js';

/**
 * Every field the service answers on `auth/<mount>/config` (the spec's LDAP and token fields,
 * and those the spec does not list: sdk/helper/ldaputil/config.go ConfigFields,
 * builtin/credential/ldap/path_config.go, sdk/helper/automatedrotationutil/fields.go), with
 * its type, default, how the server returns it and the release it appeared in. One table
 * drives validation of resolved values, the desired attrs, the normalisation of live answers
 * and which fields a server's release has, so they cannot drift apart.
 */
export const TLS_VERSIONS = ['tls10', 'tls11', 'tls12', 'tls13'] as const;
const DEREFERENCE_ALIASES = ['never', 'finding', 'searching', 'always'] as const;
/** What the server reads an unset userfilter / groupfilter back as (sdk/helper/ldaputil/config.go ConfigFields). */
const DEFAULT_USERFILTER = '({{.UserAttr}}={{.Username}})';
const DEFAULT_GROUPFILTER = '(|(memberUid={{.Username}})(member={{.UserDN}})(uniqueMember={{.UserDN}}))';

/** '' = not set (the mount's default). */
const TOKEN_TYPES = ['', 'service', 'batch', 'default'] as const;
/** '' = not set: the service reads '' back before the first write, and a write without it stores the default. */
const ROTATION_SCHEMAS = ['', 'openldap', 'ad', 'racf'] as const;
const ROTATION_CREDENTIAL_TYPES = ['', 'password', 'phrase'] as const;

/**
 * Releases fields appeared in (hashicorp/vault CHANGELOG.md and the source history; OpenBao
 * forked in December 2023 and has every field older than that).
 */
const SINCE = {
  /** GH-8365 (anonymous_group_search, client_tls_cert, client_tls_key), March 2020. */
  v1_4: { vault: ['1.4.0'], openbao: true },
  /** request_timeout was taken from 1.3.1 but only read back from 1.8.0 (GH-11975). */
  v1_8: { vault: ['1.8.0'], openbao: true },
  /** userfilter (GH-11000). */
  v1_9: { vault: ['1.9.0'], openbao: true },
  /** username_as_alias (GH-14324), backported. */
  usernameAsAlias: { vault: ['1.8.10', '1.9.5', '1.10.0'], openbao: true },
  /** max_page_size (GH-19032), backported. */
  maxPageSize: { vault: ['1.11.10', '1.12.6', '1.13.2'], openbao: true },
  /** connection_timeout (GH-20144) and dereference_aliases (GH-18230), merged for 1.14. */
  v1_14: { vault: ['1.14.0'], openbao: true },
  /** enable_samaccountname_login, the root-credential rotation (password_policy, rotation_*): after OpenBao forked. */
  v1_19: { vault: ['1.19.0'], openbao: false },
  /** rotation_url (GH-31363) and the rotation schema and credential type. */
  v1_21: { vault: ['1.21.0'], openbao: false },
  /** alias_metadata: an Enterprise token field (tokenutil entTokenFields). */
  v1_21Ent: { vault: ['1.21.0'], enterpriseOnly: true, openbao: false },
} satisfies Record<string, FieldRelease>;

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
  /** `emptyIsDefault`: "" means the default (rotation_schema: '' until the first write). */
  | { type: 'enum'; default: string; values: readonly string[]; emptyIsDefault?: true }
  /** A map of text to text (alias_metadata: TypeKVPairs): a mapping, read back as an object. */
  | { type: 'map'; default: Readonly<Record<string, string>> };

export type LdapFieldSpec = FieldType & {
  name: string;
  /** Never returned by a read: sent on every write, not compared. */
  writeOnly?: true;
  /** Must be a reference; rendered as (sensitive). */
  secret?: true;
  /** The release it appeared in; absent: every release lockstep knows has it. */
  since?: FieldRelease;
};

export const LDAP_FIELD_SPECS: readonly LdapFieldSpec[] = [
  { name: 'url', type: 'string', default: 'ldap://127.0.0.1', lowerCase: true },
  { name: 'case_sensitive_names', type: 'bool', default: false },
  { name: 'connection_timeout', type: 'duration', default: 30, since: SINCE.v1_14 },
  { name: 'request_timeout', type: 'duration', default: 90, since: SINCE.v1_8 },
  { name: 'starttls', type: 'bool', default: false },
  { name: 'tls_min_version', type: 'enum', default: 'tls12', values: TLS_VERSIONS },
  { name: 'tls_max_version', type: 'enum', default: 'tls12', values: TLS_VERSIONS },
  { name: 'insecure_tls', type: 'bool', default: false },
  { name: 'certificate', type: 'string', default: '' },
  { name: 'client_tls_cert', type: 'string', default: '', writeOnly: true, since: SINCE.v1_4 },
  { name: 'client_tls_key', type: 'string', default: '', writeOnly: true, secret: true, since: SINCE.v1_4 },
  { name: 'binddn', type: 'string', default: '' },
  { name: 'bindpass', type: 'string', default: '', writeOnly: true, secret: true },
  { name: 'userdn', type: 'string', default: '' },
  { name: 'userattr', type: 'string', default: 'cn', lowerCase: true },
  { name: 'discoverdn', type: 'bool', default: false },
  { name: 'deny_null_bind', type: 'bool', default: true },
  { name: 'upndomain', type: 'string', default: '' },
  { name: 'userfilter', type: 'string', default: DEFAULT_USERFILTER, emptyIsDefault: true, since: SINCE.v1_9 },
  { name: 'anonymous_group_search', type: 'bool', default: false, since: SINCE.v1_4 },
  { name: 'groupfilter', type: 'string', default: DEFAULT_GROUPFILTER, emptyIsDefault: true },
  { name: 'groupdn', type: 'string', default: '' },
  // The spec says "empty (effective default cn)"; the server reads it back as "cn".
  { name: 'groupattr', type: 'string', default: 'cn' },
  // false on a new config; true asks for the pre-1.11 group names (ldaputil client.go getCN).
  { name: 'use_pre111_group_cn_behavior', type: 'bool', default: false },
  { name: 'username_as_alias', type: 'bool', default: false, since: SINCE.usernameAsAlias },
  { name: 'dereference_aliases', type: 'enum', default: 'never', values: DEREFERENCE_ALIASES, since: SINCE.v1_14 },
  { name: 'max_page_size', type: 'integer', default: 0, since: SINCE.maxPageSize },
  // Active Directory's tokenGroups attribute for group membership (ConfigFields).
  { name: 'use_token_groups', type: 'bool', default: false },
  { name: 'enable_samaccountname_login', type: 'bool', default: false, since: SINCE.v1_19 },
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
  { name: 'token_type', type: 'enum', default: 'default', values: TOKEN_TYPES, emptyIsDefault: true },
  { name: 'alias_metadata', type: 'map', default: {}, since: SINCE.v1_21Ent },
  // The root credential's rotation (path_config.go, automatedrotationutil).
  { name: 'password_policy', type: 'string', default: '', since: SINCE.v1_19 },
  { name: 'rotation_schedule', type: 'string', default: '', since: SINCE.v1_19 },
  { name: 'rotation_window', type: 'duration', default: 0, since: SINCE.v1_19 },
  { name: 'rotation_period', type: 'duration', default: 0, since: SINCE.v1_19 },
  { name: 'disable_automated_rotation', type: 'bool', default: false, since: SINCE.v1_19 },
  { name: 'rotation_url', type: 'string', default: '', since: SINCE.v1_21 },
  { name: 'rotation_schema', type: 'enum', default: 'openldap', values: ROTATION_SCHEMAS, emptyIsDefault: true, since: SINCE.v1_21 },
  { name: 'rotation_credential_type', type: 'enum', default: 'password', values: ROTATION_CREDENTIAL_TYPES, emptyIsDefault: true, since: SINCE.v1_21 },
];

/** Every config and token field name, in the table's order. */
export const LDAP_CONFIG_FIELDS: readonly string[] = LDAP_FIELD_SPECS.map((f) => f.name);

/** Fields the server never returns (bindpass, client_tls_cert, client_tls_key). */
export const LDAP_WRITE_ONLY_FIELDS: readonly string[] = LDAP_FIELD_SPECS.filter((f) => f.writeOnly).map((f) => f.name);

/** Fields whose values are secrets (bindpass, client_tls_key). */
export const LDAP_SECRET_FIELDS: readonly string[] = LDAP_FIELD_SPECS.filter((f) => f.secret).map((f) => f.name);

export function ldapFieldSpec(name: string): LdapFieldSpec | undefined {
  return LDAP_FIELD_SPECS.find((f) => f.name === name);
}

/**
 * The fields a server's release does not have: neither sent nor compared there. None when the
 * release is unknown (the server reported none lockstep can read).
 */
export function ldapFieldsLackedBy(release: ServerRelease | undefined): ReadonlySet<string> {
  if (!release) return new Set();
  return new Set(LDAP_FIELD_SPECS.filter((f) => f.since && !releaseHas(release, f.since)).map((f) => f.name));
}
