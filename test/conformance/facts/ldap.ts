import { expect } from 'vitest';
import type { Fact, Step } from '../fact.js';

const CONFIG_GO = 'sdk/helper/ldaputil/config.go';
const PATH_CONFIG_GO = 'builtin/credential/ldap/path_config.go';
const TOKENUTIL_GO = 'sdk/helper/tokenutil/tokenutil.go';
const POLICYUTIL_GO = 'sdk/helper/policyutil/policyutil.go';

const enableLdap: Step = { method: 'POST', path: 'sys/auth/ldap', body: { type: 'ldap' } };
const writeConfig = (body: Record<string, unknown>): Step => ({ method: 'POST', path: 'auth/ldap/config', body });
const readConfig: Step = { method: 'GET', path: 'auth/ldap/config' };

export const LDAP_FACTS: readonly Fact[] = [
  {
    says: "#22: a filter template is lexed as Go's text/template: a lone '}' after a field is a bad character",
    source: `${CONFIG_GO} (NewConfigEntry: template.New("queryTemplate").Parse), golang/go text/template/parse/lex.go (lexFieldOrVariable)`,
    setup: [enableLdap],
    request: writeConfig({ userfilter: '({{.UserAttr}}={{.Username}' }),
    expect: { status: 400, body: { errors: ["invalid userfilter: template: queryTemplate:1: bad character U+007D '}'"] } },
  },
  {
    says: '#22: dereference_aliases is stored as given: its allowed values are not enforced',
    source: `${CONFIG_GO} (NewConfigEntry: cfg.DerefAliases = d.Get("dereference_aliases")), sdk/framework/field_data.go (Validate checks no AllowedValues)`,
    setup: [enableLdap, writeConfig({ dereference_aliases: 'sometimes' })],
    request: readConfig,
    expect: { status: 200, body: { data: { dereference_aliases: 'sometimes' } } },
  },
  {
    says: '#22: a config write answers nothing, so unknown members are dropped without a warning',
    source: `${PATH_CONFIG_GO} (pathConfigWrite returns nil), sdk/framework/backend.go (HandleRequest: the warning only on a response)`,
    setup: [enableLdap],
    request: writeConfig({ url: 'ldap://x', nope: 1 }),
    expect: { status: 204, noBody: true },
  },
  {
    says: '#22: groups are listed by every key under group/, however deep: a/b is a/b',
    source: 'builtin/credential/ldap/path_groups.go (pathGroupList: logical.CollectKeysWithPrefix), sdk/logical/storage.go (ScanView)',
    setup: [enableLdap, { method: 'POST', path: 'auth/ldap/groups/a/b', body: { policies: 'p' } }, { method: 'POST', path: 'auth/ldap/groups/c', body: { policies: 'p' } }],
    request: { method: 'LIST', path: 'auth/ldap/groups' },
    expect: { status: 200, body: { data: { keys: ['c', 'a/b'] } } },
  },
  {
    says: '#22: users are listed the same way',
    source: 'builtin/credential/ldap/path_users.go (pathUserList: logical.CollectKeysWithPrefix)',
    setup: [enableLdap, { method: 'POST', path: 'auth/ldap/users/ou/alice', body: { policies: 'p' } }],
    request: { method: 'LIST', path: 'auth/ldap/users' },
    expect: { status: 200, body: { data: { keys: ['ou/alice'] } } },
  },
  {
    says: "#22: a comma-list field given an object is refused in mapstructure's words, the value printed as Go's %v",
    source: 'sdk/framework/field_data.go (Validate: "error converting input %v"), go-secure-stdlib parseutil.ParseCommaStringSlice, mitchellh/mapstructure (decodeSlice lifts a value; Error)',
    setup: [enableLdap],
    request: { method: 'POST', path: 'auth/ldap/groups/admins', body: { policies: { a: 1 } } },
    expect: {
      status: 400,
      body: {
        errors: [
          "Field validation failed: error converting input map[a:1] for field \"policies\": 1 error(s) decoding:\n\n* '[0]' expected type 'string', got unconvertible type 'map[string]interface {}', value: 'map[a:1]'",
        ],
      },
    },
  },
  {
    says: 'a config never written reads back with the default filter templates and the fields of ConfigEntry',
    source: `${CONFIG_GO} (ConfigFields defaults, PasswordlessMap), ${PATH_CONFIG_GO} (Config, pathConfigRead)`,
    setup: [enableLdap],
    request: readConfig,
    expect: {
      status: 200,
      body: {
        data: {
          url: 'ldap://127.0.0.1',
          userattr: 'cn',
          groupattr: 'cn',
          userfilter: '({{.UserAttr}}={{.Username}})',
          groupfilter: '(|(memberUid={{.Username}})(member={{.UserDN}})(uniqueMember={{.UserDN}}))',
          deny_null_bind: true,
          case_sensitive_names: false,
          use_token_groups: false,
          use_pre111_group_cn_behavior: false,
          enable_samaccountname_login: false,
          request_timeout: 90,
          connection_timeout: 30,
          dereference_aliases: 'never',
          max_page_size: 0,
          token_policies: [],
          token_bound_cidrs: [],
          token_type: 'default',
          password_policy: '',
          rotation_window: 0,
          rotation_period: 0,
          disable_automated_rotation: false,
        },
      },
      absent: ['data.bindpass', 'data.client_tls_cert', 'data.client_tls_key', 'data.policies'],
    },
  },
  {
    says: 'token_policies is stored as given, only trimmed: case, order and duplicates are kept',
    source: `${TOKENUTIL_GO} (TokenFields: TypeCommaStringSlice; ParseTokenFields)`,
    setup: [enableLdap, writeConfig({ token_policies: ' Dev , ops,Dev' })],
    request: readConfig,
    expect: { status: 200, body: { data: { token_policies: ['Dev', 'ops', 'Dev'] } } },
  },
  {
    says: 'token_policies given as an array keeps its items, trimmed',
    source: `${TOKENUTIL_GO} (ParseTokenFields)`,
    setup: [enableLdap, writeConfig({ token_policies: ['Zeta', ' alpha '] })],
    request: readConfig,
    expect: { status: 200, body: { data: { token_policies: ['Zeta', 'alpha'] } } },
  },
  {
    says: 'use_token_groups is a config field: written without warnings and read back',
    source: `${CONFIG_GO} (ConfigFields use_token_groups, NewConfigEntry)`,
    setup: [enableLdap],
    request: writeConfig({ use_token_groups: true, userdn: 'ou=people,dc=example,dc=com' }),
    expect: { status: 204, noBody: true },
  },
  {
    says: 'use_token_groups and use_pre111_group_cn_behavior read back as written',
    source: `${CONFIG_GO} (NewConfigEntry, PasswordlessMap)`,
    setup: [enableLdap, writeConfig({ use_token_groups: true, use_pre111_group_cn_behavior: true })],
    request: readConfig,
    expect: { status: 200, body: { data: { use_token_groups: true, use_pre111_group_cn_behavior: true } } },
  },
  {
    says: 'a write sets rotation_schema and rotation_credential_type to their defaults when not given',
    source: `${PATH_CONFIG_GO} (pathConfigWrite)`,
    setup: [enableLdap, writeConfig({ userdn: 'ou=people,dc=example,dc=com' })],
    request: readConfig,
    expect: { status: 200, body: { data: { rotation_schema: 'openldap', rotation_credential_type: 'password', rotation_url: '' } } },
  },
  {
    says: 'a filter template is only parsed: a field the context lacks ({{.Nope}}) is accepted',
    source: `${CONFIG_GO} (NewConfigEntry: template.New("queryTemplate").Parse)`,
    setup: [enableLdap],
    request: writeConfig({ userfilter: '(&(cn={{.Username}})(x={{.Nope}}))', groupfilter: '(member={{.Nope}})' }),
    expect: { status: 204 },
  },
  {
    says: 'a filter template that does not parse is refused with the parser error',
    source: `${CONFIG_GO} (NewConfigEntry: "invalid userfilter: ...")`,
    setup: [enableLdap],
    request: writeConfig({ userfilter: '({{.UserAttr}}={{.Username}' }),
    expect: { status: 400, body: { errors: [expect.stringMatching(/^invalid userfilter: template: queryTemplate:1: /)] } },
  },
  {
    says: 'a userfilter without the userattr is accepted with a warning',
    source: `${PATH_CONFIG_GO} (checkConfigUserFilter, userFilterWarning)`,
    setup: [enableLdap],
    request: writeConfig({ userattr: 'uid', userfilter: '(mail={{.Username}})' }),
    expect: {
      status: 200,
      body: { warnings: ['userfilter configured does not consider userattr and may result in colliding entity aliases on logins'] },
    },
  },
  {
    says: 'token_type "" reads back as "default"',
    source: `${TOKENUTIL_GO} (ParseTokenFields: "" and "default" are TokenTypeDefault; PopulateTokenData)`,
    setup: [enableLdap, writeConfig({ token_type: '' })],
    request: readConfig,
    expect: { status: 200, body: { data: { token_type: 'default' } } },
  },
  {
    says: 'group policies are trimmed, lower-cased, de-duplicated and sorted',
    source: `builtin/credential/ldap/path_groups.go (pathGroupWrite), ${POLICYUTIL_GO} (ParsePolicies)`,
    setup: [enableLdap, { method: 'POST', path: 'auth/ldap/groups/Admins', body: { policies: 'Ops, dev ,ops' } }],
    request: { method: 'GET', path: 'auth/ldap/groups/admins' },
    expect: { status: 200, body: { data: { policies: ['dev', 'ops'] } } },
  },
  {
    says: 'a group policy list containing root becomes ["root"]',
    source: `${POLICYUTIL_GO} (SanitizePolicies)`,
    setup: [enableLdap, { method: 'POST', path: 'auth/ldap/groups/admins', body: { policies: 'dev,Root,ops' } }],
    request: { method: 'GET', path: 'auth/ldap/groups/admins' },
    expect: { status: 200, body: { data: { policies: ['root'] } } },
  },
  {
    says: 'a user policy list containing root becomes ["root"]',
    source: `builtin/credential/ldap/path_users.go (pathUserWrite), ${POLICYUTIL_GO} (SanitizePolicies)`,
    setup: [enableLdap, { method: 'POST', path: 'auth/ldap/users/alice', body: { policies: ['root', 'dev'], groups: 'b,a' } }],
    request: { method: 'GET', path: 'auth/ldap/users/alice' },
    expect: { status: 200, body: { data: { policies: ['root'], groups: 'a,b' } } },
  },
  {
    says: 'DELETE of a group uses the name as given: deleting ADMINS answers 204 and leaves admins',
    source: 'builtin/credential/ldap/path_groups.go (pathGroupDelete)',
    setup: [
      enableLdap,
      { method: 'POST', path: 'auth/ldap/groups/admins', body: { policies: 'dev' } },
      { method: 'DELETE', path: 'auth/ldap/groups/ADMINS', okStatus: [204] },
    ],
    request: { method: 'GET', path: 'auth/ldap/groups/admins' },
    expect: { status: 200, body: { data: { policies: ['dev'] } } },
  },
  {
    says: 'DELETE of a user uses the name as given',
    source: 'builtin/credential/ldap/path_users.go (pathUserDelete)',
    setup: [
      enableLdap,
      { method: 'POST', path: 'auth/ldap/users/alice', body: { policies: 'dev' } },
      { method: 'DELETE', path: 'auth/ldap/users/ALICE', okStatus: [204] },
    ],
    request: { method: 'GET', path: 'auth/ldap/users/alice' },
    expect: { status: 200 },
  },
];
