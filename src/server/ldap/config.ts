/**
 * The LDAP method's configuration as the embedded server stores and returns it: the fields of
 * the emulated release's `ldaputil.ConfigEntry` (sdk/helper/ldaputil/config.go), the token
 * fields (sdk/helper/tokenutil/tokenutil.go) and the method's own root-rotation fields
 * (builtin/credential/ldap/path_config.go, sdk/helper/automatedrotationutil/fields.go).
 * Durations in seconds, lists as arrays, `url`/`userattr` lower-cased. Write-only fields are
 * stored but never returned by a read.
 */
export interface LdapConfig {
  url: string;
  case_sensitive_names: boolean;
  connection_timeout: number;
  request_timeout: number;
  starttls: boolean;
  tls_min_version: 'tls10' | 'tls11' | 'tls12' | 'tls13';
  tls_max_version: 'tls10' | 'tls11' | 'tls12' | 'tls13';
  insecure_tls: boolean;
  certificate: string;
  /** write-only */
  client_tls_cert: string;
  /** write-only */
  client_tls_key: string;
  binddn: string;
  /** write-only */
  bindpass: string;
  userdn: string;
  userattr: string;
  discoverdn: boolean;
  deny_null_bind: boolean;
  upndomain: string;
  userfilter: string;
  anonymous_group_search: boolean;
  groupfilter: string;
  groupdn: string;
  groupattr: string;
  username_as_alias: boolean;
  /**
   * Stored as given: the field's allowed values are documentation only (sdk/framework field_data.go
   * Validate does not check them); searches read an unknown one as `never` (ldaputil/client.go
   * ldapDerefAliasMap; adapters/ldap/search.ts).
   */
  dereference_aliases: string;
  max_page_size: number;
  token_ttl: number;
  token_max_ttl: number;
  token_policies: string[];
  /** deprecated alias of token_policies; read back as the same list */
  policies: string[];
  token_bound_cidrs: string[];
  token_explicit_max_ttl: number;
  token_no_default_policy: boolean;
  token_num_uses: number;
  token_period: number;
  token_type: 'service' | 'batch' | 'default';
  use_token_groups: boolean;
  /** false on a new config; the service sets it true only when upgrading an old stored one. */
  use_pre111_group_cn_behavior: boolean;
  enable_samaccountname_login: boolean;
  password_policy: string;
  rotation_url: string;
  /** '' until the first write, then 'openldap' unless given (path_config.go pathConfigWrite). */
  rotation_schema: '' | 'openldap' | 'ad' | 'racf';
  rotation_credential_type: '' | 'password' | 'phrase';
  rotation_schedule: string;
  rotation_window: number;
  rotation_period: number;
  disable_automated_rotation: boolean;
  /** Vault Enterprise's token field (tokenutil entTokenFields, TypeKVPairs): metadata put on each login's entity alias. */
  alias_metadata: Record<string, string>;
}

/** The defaults the service fills in for an unset userfilter and groupfilter (ConfigFields). */
const DEFAULT_USERFILTER = '({{.UserAttr}}={{.Username}})';
const DEFAULT_GROUPFILTER = '(|(memberUid={{.Username}})(member={{.UserDN}})(uniqueMember={{.UserDN}}))';

export const LDAP_WRITE_ONLY_FIELDS = ['bindpass', 'client_tls_cert', 'client_tls_key'] as const;

export function defaultLdapConfig(): LdapConfig {
  return {
    url: 'ldap://127.0.0.1',
    case_sensitive_names: false,
    connection_timeout: 30,
    request_timeout: 90,
    starttls: false,
    tls_min_version: 'tls12',
    tls_max_version: 'tls12',
    insecure_tls: false,
    certificate: '',
    client_tls_cert: '',
    client_tls_key: '',
    binddn: '',
    bindpass: '',
    userdn: '',
    userattr: 'cn',
    discoverdn: false,
    deny_null_bind: true,
    upndomain: '',
    userfilter: DEFAULT_USERFILTER,
    anonymous_group_search: false,
    groupfilter: DEFAULT_GROUPFILTER,
    groupdn: '',
    groupattr: 'cn',
    username_as_alias: false,
    dereference_aliases: 'never',
    max_page_size: 0,
    token_ttl: 0,
    token_max_ttl: 0,
    token_policies: [],
    policies: [],
    token_bound_cidrs: [],
    token_explicit_max_ttl: 0,
    token_no_default_policy: false,
    token_num_uses: 0,
    token_period: 0,
    token_type: 'default',
    use_token_groups: false,
    use_pre111_group_cn_behavior: false,
    enable_samaccountname_login: false,
    password_policy: '',
    rotation_url: '',
    rotation_schema: '',
    rotation_credential_type: '',
    rotation_schedule: '',
    rotation_window: 0,
    rotation_period: 0,
    disable_automated_rotation: false,
    alias_metadata: {},
  };
}
