import type { Fact, Step } from '../fact.js';

/**
 * Names as bytes, and mount paths of several segments. Checked against OpenBao 2.6.2 too
 * (test/real-server/mount-paths.test.ts runs the mount facts' requests on it).
 */
const HANDLER_GO = 'http/handler.go (Go net/url decodes %XX to any byte; cleanhttp PrintablePathCheckHandler reads a byte that is not UTF-8 as U+FFFD, printable)';
const ENCODING_GO = 'sdk/physical/encoding.go (Put and Delete refuse a key that is not valid UTF-8)';
const JSON_GO = 'Go encoding/json encode.go appendString (a byte that is not UTF-8 is written \\ufffd)';
const AUTH_GO = 'vault/auth.go (enableCredentialInternal: "path is already in use at ...")';

const enable = (path: string): Step => ({ method: 'POST', path: `sys/auth/${path}`, body: { type: 'ldap' } });

export const NAME_FACTS: readonly Fact[] = [
  {
    says: 'an auth method is enabled at a path of several segments and listed with its trailing slash',
    source: `vault/logical_system.go (handleEnableAuth, sanitizePath), ${AUTH_GO}`,
    setup: [enable('team/ldap')],
    request: { method: 'GET', path: 'sys/auth' },
    expect: { status: 200, body: { data: { 'team/ldap/': { type: 'ldap' } } } },
  },
  {
    says: 'the objects of a method mounted at several segments live below auth/<path>',
    source: 'vault/router.go (longest matching mount)',
    setup: [enable('team/ldap'), { method: 'POST', path: 'auth/team/ldap/groups/admins', body: { policies: 'p' } }],
    request: { method: 'LIST', path: 'auth/team/ldap/groups' },
    expect: { status: 200, body: { data: { keys: ['admins'] } } },
  },
  {
    says: 'a mount inside another mount, or one holding another, is refused with 400: the 409 of the coded error is lost to the error response',
    source: `${AUTH_GO}: logical.CodedError(409), vault/logical_system.go handleError (an ErrorResponse with the error), sdk/logical/response_util.go (RespondErrorCommon: an error response is a 400 with its own text; RespondError reads no code from it)`,
    setup: [enable('team/ldap')],
    request: enable('team'),
    expect: { status: 400, body: { errors: ['path is already in use at team/ldap/'] } },
  },
  {
    says: 'a mount path holding a byte that is not UTF-8 is enabled, and listed with U+FFFD in its place',
    source: `${HANDLER_GO}, ${JSON_GO}`,
    setup: [enable('a%ff')],
    request: { method: 'GET', path: 'sys/auth' },
    expect: { status: 200, body: { data: { 'a\ufffd/': { type: 'ldap' } } } },
  },
  {
    says: 'a group name holding a byte that is not UTF-8 cannot be stored (500)',
    source: ENCODING_GO,
    setup: [enable('ldap'), { method: 'POST', path: 'auth/ldap/config', body: { case_sensitive_names: true } }],
    request: { method: 'POST', path: 'auth/ldap/groups/a%ff', body: { policies: 'p' } },
    expect: { status: 500, body: { errors: ['1 error occurred:\n\t* key contains invalid UTF-8 characters\n\n'] } },
  },
];
