/**
 * Where `lockstep serve` (Vault Enterprise 1.21.0) and the real server (OpenBao 2.6.2) answer the
 * corpus differently on purpose: each entry names the corpus cases and answer members it covers,
 * what differs, why, and the source that says so. docs/real-server-differences.md is generated
 * from this list (table.ts); differential.test.ts fails on a difference no entry explains, on an
 * entry that explains nothing any more, and on a stale table.
 */

/**
 * Why serve keeps its answer: `vault`, it follows Vault Enterprise 1.21.0 where OpenBao changed
 * or lacks something; `setup`, the real server was started differently (dev mode); `open`,
 * serve is wrong against both and is still to be fixed (kept visible here until it is).
 */
export type DifferenceKind = 'vault' | 'setup' | 'open';

export interface KnownDifference {
  kind: DifferenceKind;
  /** Corpus case ids; `*` matches any run of characters (`ldap-config-*`). */
  cases: string[];
  /** Members of the answer (compare.ts `at`): `status`, `body.errors`, `body.data.version`; `*` as above. */
  at: string[];
  /** What differs, serve's side first. */
  differs: string;
  /** Why serve keeps its answer. */
  reason: string;
  /** Files (repository/path) or release notes that say so. */
  source: string;
}

const V = 'hashicorp/vault';
const B = 'openbao/openbao';

export const KNOWN_DIFFERENCES: readonly KnownDifference[] = [
  {
    kind: 'open',
    cases: ['token-create-num-uses-wrong-type', 'ldap-config-bool-wrong-type', 'ldap-group-write-policies-wrong-type', 'ns-create-metadata-wrong-type'],
    at: ['body.errors'],
    differs: "the inner words of the framework's conversion error: serve words them as mitchellh/mapstructure, OpenBao as go-viper/mapstructure v2",
    reason: 'to check which mapstructure Vault 1.21.0 builds with (go.mod) and word them as it does',
    source: `${V} sdk/framework/field_data.go (getPrimitive: mapstructure.WeakDecode), go.mod`,
  },
  {
    kind: 'vault',
    cases: ['auth-enable-ldap-again', 'mounts-enable-again'],
    at: ['status'],
    differs: 'a mount path already in use: serve answers 409, OpenBao 400',
    reason: "Vault's mount code returns a coded 409 for a path in use, which handleError passes on; OpenBao answers 400",
    source: `${V} vault/auth.go (enableCredentialInternal: logical.CodedError(409, "path is already in use at ...")), vault/mount.go (mountInternal), vault/logical_system.go (handleError)`,
  },
  {
    kind: 'vault',
    cases: ['health*'],
    at: ['body.performance_standby', 'body.enterprise'],
    differs: 'serve answers `performance_standby: false` and `enterprise: true`; OpenBao has neither',
    reason: 'Enterprise fields of the health answer; OpenBao has no performance standbys and is not Enterprise',
    source: `${V} http/sys_health.go (HealthResponse); ${B} http/sys_health.go`,
  },
  {
    kind: 'vault',
    cases: ['health*', 'seal-status*'],
    at: ['body.version'],
    differs: 'serve is `1.21.0+ent`, OpenBao `2.6.2` (normalised: `<version>+ent` / `<version>`)',
    reason: 'serve is Vault Enterprise 1.21.0, whose version carries the `+ent` metadata',
    source: `${V} version/version_base.go, version/version.go (VersionMetadata "ent")`,
  },
  {
    kind: 'vault',
    cases: ['seal-status*'],
    at: ['body.build_date', 'body.commit_date'],
    differs: 'serve answers `build_date`, OpenBao `commit_date`',
    reason: 'OpenBao renamed the field; Vault keeps build_date',
    source: `${V} api/sys_seal.go (SealStatusResponse.BuildDate); ${B} api/sys_seal.go (CommitDate)`,
  },
  {
    kind: 'vault',
    cases: ['auth-*', 'ns-auth-*', 'ns-mounts-list', 'ns-header-and-path', 'mounts-*'],
    at: ['*running_plugin_version'],
    differs: 'builtin plugins run as `v1.21.0+builtin.vault` on serve, `v2.6.2+builtin.bao` on OpenBao',
    reason: "each names its own release and builtin suffix",
    source: `${V} helper/versions/version.go (DefaultBuiltinVersion, BuiltinMetadata "builtin.vault"); ${B} helper/versions/version.go`,
  },
  {
    kind: 'vault',
    cases: ['token-create*', 'token-renew-self*', 'token-lookup', 'token-lookup-self-child', 'token-lookup-self-after-renew', 'token-lookup-get-query', 'login', 'login-mixed-case', 'login-lookup-self'],
    at: ['body.auth.client_token', 'body.data.id'],
    differs: 'service tokens start `hvs.` (batch `hvb.`) on serve, `s.` (`b.`) on OpenBao',
    reason: 'Vault 1.10 introduced the hvs./hvb. prefixes; OpenBao went back to the old ones',
    source: `${V} vault/token_store.go (TokenPrefix, BatchTokenPrefix); ${B} vault/token_store.go`,
  },
  {
    kind: 'vault',
    cases: ['ldap-config-read*', 'ns-ldap-config-read'],
    at: ['body.data.enable_samaccountname_login', 'body.data.password_policy', 'body.data.rotation_*', 'body.data.disable_automated_rotation'],
    differs: 'serve reads back enable_samaccountname_login, password_policy and the automated rotation fields; OpenBao has none of them',
    reason: 'fields Vault added after OpenBao forked (1.19 samAccountName login, 1.19 automated root rotation)',
    source: `${V} sdk/helper/ldaputil/config.go (ConfigFields), builtin/credential/ldap/path_config.go, sdk/helper/automatedrotationutil/fields.go`,
  },
  {
    kind: 'vault',
    cases: ['ldap-config-read*', 'ns-ldap-config-read'],
    at: ['body.data.token_strictly_bind_ip'],
    differs: 'OpenBao reads back token_strictly_bind_ip; serve has no such field',
    reason: 'an OpenBao addition to the token fields; Vault has none',
    source: `${B} sdk/helper/tokenutil/tokenutil.go; ${V} sdk/helper/tokenutil/tokenutil.go`,
  },
  {
    kind: 'vault',
    cases: ['ns-create*', 'ns-read*', 'ns-list*', 'ns-patch*'],
    at: ['body.data.locked', 'body.data.tainted', 'body.data.uuid', 'body.data.key_info.*.locked', 'body.data.key_info.*.tainted', 'body.data.key_info.*.uuid'],
    differs: 'OpenBao shows a namespace with `uuid`, `locked` and `tainted`; serve with `id`, `path` and `custom_metadata` only',
    reason: "Vault's namespace API shows id, path and custom_metadata",
    source: `${V} website/content/api-docs/system/namespaces.mdx (sample responses); ${B} vault/namespace_store.go`,
  },
  {
    kind: 'vault',
    cases: ['auth-enable-dotdot', 'ldap-group-write-dotdot', 'ns-create-dotdot'],
    at: ['status'],
    differs: 'a `..` segment is redirected with 301 by serve, 307 by OpenBao',
    reason: "Go's ServeMux redirects to the cleaned path; Go 1.26 (which OpenBao 2.6.2 is built with) made that a 307, Vault 1.21.0 is built with Go 1.25, a 301",
    source: `${V} .go-version; golang/go src/net/http/server.go (ServeMux.findHandler)`,
  },
  {
    kind: 'setup',
    cases: ['token-lookup-self-root', 'token-lookup-empty'],
    at: ['body.data.display_name', 'body.data.path'],
    differs: 'the root token is `root` made at `auth/token/root` on serve; `token` made at `auth/token/create` on OpenBao',
    reason: '`bao server -dev -dev-root-token-id` creates its root token through auth/token/create; an initialised cluster\'s root token (what serve has) is made by init',
    source: `${V} command/server.go (dev root token id: auth/token/create), vault/init.go (root token)`,
  },
  {
    kind: 'open',
    cases: ['auth-enable-not-json', 'token-create-not-json', 'ldap-config-not-json'],
    at: ['body.errors'],
    differs: 'serve: `failed to parse JSON input: the body is not valid JSON`; OpenBao: `failed to decode JSON input: <Go encoding/json error>`',
    reason: "Vault says `failed to parse JSON input: ` with Go's error after it; serve does not reproduce Go's JSON error texts",
    source: `${V} http/logical.go (parseJSONRequest); ${B} http/json.go`,
  },
  {
    kind: 'open',
    cases: ['auth-enable-no-type'],
    at: ['body.errors'],
    differs: 'serve: `backend type must be specified`; OpenBao: `backend type must be specified as a string`',
    reason: 'to check against Vault and fix',
    source: `${V} vault/logical_system.go (handleEnableAuth); ${B} vault/logical_system.go`,
  },
  {
    kind: 'open',
    cases: ['token-create', 'token-create-policies-comma', 'token-create-no-default'],
    at: ['body.warnings'],
    differs: 'OpenBao warns `Policy "dev" does not exist` for each policy it does not have; serve does not',
    reason: 'serve keeps no ACL policies (only root and default); to warn for every other policy name',
    source: `${V} vault/token_store.go (handleCreateCommon: "Policy %q does not exist")`,
  },
  {
    kind: 'open',
    cases: ['token-create-policies-comma'],
    at: ['body.auth.policies', 'body.auth.token_policies'],
    differs: 'a comma string of policies is split by serve; OpenBao takes it as one policy name',
    reason: "token create decodes its body with mapstructure into []string: a string is one item; to fix",
    source: `${V} vault/token_store.go (handleCreateCommon: mapstructure.WeakDecode into tokenCreateRequest)`,
  },
  {
    kind: 'open',
    cases: ['token-create-bad-ttl', 'token-create-negative-ttl', 'token-create-bad-type', 'token-create-meta-wrong-type'],
    at: ['status', 'body.*'],
    differs: 'token create refuses bad input with the framework\'s texts on serve; OpenBao answers `time: invalid duration`, `ttl must be positive`, `invalid \'token_type\' value` and takes `meta` as key=value pairs',
    reason: 'token create parses its own body (mapstructure, then parseutil); to fix',
    source: `${V} vault/token_store.go (handleCreateCommon)`,
  },
  {
    kind: 'open',
    cases: ['token-create-unknown-field', 'ns-create-unknown-field'],
    at: ['body.warnings'],
    differs: 'OpenBao warns `Endpoint ignored these unrecognized parameters: [nope]`; serve does not',
    reason: 'serve warns only on the LDAP paths; to warn wherever the framework answers with a body',
    source: `${V} sdk/framework/backend.go (HandleRequest)`,
  },
  {
    kind: 'open',
    cases: ['token-lookup-wrong-type'],
    at: ['body.errors'],
    differs: 'a token given as a number: serve `bad token`, OpenBao `invalid token`',
    reason: 'to check lookupInternal against Vault',
    source: `${V} vault/token_store.go (handleLookup, lookupInternal)`,
  },
  {
    kind: 'open',
    cases: ['token-lookup-self-after-renew'],
    at: ['body.data.last_renewal', 'body.data.last_renewal_time'],
    differs: 'after a renewal OpenBao shows last_renewal and last_renewal_time; serve does not',
    reason: 'to add to the lookup answer',
    source: `${V} vault/token_store.go (handleLookup: LastRenewalTime)`,
  },
  {
    kind: 'open',
    cases: ['auth-read-ldap*', 'auth-read-with-config', 'auth-read-mixed-case', 'auth-list-*', 'ns-auth-read'],
    at: ['body.data.options', 'body.options', 'body.data.*.options', 'body.*.options'],
    differs: 'an auth method enabled without options shows `options: null` on serve, `{}` on OpenBao',
    reason: 'to check against handleEnableAuth (the options field\'s zero value is an empty map)',
    source: `${V} vault/logical_system.go (handleEnableAuth, mountInfo)`,
  },
  {
    kind: 'open',
    cases: ['ldap-config-filter-bad-template'],
    at: ['body.errors'],
    differs: 'serve: `unclosed action`; OpenBao (Go text/template): `bad character U+007D \'}\'`',
    reason: "serve's template parser stops at the end of input before Go's lexer sees the lone `}`; to fix",
    source: `${V} sdk/helper/ldaputil/config.go (template.New("queryTemplate").Parse); golang/go text/template/parse/lex.go`,
  },
  {
    kind: 'open',
    cases: ['ldap-config-deref-bad', 'ldap-config-read-final'],
    at: ['status', 'body', 'body.data.dereference_aliases'],
    differs: 'serve refuses dereference_aliases `sometimes`; OpenBao stores it',
    reason: 'to check NewConfigEntry in Vault (AllowedValues is not enforced by the framework)',
    source: `${V} sdk/helper/ldaputil/config.go (NewConfigEntry); sdk/framework/backend.go (FieldSchema.AllowedValues)`,
  },
  {
    kind: 'open',
    cases: ['ldap-groups-list', 'ldap-groups-list-get'],
    at: ['body.data.keys'],
    differs: 'a group named `a/b` lists as `a/` on serve, `a/b` on OpenBao',
    reason: 'the group list collects keys under every prefix (logical.CollectKeysWithPrefix); to fix',
    source: `${V} builtin/credential/ldap/path_groups.go (pathGroupList)`,
  },
  {
    kind: 'open',
    cases: ['ns-auth-list', 'ns-header-and-path'],
    at: ['body.data.token/.config.token_type'],
    differs: "a namespace's token method shows token_type `default-service` on serve, `default` on OpenBao",
    reason: 'Vault Enterprise\'s namespace code is not public; to check against its documentation',
    source: `${B} vault/namespace_store.go; ${V} vault/mount.go (mountTypeNSToken)`,
  },
  {
    kind: 'open',
    cases: ['ns-missing-header'],
    at: ['body.errors'],
    differs: 'a header naming a namespace never created: serve `no handler for route ...`, OpenBao `namespace not found`',
    reason: "Vault Enterprise's namespace resolution is not public",
    source: `${B} vault/logical_system_namespaces.go`,
  },
  {
    kind: 'open',
    cases: ['ns-create-reserved'],
    at: ['body.errors'],
    differs: 'error texts of namespace creation differ',
    reason: "Vault Enterprise's namespace code is not public; serve's texts are its own",
    source: `${B} helper/namespace/namespace.go`,
  },
  {
    kind: 'vault',
    cases: ['ns-delete-with-children'],
    at: ['body.errors'],
    differs: 'deleting a namespace with children: serve `child namespaces exist under path "team-a/", cannot remove`, OpenBao `unable to delete namespace containing child namespaces` (both 400)',
    reason: "Vault Enterprise's namespace code is not public; its provider quotes Vault's answer",
    source: `hashicorp/terraform-provider-vault vault/resource_namespace.go (namespaceDelete); ${B} vault/namespace_store.go (DeleteNamespace)`,
  },
  {
    kind: 'open',
    cases: ['ns-delete', 'ns-delete-missing'],
    at: ['status', 'body'],
    differs: 'OpenBao deletes a namespace in the background (200 `status: in-progress`; until it is done it is still read back, tainted) and answers a missing one with a warning; serve deletes at once with 204',
    reason: "Vault's documentation shows DELETE sys/namespaces/:path as a plain delete; OpenBao's deletion is asynchronous",
    source: `${V} website/content/api-docs/system/namespaces.mdx (Delete namespace); ${B} vault/namespace_store.go (DeleteNamespace)`,
  },
  {
    kind: 'open',
    cases: ['login*'],
    at: ['body.data', 'body.auth.metadata.username'],
    differs: 'a login as `ALICE`: serve keeps `ALICE` in the metadata; OpenBao lower-cases the name (case_sensitive_names is false); a login answers `data: null` on serve, `data: {}` on OpenBao (not on every run)',
    reason: 'to check against pathLogin and fix',
    source: `${V} builtin/credential/ldap/path_login.go (pathLogin)`,
  },
  {
    kind: 'open',
    cases: ['login-renew-self'],
    at: ['status', 'body.*'],
    differs: 'OpenBao refuses to renew a login token whose policies the directory and config now give differently (500 `policies have changed, not renewing`); serve renews it',
    reason: "the method's renew re-runs the login's lookups (pathLoginRenew); serve does not yet",
    source: `${V} builtin/credential/ldap/path_login.go (pathLoginRenew), sdk/helper/policyutil/policyutil.go (EquivalentPolicies)`,
  },
];
