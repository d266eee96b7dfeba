import { ACL } from './corpus-acl.js';

/**
 * The differential corpus: requests sent, in this order, to `lockstep serve` and to the real
 * server, each answer compared (differential.test.ts). Every endpoint both serve, with good and
 * bad inputs. Cases build on the state earlier ones left (a mount enabled, a token captured),
 * so every request of a scenario is compared, its setup too.
 *
 * `<<name>>` in paths and bodies is a value this side captured earlier (`capture`), or the test
 * directory's settings (`<<ldap.url>>`, `<<ldap.binddn>>`, `<<ldap.bindpass>>`, `<<ldap.userdn>>`,
 * `<<ldap.groupdn>>`).
 */

export interface Case {
  /** Unique, stable: the known differences (differences.ts) name cases by it. */
  id: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'LIST';
  /** After /v1/, sent byte for byte (a `..` segment stays one); may carry a query. */
  path: string;
  body?: unknown;
  /** A body sent as is (not JSON, or too long to write out). */
  rawBody?: string;
  /** Default the root token; `wrong`: one no server issued. */
  token?: 'root' | 'none' | 'wrong' | { captured: string };
  /** X-Vault-Namespace. */
  namespace?: string;
  /** Content-Type of a body; default application/json. */
  contentType?: string;
  /**
   * Headers sent as they are listed, after the ones above, a name repeated as often as it is
   * listed (Go reads the first: net/http Header.Get). `<<root>>` is the root token, `<<wrong>>`
   * the wrong one; other `<<name>>` as in paths.
   */
  headers?: [string, string][];
  /** The request line names the target in absolute form (`GET http://host:port/v1/... HTTP/1.1`, RFC 9112 3.2.2). */
  absoluteForm?: boolean;
  /**
   * The whole request written as is on a socket (`\r\n` line ends), for what node:http will not
   * send: `OPTIONS *`, a malformed target, a folded header line. `<<host>>` is the server's
   * host:port, `<<root>>` / `<<wrong>>` the tokens; `method`, `path` and the fields above are
   * then only its description. Send `Connection: close`: the answer is read to the end.
   */
  raw?: string;
  /** Names for values of this side's answer, by dotted path. */
  capture?: Record<string, string>;
}

const LONG = 'x'.repeat(200_000);
const MERGE_PATCH = 'application/merge-patch+json';

const HEALTH: Case[] = [
  { id: 'health', method: 'GET', path: 'sys/health', token: 'none' },
  { id: 'health-wrong-token', method: 'GET', path: 'sys/health', token: 'wrong' },
  { id: 'health-activecode', method: 'GET', path: 'sys/health?activecode=299', token: 'none' },
  { id: 'health-head', method: 'HEAD', path: 'sys/health', token: 'none' },
  { id: 'health-head-activecode', method: 'HEAD', path: 'sys/health?activecode=204', token: 'none' },
  { id: 'health-activecode-not-number', method: 'GET', path: 'sys/health?activecode=ok', token: 'none' },
  { id: 'health-activecode-empty', method: 'GET', path: 'sys/health?activecode=', token: 'none' },
  { id: 'health-standbyok-not-bool', method: 'GET', path: 'sys/health?standbyok=maybe', token: 'none' },
  { id: 'health-standbyok-empty', method: 'GET', path: 'sys/health?standbyok=', token: 'none' },
  { id: 'health-standbyok-true', method: 'GET', path: 'sys/health?standbyok=true&perfstandbyok=1', token: 'none' },
  { id: 'health-sealedcode-unsealed', method: 'GET', path: 'sys/health?sealedcode=299&uninitcode=298', token: 'none' },
  { id: 'health-unknown-query', method: 'GET', path: 'sys/health?nope=1', token: 'none' },
  { id: 'health-escaped-slash', method: 'GET', path: 'sys%2fhealth', token: 'none' },
  // Go's net/http takes a request target in absolute form (url.ParseRequestURI): the path is its URL's.
  { id: 'health-absolute-form', method: 'GET', path: 'sys/health?standbyok=true', token: 'none', absoluteForm: true },
  // Written on a socket (`raw`): what node:http will not send.
  // Go's serverHandler answers `OPTIONS *` itself (net/http server.go globalOptionsHandler).
  { id: 'options-asterisk', method: 'GET', path: '*', raw: 'OPTIONS * HTTP/1.1\r\nHost: <<host>>\r\nConnection: close\r\n\r\n' },
  // url.ParseRequestURI refuses the authority (missing ']'): Go's readRequest fails, 400 as plain text.
  { id: 'health-absolute-form-bad-host', method: 'GET', path: 'sys/health', raw: 'GET http://[::1/v1/sys/health HTTP/1.1\r\nHost: <<host>>\r\nConnection: close\r\n\r\n' },
  { id: 'health-absolute-form-bad-port', method: 'GET', path: 'sys/health', raw: 'GET http://host:8x/v1/sys/health HTTP/1.1\r\nHost: <<host>>\r\nConnection: close\r\n\r\n' },
  { id: 'health-absolute-form-ascii-escape-host', method: 'GET', path: 'sys/health', raw: 'GET http://h%41st/v1/sys/health HTTP/1.1\r\nHost: <<host>>\r\nConnection: close\r\n\r\n' },
  { id: 'health-absolute-form-bad-userinfo', method: 'GET', path: 'sys/health', raw: 'GET http://u%zz@host/v1/sys/health HTTP/1.1\r\nHost: <<host>>\r\nConnection: close\r\n\r\n' },
  { id: 'health-absolute-form-utf8-escape-host', method: 'GET', path: 'sys/health', raw: 'GET http://h%C3%A9st:/v1/sys/health HTTP/1.1\r\nHost: <<host>>\r\nConnection: close\r\n\r\n' },
  { id: 'health-absolute-form-zone-host', method: 'GET', path: 'sys/health', raw: 'GET http://u:p@[fe80::1%25en0]:1/v1/sys/health HTTP/1.1\r\nHost: <<host>>\r\nConnection: close\r\n\r\n' },
  { id: 'health-absolute-form-ipv6-host', method: 'GET', path: 'sys/health', raw: 'GET http://[::1]:8200/v1/sys/health HTTP/1.1\r\nHost: <<host>>\r\nConnection: close\r\n\r\n' },
  // A path starting with `//`: url.ParseRequestURI keeps it whole as the path (no authority without a scheme).
  { id: 'health-double-slash', method: 'GET', path: '//v1/sys/health', raw: 'GET //v1/sys/health HTTP/1.1\r\nHost: <<host>>\r\nConnection: close\r\n\r\n' },
  // Vault's wrapGenericHandler answers 404 to a path not under /v1/ before the ServeMux would clean it.
  { id: 'health-dotdot-into-v1', method: 'GET', path: '/x/../v1/sys/health', raw: 'GET /x/../v1/sys/health HTTP/1.1\r\nHost: <<host>>\r\nConnection: close\r\n\r\n' },
  { id: 'health-v1-dotdot', method: 'GET', path: '../v1/sys/health', raw: 'GET /v1/../v1/sys/health HTTP/1.1\r\nHost: <<host>>\r\nConnection: close\r\n\r\n' },
  // Go's header limit is 1 MB (DefaultMaxHeaderBytes), Node's 16 KB: a 20 KB path is the service's to answer.
  { id: 'long-path', method: 'GET', path: `sys/${'p'.repeat(20_000)}`, raw: `GET /v1/sys/${'p'.repeat(20_000)} HTTP/1.1\r\nHost: <<host>>\r\nX-Vault-Token: <<root>>\r\nConnection: close\r\n\r\n` },
  // An obs-folded header line (RFC 9112 5.2): Go's textproto joins it to the line above with a space.
  { id: 'header-obs-fold-token', method: 'GET', path: 'sys/auth', raw: 'GET /v1/sys/auth HTTP/1.1\r\nHost: <<host>>\r\nX-Vault-Token: <<root>>\r\n tail\r\nConnection: close\r\n\r\n' },
  { id: 'header-obs-fold-other', method: 'GET', path: 'sys/auth', raw: 'GET /v1/sys/auth HTTP/1.1\r\nHost: <<host>>\r\nX-Vault-Token: <<root>>\r\nX-Note: one\r\n\ttwo\r\nConnection: close\r\n\r\n' },
];

const SEAL_AND_INIT: Case[] = [
  { id: 'seal-status', method: 'GET', path: 'sys/seal-status', token: 'none' },
  { id: 'seal-status-wrong-token', method: 'GET', path: 'sys/seal-status', token: 'wrong' },
  { id: 'init-read', method: 'GET', path: 'sys/init', token: 'none' },
  { id: 'init-again', method: 'PUT', path: 'sys/init', token: 'none', body: { secret_shares: 1, secret_threshold: 1 } },
  // Exact patterns (`health$`, `seal-status$`, `init$`, `leader$`): a trailing slash is no such path.
  { id: 'seal-status-trailing-slash', method: 'GET', path: 'sys/seal-status/' },
  { id: 'init-read-trailing-slash', method: 'GET', path: 'sys/init/' },
  { id: 'health-trailing-slash', method: 'GET', path: 'sys/health/' },
  { id: 'leader-trailing-slash', method: 'GET', path: 'sys/leader/' },
  { id: 'capabilities-self-trailing-slash', method: 'POST', path: 'sys/capabilities-self/', body: { paths: ['sys/auth'] } },
];

const AUTH_METHODS: Case[] = [
  { id: 'auth-list', method: 'GET', path: 'sys/auth' },
  { id: 'auth-list-no-token', method: 'GET', path: 'sys/auth', token: 'none' },
  { id: 'auth-list-wrong-token', method: 'GET', path: 'sys/auth', token: 'wrong' },
  { id: 'auth-list-absolute-form', method: 'GET', path: 'sys/auth', absoluteForm: true },
  { id: 'auth-enable-absolute-form-dotdot', method: 'POST', path: 'sys/auth/x/../abs', absoluteForm: true, body: { type: 'ldap' } },
  { id: 'auth-read-token', method: 'GET', path: 'sys/auth/token' },
  { id: 'auth-read-missing', method: 'GET', path: 'sys/auth/nope' },
  { id: 'auth-enable-ldap', method: 'POST', path: 'sys/auth/ldap', body: { type: 'ldap' } },
  { id: 'auth-enable-ldap-again', method: 'POST', path: 'sys/auth/ldap', body: { type: 'ldap' } },
  { id: 'auth-read-ldap', method: 'GET', path: 'sys/auth/ldap' },
  { id: 'auth-read-ldap-trailing-slash', method: 'GET', path: 'sys/auth/ldap/' },
  // A trailing slash is the path's: each route's pattern decides (vault/logical_system_paths.go
  // `auth$`, `auth/(?P<path>.+?)/tune$`, `auth/(?P<path>.+)`), and a LIST's path ends in one.
  { id: 'auth-list-trailing-slash', method: 'GET', path: 'sys/auth/' },
  { id: 'auth-list-list-method', method: 'LIST', path: 'sys/auth' },
  { id: 'auth-tune-read-trailing-slash', method: 'GET', path: 'sys/auth/ldap/tune/' },
  { id: 'auth-tune-write-trailing-slash', method: 'POST', path: 'sys/auth/ldap/tune/', body: { description: 'x' } },
  { id: 'auth-read-missing-trailing-slash', method: 'GET', path: 'sys/auth/nope/' },
  { id: 'auth-disable-missing-trailing-slash', method: 'DELETE', path: 'sys/auth/nothere/' },
  { id: 'auth-list-with-ldap', method: 'GET', path: 'sys/auth' },
  { id: 'auth-tune-read', method: 'GET', path: 'sys/auth/ldap/tune' },
  { id: 'auth-tune-durations', method: 'POST', path: 'sys/auth/ldap/tune', body: { default_lease_ttl: '1h', max_lease_ttl: 7200 } },
  { id: 'auth-tune-read-after', method: 'GET', path: 'sys/auth/ldap/tune' },
  { id: 'auth-tune-duration-forms', method: 'POST', path: 'sys/auth/ldap/tune', body: { default_lease_ttl: '90m', max_lease_ttl: '3h' } },
  { id: 'auth-tune-read-forms', method: 'GET', path: 'sys/auth/ldap/tune' },
  { id: 'auth-tune-bad-duration', method: 'POST', path: 'sys/auth/ldap/tune', body: { default_lease_ttl: 'soon' } },
  { id: 'auth-tune-default-over-max', method: 'POST', path: 'sys/auth/ldap/tune', body: { default_lease_ttl: '5h', max_lease_ttl: '1h' } },
  { id: 'auth-tune-unknown-field', method: 'POST', path: 'sys/auth/ldap/tune', body: { nope: 1 } },
  { id: 'auth-tune-description', method: 'POST', path: 'sys/auth/ldap/tune', body: { description: 'people' } },
  // The JSON limits Vault (1.20.3 and later) checks a body with before decoding it, a 500 when it fails
  // (hashicorp/vault http/util.go wrapJSONLimitsHandler, sdk/helper/jsonutil/json.go
  // VerifyMaxDepthStreaming; src/server/http/json-limits.ts); OpenBao has no such check.
  { id: 'auth-tune-body-trailing-garbage', method: 'POST', path: 'sys/auth/ldap/tune', rawBody: '{"description":"people"} trailing' },
  { id: 'auth-tune-body-second-value', method: 'POST', path: 'sys/auth/ldap/tune', rawBody: '{"description":"people"} {"x":1}' },
  { id: 'auth-tune-body-trailing-space', method: 'POST', path: 'sys/auth/ldap/tune', rawBody: '{"description":"people"} \n\t ' },
  { id: 'auth-tune-body-number-overflow', method: 'POST', path: 'sys/auth/ldap/tune', rawBody: '{"description":"people","max_lease_ttl":1e400}' },
  { id: 'auth-tune-body-leading-zero', method: 'POST', path: 'sys/auth/ldap/tune', rawBody: '{"description":"people","max_lease_ttl":0123}' },
  { id: 'auth-tune-body-duplicate-key', method: 'POST', path: 'sys/auth/ldap/tune', rawBody: '{"description":"a","description":"people"}' },
  { id: 'auth-tune-body-too-deep', method: 'POST', path: 'sys/auth/ldap/tune', rawBody: `{"description":"people","x":${'['.repeat(500)}${']'.repeat(500)}}` },
  { id: 'auth-tune-body-deep-enough', method: 'POST', path: 'sys/auth/ldap/tune', rawBody: `{"description":"people","x":${'['.repeat(499)}${']'.repeat(499)}}` },
  { id: 'auth-tune-body-bad-literal', method: 'POST', path: 'sys/auth/ldap/tune', rawBody: '{"description":"people","x":tru}' },
  { id: 'auth-tune-body-array', method: 'POST', path: 'sys/auth/ldap/tune', rawBody: '["description"] x' },
  // A number reaches a field as the text it was sent as (json.Number): durations and texts parse that text.
  { id: 'auth-tune-number-exponent', method: 'POST', path: 'sys/auth/ldap/tune', rawBody: '{"default_lease_ttl":1e2}' },
  { id: 'auth-tune-number-exponent-upper', method: 'POST', path: 'sys/auth/ldap/tune', rawBody: '{"default_lease_ttl":1E2}' },
  { id: 'auth-tune-number-fraction', method: 'POST', path: 'sys/auth/ldap/tune', rawBody: '{"default_lease_ttl":100.0}' },
  { id: 'auth-tune-number-negative-exponent', method: 'POST', path: 'sys/auth/ldap/tune', rawBody: '{"default_lease_ttl":100e-2}' },
  { id: 'auth-tune-number-underflow', method: 'POST', path: 'sys/auth/ldap/tune', rawBody: '{"default_lease_ttl":1e-400}' },
  { id: 'auth-tune-number-large', method: 'POST', path: 'sys/auth/ldap/tune', rawBody: '{"max_lease_ttl":1e308}' },
  { id: 'auth-tune-number-seconds', method: 'POST', path: 'sys/auth/ldap/tune', rawBody: '{"default_lease_ttl":120,"max_lease_ttl":3600,"description":12.50}' },
  { id: 'auth-tune-number-read', method: 'GET', path: 'sys/auth/ldap/tune' },
  { id: 'auth-tune-number-restore', method: 'POST', path: 'sys/auth/ldap/tune', body: { description: 'people' } },
  { id: 'auth-tune-missing', method: 'GET', path: 'sys/auth/nope/tune' },
  { id: 'auth-enable-no-type', method: 'POST', path: 'sys/auth/notype', body: {} },
  { id: 'auth-enable-unknown-type', method: 'POST', path: 'sys/auth/weird', body: { type: 'nope' } },
  { id: 'auth-enable-type-not-string', method: 'POST', path: 'sys/auth/numtype', body: { type: 5 } },
  { id: 'auth-enable-unknown-field', method: 'POST', path: 'sys/auth/ldap-extra', body: { type: 'ldap', nope: true } },
  { id: 'auth-enable-not-json', method: 'POST', path: 'sys/auth/badjson', rawBody: '{"type": "ldap"' },
  { id: 'auth-enable-with-config', method: 'POST', path: 'sys/auth/ldap-cfg', body: { type: 'ldap', description: 'with config', config: { default_lease_ttl: '30m', max_lease_ttl: '2h' } } },
  { id: 'auth-read-with-config', method: 'GET', path: 'sys/auth/ldap-cfg' },
  { id: 'auth-enable-mixed-case', method: 'POST', path: 'sys/auth/LDAP-Mixed', body: { type: 'ldap' } },
  { id: 'auth-read-mixed-case-lower', method: 'GET', path: 'sys/auth/ldap-mixed' },
  { id: 'auth-read-mixed-case', method: 'GET', path: 'sys/auth/LDAP-Mixed' },
  { id: 'auth-enable-dotdot', method: 'POST', path: 'sys/auth/a/../dotdot', body: { type: 'ldap' } },
  { id: 'auth-enable-nested', method: 'POST', path: 'sys/auth/team/ldap', body: { type: 'ldap' } },
  { id: 'auth-enable-empty-name', method: 'POST', path: 'sys/auth/', body: { type: 'ldap' } },
  { id: 'auth-enable-long-body', method: 'POST', path: 'sys/auth/ldap-long', body: { type: 'ldap', description: LONG } },
  { id: 'auth-enable-token-type', method: 'POST', path: 'sys/auth/token2', body: { type: 'token' } },
  { id: 'auth-list-after', method: 'GET', path: 'sys/auth' },
  { id: 'auth-disable', method: 'DELETE', path: 'sys/auth/ldap-cfg' },
  { id: 'auth-disable-missing', method: 'DELETE', path: 'sys/auth/nope' },
  { id: 'auth-disable-token', method: 'DELETE', path: 'sys/auth/token' },
];

const MOUNTS: Case[] = [
  { id: 'mounts-list', method: 'GET', path: 'sys/mounts' },
  { id: 'mounts-read-secret', method: 'GET', path: 'sys/mounts/secret' },
  { id: 'mounts-read-missing', method: 'GET', path: 'sys/mounts/nope' },
  { id: 'mounts-list-trailing-slash', method: 'GET', path: 'sys/mounts/' },
  { id: 'mounts-list-list-method', method: 'LIST', path: 'sys/mounts' },
  { id: 'mounts-read-secret-trailing-slash', method: 'GET', path: 'sys/mounts/secret/' },
  { id: 'mounts-read-missing-trailing-slash', method: 'GET', path: 'sys/mounts/nope/' },
  { id: 'mounts-read-under-mount', method: 'GET', path: 'sys/mounts/secret/deeper' },
  { id: 'mounts-tune-read-trailing-slash', method: 'GET', path: 'sys/mounts/secret/tune/' },
  { id: 'mounts-tune-read', method: 'GET', path: 'sys/mounts/secret/tune' },
  { id: 'mounts-enable-kv', method: 'POST', path: 'sys/mounts/kv-two', body: { type: 'kv', options: { version: '2' } } },
  { id: 'mounts-enable-again', method: 'POST', path: 'sys/mounts/kv-two', body: { type: 'kv' } },
  { id: 'mounts-read-kv', method: 'GET', path: 'sys/mounts/kv-two' },
  { id: 'mounts-tune-write', method: 'POST', path: 'sys/mounts/kv-two/tune', body: { max_lease_ttl: '10h' } },
  { id: 'mounts-tune-read-after', method: 'GET', path: 'sys/mounts/kv-two/tune' },
  { id: 'mounts-enable-unknown-type', method: 'POST', path: 'sys/mounts/weird', body: { type: 'nope' } },
  { id: 'mounts-disable', method: 'DELETE', path: 'sys/mounts/kv-two' },
  { id: 'mounts-disable-missing', method: 'DELETE', path: 'sys/mounts/nope' },
];

const NAMESPACES: Case[] = [
  { id: 'ns-list-none', method: 'LIST', path: 'sys/namespaces' },
  { id: 'ns-create', method: 'POST', path: 'sys/namespaces/team-a' },
  { id: 'ns-create-again', method: 'POST', path: 'sys/namespaces/team-a' },
  { id: 'ns-read', method: 'GET', path: 'sys/namespaces/team-a' },
  { id: 'ns-read-missing', method: 'GET', path: 'sys/namespaces/nope' },
  { id: 'ns-create-metadata', method: 'POST', path: 'sys/namespaces/team-m', body: { custom_metadata: { owner: 'ops' } } },
  { id: 'ns-create-metadata-wrong-type', method: 'POST', path: 'sys/namespaces/team-w', body: { custom_metadata: 'owner=ops' } },
  { id: 'ns-create-unknown-field', method: 'POST', path: 'sys/namespaces/team-u', body: { nope: 1 } },
  { id: 'ns-create-mixed-case', method: 'POST', path: 'sys/namespaces/Team-B' },
  { id: 'ns-read-mixed-case-lower', method: 'GET', path: 'sys/namespaces/team-b' },
  { id: 'ns-create-empty-name', method: 'POST', path: 'sys/namespaces/' },
  { id: 'ns-create-dotdot', method: 'POST', path: 'sys/namespaces/x/../team-d' },
  { id: 'ns-create-reserved', method: 'POST', path: 'sys/namespaces/sys' },
  { id: 'ns-list', method: 'LIST', path: 'sys/namespaces' },
  { id: 'ns-list-get', method: 'GET', path: 'sys/namespaces?list=true' },
  { id: 'ns-list-trailing-slash', method: 'LIST', path: 'sys/namespaces/' },
  { id: 'ns-list-get-trailing-slash', method: 'GET', path: 'sys/namespaces/?list=true' },
  { id: 'ns-read-collection-trailing-slash', method: 'GET', path: 'sys/namespaces/' },
  { id: 'ns-read-trailing-slash', method: 'GET', path: 'sys/namespaces/team-a/' },
  { id: 'ns-create-trailing-slash', method: 'POST', path: 'sys/namespaces/team-z/' },
  { id: 'ns-create-nested', method: 'POST', path: 'team-a/sys/namespaces/dev' },
  { id: 'ns-create-nested-header', method: 'POST', path: 'sys/namespaces/qa', namespace: 'team-a' },
  { id: 'ns-read-nested', method: 'GET', path: 'team-a/sys/namespaces/dev' },
  { id: 'ns-list-header-repeated', method: 'LIST', path: 'sys/namespaces', headers: [['X-Vault-Namespace', 'team-a'], ['X-Vault-Namespace', 'nope']] },
  { id: 'ns-list-nested', method: 'LIST', path: 'sys/namespaces', namespace: 'team-a' },
  { id: 'ns-auth-list', method: 'GET', path: 'team-a/sys/auth' },
  { id: 'ns-auth-list-trailing-slash', method: 'GET', path: 'team-a/sys/auth/' },
  { id: 'ns-auth-enable', method: 'POST', path: 'sys/auth/ldap', namespace: 'team-a', body: { type: 'ldap' } },
  { id: 'ns-auth-read', method: 'GET', path: 'team-a/sys/auth/ldap' },
  { id: 'ns-ldap-config-write', method: 'POST', path: 'team-a/auth/ldap/config', body: { url: 'ldap://ns.example', userattr: 'uid' } },
  { id: 'ns-ldap-config-read', method: 'GET', path: 'auth/ldap/config', namespace: 'team-a' },
  { id: 'ns-mounts-list', method: 'GET', path: 'team-a/sys/mounts' },
  { id: 'ns-missing-path', method: 'GET', path: 'team-typo/sys/auth' },
  { id: 'ns-missing-header', method: 'GET', path: 'sys/auth', namespace: 'team-typo' },
  { id: 'ns-header-and-path', method: 'GET', path: 'dev/sys/auth', namespace: 'team-a' },
  { id: 'ns-delete-with-children', method: 'DELETE', path: 'sys/namespaces/team-a' },
  { id: 'ns-patch-metadata', method: 'PATCH', path: 'sys/namespaces/team-m', contentType: MERGE_PATCH, body: { custom_metadata: { owner: null, tier: 'gold' } } },
  { id: 'ns-read-patched', method: 'GET', path: 'sys/namespaces/team-m' },
  { id: 'ns-patch-content-type-repeated', method: 'PATCH', path: 'sys/namespaces/team-m', body: { custom_metadata: { tier: 'bronze' } }, headers: [['Content-Type', MERGE_PATCH], ['Content-Type', 'application/json']] },
  { id: 'ns-patch-as-json', method: 'PATCH', path: 'sys/namespaces/team-m', body: { custom_metadata: { tier: 'silver' } } },
  { id: 'ns-patch-not-string', method: 'PATCH', path: 'sys/namespaces/team-m', contentType: MERGE_PATCH, body: { custom_metadata: { tier: 3 } } },
  { id: 'ns-patch-missing', method: 'PATCH', path: 'sys/namespaces/nope', contentType: MERGE_PATCH, body: { custom_metadata: { tier: 'gold' } } },
  { id: 'ns-patch-clear', method: 'PATCH', path: 'sys/namespaces/team-m', contentType: MERGE_PATCH, body: { custom_metadata: null } },
  { id: 'ns-read-cleared', method: 'GET', path: 'sys/namespaces/team-m' },
  { id: 'ns-delete', method: 'DELETE', path: 'sys/namespaces/team-m' },
  // No read of the deleted namespace: OpenBao deletes in the background, so what it answers depends on timing.
  { id: 'ns-delete-missing', method: 'DELETE', path: 'sys/namespaces/nope' },
];

const TOKENS: Case[] = [
  { id: 'token-lookup-self-root', method: 'GET', path: 'auth/token/lookup-self' },
  // The token store's patterns are exact (vault/token_store.go): no trailing slash, no LIST.
  { id: 'token-lookup-self-trailing-slash', method: 'GET', path: 'auth/token/lookup-self/' },
  { id: 'token-lookup-self-list', method: 'LIST', path: 'auth/token/lookup-self' },
  { id: 'token-lookup-get-trailing-slash', method: 'GET', path: 'auth/token/lookup/' },
  { id: 'token-create-trailing-slash', method: 'POST', path: 'auth/token/create/', body: { policies: ['default'] } },
  { id: 'token-renew-self-trailing-slash', method: 'POST', path: 'auth/token/renew-self/', body: {} },
  { id: 'token-lookup-accessor-trailing-slash', method: 'POST', path: 'auth/token/lookup-accessor/', body: { accessor: 'x' } },
  {
    id: 'token-create',
    method: 'POST',
    path: 'auth/token/create',
    body: { policies: ['Dev', 'ops'], ttl: '1h', meta: { owner: 'diff' } },
    capture: { child: 'auth.client_token', childAccessor: 'auth.accessor' },
  },
  { id: 'token-create-default-only', method: 'POST', path: 'auth/token/create', body: { policies: ['default'], ttl: '2h' }, capture: { plain: 'auth.client_token', plainAccessor: 'auth.accessor' } },
  { id: 'token-create-policies-comma', method: 'POST', path: 'auth/token/create', body: { policies: 'default,Ops ,dev', ttl: 600 } },
  { id: 'token-create-ttl-seconds-string', method: 'POST', path: 'auth/token/create', body: { policies: ['default'], ttl: '3600' } },
  { id: 'token-create-ttl-compound', method: 'POST', path: 'auth/token/create', body: { policies: ['default'], ttl: '1h30m' } },
  { id: 'token-create-ttl-days', method: 'POST', path: 'auth/token/create', body: { policies: ['default'], ttl: '2d' } },
  { id: 'token-create-number-texts', method: 'POST', path: 'auth/token/create', rawBody: '{"policies":[1.0],"ttl":"1h","meta":{"a":1e2,"b":0.50},"num_uses":-0}' },
  { id: 'token-create-num-uses-fraction', method: 'POST', path: 'auth/token/create', rawBody: '{"num_uses":1.0}' },
  { id: 'token-create-num-uses-exponent', method: 'POST', path: 'auth/token/create', rawBody: '{"num_uses":1e2}' },
  { id: 'token-create-renewable-fraction', method: 'POST', path: 'auth/token/create', rawBody: '{"renewable":1.0}' },
  { id: 'token-create-ttl-fraction', method: 'POST', path: 'auth/token/create', rawBody: '{"ttl":1.5}' },
  { id: 'token-create-bad-ttl', method: 'POST', path: 'auth/token/create', body: { ttl: 'soon' } },
  { id: 'token-create-negative-ttl', method: 'POST', path: 'auth/token/create', body: { ttl: '-5m' } },
  { id: 'token-create-num-uses-wrong-type', method: 'POST', path: 'auth/token/create', body: { num_uses: 'many' } },
  { id: 'token-create-unknown-field', method: 'POST', path: 'auth/token/create', body: { policies: ['default'], nope: 1 } },
  { id: 'token-create-no-default', method: 'POST', path: 'auth/token/create', body: { policies: ['reader'], no_default_policy: true } },
  { id: 'token-create-meta-wrong-type', method: 'POST', path: 'auth/token/create', body: { meta: 'owner=ops' } },
  { id: 'token-create-batch', method: 'POST', path: 'auth/token/create', body: { type: 'batch', policies: ['default'] } },
  { id: 'token-create-bad-type', method: 'POST', path: 'auth/token/create', body: { type: 'nope' } },
  { id: 'token-create-not-json', method: 'POST', path: 'auth/token/create', rawBody: 'policies=default' },
  { id: 'token-create-by-child', method: 'POST', path: 'auth/token/create', token: { captured: 'plain' }, body: {} },
  { id: 'token-lookup-self-child', method: 'GET', path: 'auth/token/lookup-self', token: { captured: 'child' } },
  { id: 'token-lookup-self-post', method: 'POST', path: 'auth/token/lookup-self', token: { captured: 'plain' }, body: {} },
  { id: 'token-lookup', method: 'POST', path: 'auth/token/lookup', body: { token: '<<child>>' } },
  { id: 'token-lookup-unknown', method: 'POST', path: 'auth/token/lookup', body: { token: 'hvs.unknown' } },
  { id: 'token-lookup-empty', method: 'POST', path: 'auth/token/lookup', body: {} },
  { id: 'token-lookup-wrong-type', method: 'POST', path: 'auth/token/lookup', body: { token: 5 } },
  { id: 'token-lookup-get-query', method: 'GET', path: 'auth/token/lookup?token=<<child>>' },
  { id: 'token-lookup-accessor', method: 'POST', path: 'auth/token/lookup-accessor', body: { accessor: '<<childAccessor>>' } },
  { id: 'token-lookup-accessor-unknown', method: 'POST', path: 'auth/token/lookup-accessor', body: { accessor: 'nope' } },
  { id: 'token-lookup-accessor-empty', method: 'POST', path: 'auth/token/lookup-accessor', body: {} },
  { id: 'token-lookup-by-default-token', method: 'POST', path: 'auth/token/lookup', token: { captured: 'plain' }, body: { token: '<<child>>' } },
  { id: 'token-renew-self', method: 'POST', path: 'auth/token/renew-self', token: { captured: 'plain' }, body: { increment: '30m' } },
  { id: 'token-renew-self-seconds', method: 'POST', path: 'auth/token/renew-self', token: { captured: 'plain' }, body: { increment: 900 } },
  { id: 'token-renew-self-bad-increment', method: 'POST', path: 'auth/token/renew-self', token: { captured: 'plain' }, body: { increment: 'soon' } },
  { id: 'token-renew-self-root', method: 'POST', path: 'auth/token/renew-self', body: {} },
  { id: 'token-lookup-self-after-renew', method: 'GET', path: 'auth/token/lookup-self', token: { captured: 'plain' } },
  { id: 'token-default-policy-admin-path', method: 'GET', path: 'sys/auth', token: { captured: 'plain' } },
  { id: 'token-revoke-self', method: 'POST', path: 'auth/token/revoke-self', token: { captured: 'plain' } },
  { id: 'token-lookup-self-revoked', method: 'GET', path: 'auth/token/lookup-self', token: { captured: 'plain' } },
  { id: 'token-lookup-accessor-revoked', method: 'POST', path: 'auth/token/lookup-accessor', body: { accessor: '<<plainAccessor>>' } },
  { id: 'token-lookup-self-wrong-token', method: 'GET', path: 'auth/token/lookup-self', token: 'wrong' },
  { id: 'token-lookup-self-no-token', method: 'GET', path: 'auth/token/lookup-self', token: 'none' },
];

const ldapConfig = { url: '<<ldap.url>>', binddn: '<<ldap.binddn>>', bindpass: '<<ldap.bindpass>>', userdn: '<<ldap.userdn>>', userattr: 'uid', groupdn: '<<ldap.groupdn>>' };

const LDAP: Case[] = [
  { id: 'ldap-config-read-default', method: 'GET', path: 'auth/ldap/config' },
  { id: 'ldap-config-write', method: 'POST', path: 'auth/ldap/config', body: { ...ldapConfig, token_policies: 'Dev, ops,Dev', token_ttl: '1h' } },
  { id: 'ldap-config-read', method: 'GET', path: 'auth/ldap/config' },
  { id: 'ldap-config-policies-list', method: 'POST', path: 'auth/ldap/config', body: { token_policies: ['Zeta', ' alpha '] } },
  { id: 'ldap-config-read-policies-list', method: 'GET', path: 'auth/ldap/config' },
  { id: 'ldap-config-durations', method: 'POST', path: 'auth/ldap/config', body: { request_timeout: '1m30s', connection_timeout: 15, token_ttl: 7200, token_max_ttl: '4h' } },
  { id: 'ldap-config-read-durations', method: 'GET', path: 'auth/ldap/config' },
  { id: 'ldap-config-duration-string-seconds', method: 'POST', path: 'auth/ldap/config', body: { request_timeout: '45', token_ttl: '30m' } },
  { id: 'ldap-config-bad-duration', method: 'POST', path: 'auth/ldap/config', body: { request_timeout: 'soon' } },
  { id: 'ldap-config-bool-wrong-type', method: 'POST', path: 'auth/ldap/config', body: { deny_null_bind: 'maybe' } },
  { id: 'ldap-config-bool-string', method: 'POST', path: 'auth/ldap/config', body: { case_sensitive_names: 'false', starttls: 'true', insecure_tls: 0 } },
  { id: 'ldap-config-unknown-field', method: 'POST', path: 'auth/ldap/config', body: { nope: 1, userattr: 'uid' } },
  { id: 'ldap-config-filter-warning', method: 'POST', path: 'auth/ldap/config', body: { userfilter: '(mail={{.Username}})' } },
  { id: 'ldap-config-filter-bad-template', method: 'POST', path: 'auth/ldap/config', body: { userfilter: '({{.UserAttr}}={{.Username}' } },
  { id: 'ldap-config-filter-reset', method: 'POST', path: 'auth/ldap/config', body: { userfilter: '({{.UserAttr}}={{.Username}})' } },
  { id: 'ldap-config-token-type-empty', method: 'POST', path: 'auth/ldap/config', body: { token_type: '' } },
  { id: 'ldap-config-token-type-bad', method: 'POST', path: 'auth/ldap/config', body: { token_type: 'nope' } },
  { id: 'ldap-config-bound-cidrs-comma', method: 'POST', path: 'auth/ldap/config', body: { token_bound_cidrs: '127.0.0.1/32, 10.0.0.0/8' } },
  { id: 'ldap-config-bound-cidrs-bad', method: 'POST', path: 'auth/ldap/config', body: { token_bound_cidrs: ['not-a-cidr'] } },
  { id: 'ldap-config-tls-min-bad', method: 'POST', path: 'auth/ldap/config', body: { tls_min_version: 'tls99' } },
  { id: 'ldap-config-deref-bad', method: 'POST', path: 'auth/ldap/config', body: { dereference_aliases: 'sometimes' } },
  { id: 'ldap-config-not-json', method: 'POST', path: 'auth/ldap/config', rawBody: 'url=ldap://x' },
  { id: 'ldap-config-read-final', method: 'GET', path: 'auth/ldap/config' },
  // builtin/credential/ldap: `config` is exact, the lists are `groups/?$` and `users/?$`, an entry `users/(?P<name>.+)`.
  { id: 'ldap-config-read-trailing-slash', method: 'GET', path: 'auth/ldap/config/' },
  { id: 'ldap-config-write-trailing-slash', method: 'POST', path: 'auth/ldap/config/', body: { userattr: 'uid' } },
  { id: 'ldap-config-list', method: 'LIST', path: 'auth/ldap/config' },
  { id: 'ldap-mount-root', method: 'GET', path: 'auth/ldap' },
  { id: 'ldap-mount-root-trailing-slash', method: 'GET', path: 'auth/ldap/' },
  { id: 'ldap-config-wrong-token', method: 'GET', path: 'auth/ldap/config', token: 'wrong' },
  { id: 'ldap-groups-list-none', method: 'LIST', path: 'auth/ldap/groups' },
  { id: 'ldap-group-write', method: 'POST', path: 'auth/ldap/groups/Admins', body: { policies: 'Ops, dev ,ops' } },
  { id: 'ldap-group-read-lower', method: 'GET', path: 'auth/ldap/groups/admins' },
  { id: 'ldap-group-read-as-written', method: 'GET', path: 'auth/ldap/groups/Admins' },
  { id: 'ldap-group-write-list', method: 'POST', path: 'auth/ldap/groups/builders', body: { policies: ['dev', 'Root'] } },
  { id: 'ldap-group-read-root', method: 'GET', path: 'auth/ldap/groups/builders' },
  { id: 'ldap-group-write-policies-wrong-type', method: 'POST', path: 'auth/ldap/groups/badtype', body: { policies: { a: 1 } } },
  { id: 'ldap-group-write-unknown-field', method: 'POST', path: 'auth/ldap/groups/extra', body: { policies: 'dev', nope: true } },
  { id: 'ldap-group-write-empty-body', method: 'POST', path: 'auth/ldap/groups/empty', body: {} },
  { id: 'ldap-group-read-empty', method: 'GET', path: 'auth/ldap/groups/empty' },
  { id: 'ldap-group-write-empty-name', method: 'POST', path: 'auth/ldap/groups/', body: { policies: 'dev' } },
  { id: 'ldap-group-write-dotdot', method: 'POST', path: 'auth/ldap/groups/../users/sneaky', body: { policies: 'dev' } },
  { id: 'ldap-group-write-encoded-slash', method: 'POST', path: 'auth/ldap/groups/a%2Fb', body: { policies: 'dev' } },
  { id: 'ldap-group-write-long-body', method: 'POST', path: 'auth/ldap/groups/long', body: { policies: LONG } },
  { id: 'ldap-group-write-space', method: 'POST', path: 'auth/ldap/groups/two%20words', body: { policies: 'dev' } },
  // Go's unicode.IsPrint (values/printable.ts): a C1 control, the right-to-left override and a
  // no-break space are refused (400), an accented letter is a name like any other.
  { id: 'ldap-group-write-c1-control', method: 'POST', path: 'auth/ldap/groups/c1%C2%9B31m', body: { policies: 'dev' } },
  { id: 'ldap-group-write-bidi-override', method: 'POST', path: 'auth/ldap/groups/bidi%E2%80%AEevil', body: { policies: 'dev' } },
  { id: 'ldap-group-write-no-break-space', method: 'POST', path: 'auth/ldap/groups/nbsp%C2%A0x', body: { policies: 'dev' } },
  { id: 'ldap-group-read-c1-control', method: 'GET', path: 'auth/ldap/groups/c1%C2%9B31m' },
  { id: 'ldap-group-write-accented', method: 'POST', path: 'auth/ldap/groups/caf%C3%A9', body: { policies: 'dev' } },
  { id: 'ldap-groups-list', method: 'LIST', path: 'auth/ldap/groups' },
  { id: 'ldap-groups-list-get', method: 'GET', path: 'auth/ldap/groups?list=true' },
  { id: 'ldap-groups-list-trailing-slash', method: 'LIST', path: 'auth/ldap/groups/' },
  { id: 'ldap-groups-list-get-trailing-slash', method: 'GET', path: 'auth/ldap/groups/?list=true' },
  { id: 'ldap-groups-read-trailing-slash', method: 'GET', path: 'auth/ldap/groups/' },
  { id: 'ldap-groups-read', method: 'GET', path: 'auth/ldap/groups' },
  { id: 'ldap-group-read-trailing-slash', method: 'GET', path: 'auth/ldap/groups/builders/' },
  { id: 'ldap-group-write-trailing-slash', method: 'POST', path: 'auth/ldap/groups/builders/', body: { policies: 'dev' } },
  { id: 'ldap-group-read-missing', method: 'GET', path: 'auth/ldap/groups/nope' },
  { id: 'ldap-group-delete-other-case', method: 'DELETE', path: 'auth/ldap/groups/ADMINS' },
  { id: 'ldap-group-read-after-delete-other-case', method: 'GET', path: 'auth/ldap/groups/admins' },
  { id: 'ldap-group-delete', method: 'DELETE', path: 'auth/ldap/groups/admins' },
  { id: 'ldap-group-delete-missing', method: 'DELETE', path: 'auth/ldap/groups/nope' },
  { id: 'ldap-users-list-none', method: 'LIST', path: 'auth/ldap/users' },
  { id: 'ldap-user-write', method: 'POST', path: 'auth/ldap/users/alice', body: { policies: 'oncall', groups: 'b,a' } },
  { id: 'ldap-user-read', method: 'GET', path: 'auth/ldap/users/alice' },
  { id: 'ldap-users-list-trailing-slash', method: 'LIST', path: 'auth/ldap/users/' },
  { id: 'ldap-users-list-get-trailing-slash', method: 'GET', path: 'auth/ldap/users/?list=true' },
  { id: 'ldap-user-list-entry', method: 'LIST', path: 'auth/ldap/users/alice' },
  { id: 'ldap-user-read-trailing-slash', method: 'GET', path: 'auth/ldap/users/alice/' },
  // pathUserDelete deletes `user/alice/`: nothing, and alice stays.
  { id: 'ldap-user-delete-trailing-slash', method: 'DELETE', path: 'auth/ldap/users/alice/' },
  { id: 'ldap-user-read-after-delete-trailing-slash', method: 'GET', path: 'auth/ldap/users/alice' },
  { id: 'ldap-user-write-groups-list', method: 'POST', path: 'auth/ldap/users/Bob', body: { policies: ['Dev', 'root'], groups: ['x', ' y'] } },
  { id: 'ldap-user-read-bob', method: 'GET', path: 'auth/ldap/users/bob' },
  { id: 'ldap-user-write-groups-wrong-type', method: 'POST', path: 'auth/ldap/users/carol', body: { groups: 5 } },
  { id: 'ldap-users-list', method: 'LIST', path: 'auth/ldap/users' },
  { id: 'ldap-user-read-missing', method: 'GET', path: 'auth/ldap/users/nope' },
  { id: 'ldap-user-delete-other-case', method: 'DELETE', path: 'auth/ldap/users/ALICE' },
  { id: 'ldap-user-read-after-delete-other-case', method: 'GET', path: 'auth/ldap/users/alice' },
  { id: 'ldap-unknown-path', method: 'GET', path: 'auth/ldap/nope' },
  { id: 'ldap-mount-missing', method: 'GET', path: 'auth/ldap-none/config' },
];

/**
 * Repeated headers: the service reads the first value of each (Go's Header.Get), the token as
 * hashicorp/vault http/handler.go getTokenFromReq finds it (X-Vault-Token, else the first
 * `Authorization: Bearer `); src/server/http/request-headers.ts.
 */
const HEADERS: Case[] = [
  { id: 'header-token-repeated-root-first', method: 'GET', path: 'auth/token/lookup-self', token: 'none', headers: [['X-Vault-Token', '<<root>>'], ['X-Vault-Token', '<<wrong>>']] },
  { id: 'header-token-repeated-wrong-first', method: 'GET', path: 'auth/token/lookup-self', token: 'none', headers: [['X-Vault-Token', '<<wrong>>'], ['X-Vault-Token', '<<root>>']] },
  { id: 'header-token-empty-then-root', method: 'GET', path: 'auth/token/lookup-self', token: 'none', headers: [['X-Vault-Token', ''], ['X-Vault-Token', '<<root>>']] },
  { id: 'header-bearer', method: 'GET', path: 'sys/auth', token: 'none', headers: [['Authorization', 'Bearer <<root>>']] },
  { id: 'header-bearer-lower-case', method: 'GET', path: 'sys/auth', token: 'none', headers: [['Authorization', 'bearer <<root>>']] },
  { id: 'header-bearer-second', method: 'GET', path: 'sys/auth', token: 'none', headers: [['Authorization', 'Basic dXNlcjpwdw=='], ['Authorization', 'Bearer <<root>>']] },
  { id: 'header-bearer-wrong-first', method: 'GET', path: 'sys/auth', token: 'none', headers: [['Authorization', 'Bearer <<wrong>>'], ['Authorization', 'Bearer <<root>>']] },
  { id: 'header-token-over-bearer', method: 'GET', path: 'sys/auth', token: 'none', headers: [['Authorization', 'Bearer <<root>>'], ['X-Vault-Token', '<<wrong>>']] },
  { id: 'header-namespace-root-repeated', method: 'GET', path: 'sys/auth', headers: [['X-Vault-Namespace', 'root'], ['X-Vault-Namespace', 'nope']] },
  { id: 'header-content-type-repeated', method: 'POST', path: 'sys/auth/ldap/tune', body: { description: 'people' }, headers: [['Content-Type', 'application/json'], ['Content-Type', 'application/x-www-form-urlencoded']] },
];

const LOGIN: Case[] = [
  { id: 'login-config', method: 'POST', path: 'auth/ldap/config', body: { ...ldapConfig, userfilter: '({{.UserAttr}}={{.Username}})', token_policies: 'Dev, ops', token_ttl: '1h', token_type: 'default', starttls: false } },
  { id: 'login', method: 'POST', path: 'auth/ldap/login/alice', token: 'none', body: { password: 'alice-pw' }, capture: { login: 'auth.client_token' } },
  { id: 'login-wrong-password', method: 'POST', path: 'auth/ldap/login/alice', token: 'none', body: { password: 'nope' } },
  { id: 'login-unknown-user', method: 'POST', path: 'auth/ldap/login/nobody', token: 'none', body: { password: 'x' } },
  { id: 'login-empty-password', method: 'POST', path: 'auth/ldap/login/alice', token: 'none', body: { password: '' } },
  { id: 'login-no-password', method: 'POST', path: 'auth/ldap/login/alice', token: 'none', body: {} },
  { id: 'login-password-wrong-type', method: 'POST', path: 'auth/ldap/login/alice', token: 'none', body: { password: 5 } },
  { id: 'login-mixed-case', method: 'POST', path: 'auth/ldap/login/ALICE', token: 'none', body: { password: 'alice-pw' } },
  { id: 'login-username-in-body', method: 'POST', path: 'auth/ldap/login', token: 'none', body: { username: 'alice', password: 'alice-pw' } },
  { id: 'login-trailing-slash', method: 'POST', path: 'auth/ldap/login/alice/', token: 'none', body: { password: 'alice-pw' } },
  { id: 'login-lookup-self', method: 'GET', path: 'auth/token/lookup-self', token: { captured: 'login' } },
  { id: 'login-renew-self', method: 'POST', path: 'auth/token/renew-self', token: { captured: 'login' }, body: {} },
  { id: 'login-revoke-self', method: 'POST', path: 'auth/token/revoke-self', token: { captured: 'login' } },
];

/**
 * ACL policies with and without a trailing slash (vault/logical_system_paths.go `policy/?$`,
 * `policy/(?P<name>.+)`, `policies/acl/?$`, `policies/acl/(?P<name>.+)`). A read of `name/`
 * finds `name` through the policy store's cache (vault/policy_store.go cacheKey is
 * path.Join(namespace, name)); a delete of `name/` deletes nothing.
 */
const POLICIES: Case[] = [
  { id: 'policy-write', method: 'PUT', path: 'sys/policies/acl/ts-reader', body: { policy: 'path "secret/*" { capabilities = ["read"] }' } },
  { id: 'policies-list', method: 'LIST', path: 'sys/policies/acl' },
  { id: 'policies-list-trailing-slash', method: 'LIST', path: 'sys/policies/acl/' },
  { id: 'policies-list-get-trailing-slash', method: 'GET', path: 'sys/policies/acl/?list=true' },
  { id: 'policies-read-collection', method: 'GET', path: 'sys/policies/acl' },
  { id: 'policies-list-not-bool', method: 'GET', path: 'sys/policies/acl?list=maybe' },
  { id: 'policies-list-one-policy', method: 'LIST', path: 'sys/policies/acl/x' },
  { id: 'policies-read-collection-trailing-slash', method: 'GET', path: 'sys/policies/acl/' },
  { id: 'policy-read-trailing-slash', method: 'GET', path: 'sys/policies/acl/ts-reader/' },
  { id: 'policy-write-trailing-slash', method: 'PUT', path: 'sys/policies/acl/ts-reader/', body: { policy: 'path "x" { capabilities = ["read"] }' } },
  { id: 'policy-delete-trailing-slash', method: 'DELETE', path: 'sys/policies/acl/ts-reader/' },
  { id: 'policy-read-after-delete-trailing-slash', method: 'GET', path: 'sys/policies/acl/ts-reader' },
  { id: 'policy-legacy-list', method: 'GET', path: 'sys/policy' },
  { id: 'policy-legacy-list-trailing-slash', method: 'GET', path: 'sys/policy/' },
  { id: 'policy-legacy-list-method', method: 'LIST', path: 'sys/policy' },
  { id: 'policy-legacy-read-trailing-slash', method: 'GET', path: 'sys/policy/ts-reader/' },
  { id: 'policy-delete', method: 'DELETE', path: 'sys/policies/acl/ts-reader' },
];

export const CORPUS: readonly Case[] = [...HEALTH, ...SEAL_AND_INIT, ...AUTH_METHODS, ...MOUNTS, ...TOKENS, ...HEADERS, ...LDAP, ...LOGIN, ...NAMESPACES, ...POLICIES, ...ACL];
