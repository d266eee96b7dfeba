import { expect } from 'vitest';
import type { Fact, Step } from '../fact.js';

const HELP_GO = 'http/help.go (wrapHelpHandler, handleHelp)';
const BACKEND_GO = 'sdk/framework/backend.go (handleRequest: logical.HelpOperation → handlePathHelp / handleRootHelp)';
const HELP_RESPONSE = 'sdk/logical/response.go (HelpResponse: help, see_also, openapi)';
const ACL_GO = 'vault/acl.go (AllowOperation: logical.HelpOperation always allowed)';

const enableLdap: Step = { method: 'POST', path: 'sys/auth/ldap', body: { type: 'ldap' } };

/** The help document's envelope: the bare data of logical.HelpResponse, no request_id or data. */
function helpOf(request: RegExp, openApiPaths: Record<string, unknown>): Record<string, unknown> {
  return {
    help: expect.stringMatching(request),
    openapi: { openapi: '3.0.2', info: { title: expect.any(String), version: expect.any(String) }, paths: openApiPaths, components: { schemas: expect.any(Object) } },
    see_also: null,
  };
}
const NO_ENVELOPE = ['data', 'request_id', 'auth', 'warnings'];

export const HELP_FACTS: readonly Fact[] = [
  {
    says: 'GET auth/ldap/config?help=1 answers the help document of the path, not the config',
    source: `${HELP_GO}, ${BACKEND_GO}, ${HELP_RESPONSE}`,
    setup: [enableLdap],
    request: { method: 'GET', path: 'auth/ldap/config?help=1' },
    expect: { status: 200, body: helpOf(/^Request: +config\nMatching Route: \^config\$\n/, { '/config': expect.objectContaining({ get: expect.any(Object), post: expect.any(Object) }) }), absent: NO_ENVELOPE },
  },
  {
    says: 'GET sys/auth?help=1 answers the system backend’s help of the path, relative to sys/',
    source: `${HELP_GO}, vault/logical_system_paths.go (authPaths), ${HELP_RESPONSE}`,
    request: { method: 'GET', path: 'sys/auth?help=true' },
    expect: { status: 200, body: helpOf(/^Request: +auth\nMatching Route: \^auth\$\n/, { '/auth': expect.objectContaining({ get: expect.any(Object) }) }), absent: NO_ENVELOPE },
  },
  {
    says: 'any method asks for help with ?help: a POST is not a write',
    source: HELP_GO,
    setup: [enableLdap],
    request: { method: 'POST', path: 'auth/ldap/users/fry?help=1', body: { policies: 'x' } },
    expect: { status: 200, body: helpOf(/^Request: +users\/fry\n/, { '/users/{name}': expect.any(Object) }) },
  },
  {
    says: 'the help of an auth mount’s own path is the backend’s, listing its paths',
    source: `${BACKEND_GO} (handleRootHelp)`,
    setup: [enableLdap],
    request: { method: 'GET', path: 'auth/ldap?help=1' },
    expect: { status: 200, body: helpOf(/## PATHS/, expect.objectContaining({ '/config': expect.any(Object), '/login/{username}': expect.any(Object) })) },
  },
  {
    says: 'an empty help value is no help request: the path is served',
    source: `${HELP_GO} (req.URL.Query().Get("help") != "")`,
    request: { method: 'GET', path: 'sys/auth?help=' },
    expect: { status: 200, body: { data: { 'token/': expect.any(Object) } }, absent: ['help'] },
  },
  {
    says: 'help needs a valid token where the path does',
    source: `${HELP_GO} (requestAuth), vault/request_handling.go (CheckToken)`,
    request: { method: 'GET', path: 'sys/auth?help=1', token: 'none' },
    expect: { status: 403, body: { errors: ['permission denied'] } },
  },
  {
    says: 'help of a path that needs no token (a login) needs none either',
    source: `${HELP_GO}, builtin/credential/ldap/backend.go (PathsSpecial Unauthenticated login)`,
    setup: [enableLdap],
    request: { method: 'GET', path: 'auth/ldap/login/alice?help=1', token: 'none' },
    expect: { status: 200, body: helpOf(/^Request: +login\/alice\n/, { '/login/{username}': expect.any(Object) }) },
  },
  {
    says: 'any valid token may read help, whatever its policies',
    source: ACL_GO,
    setup: [{ method: 'POST', path: 'auth/token/create', body: { policies: ['default'] }, capture: { plain: 'auth.client_token' } }],
    request: { method: 'GET', path: 'sys/auth?help=1', token: { captured: 'plain' } },
    expect: { status: 200, body: helpOf(/^Request: +auth\n/, { '/auth': expect.any(Object) }) },
  },
  {
    says: 'help of a path its mount does not serve is the backend’s unsupported path',
    source: `${BACKEND_GO} (logical.ErrUnsupportedPath), vault/request_handling.go`,
    setup: [enableLdap],
    request: { method: 'GET', path: 'auth/ldap/nowhere?help=1' },
    expect: { status: 404, body: { errors: ['1 error occurred:\n\t* unsupported path\n\n'] } },
  },
  {
    says: 'help of a path no mount holds is the router’s no handler',
    source: 'vault/router.go (routeCommon: "no handler for route")',
    request: { method: 'GET', path: 'nowhere/at-all?help=1' },
    expect: { status: 404, body: { errors: ['no handler for route "nowhere/at-all". route entry not found.'] } },
  },
];
