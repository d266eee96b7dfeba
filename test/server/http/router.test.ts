import { describe, expect, it } from 'vitest';
import { Router, type Route } from '../../../src/server/http/router.js';

/**
 * Routes match the path as the request names it, its trailing slash included, as the service's
 * framework matches Path.Pattern anchored at both ends (sdk/framework/backend.go init): a pattern
 * ending in `/?` takes both forms (`users/?$`), any other exactly what it names.
 */
const route = (pattern: string): Route => ({ pattern, access: 'acl', handlers: {} });
const router = new Router([route('sys/auth'), route('sys/auth/:path+/tune'), route('sys/auth/:path+'), route('users/?'), route('users/:name+'), route('role/:name')]);
const matched = (path: string): [string, Record<string, string>] | undefined => {
  const m = router.match(path);
  return m && [m.route.pattern, m.params];
};

describe('Router: trailing slashes decided per pattern', () => {
  it('an exact pattern takes no trailing slash', () => {
    expect(matched('sys/auth')).toEqual(['sys/auth', {}]);
    // `sys/auth/` is neither `auth$` nor `auth/(?P<path>.+)`.
    expect(matched('sys/auth/')).toBeUndefined();
  });

  it('a pattern ending in `/?` takes the path with and without one', () => {
    expect(matched('users')).toEqual(['users/?', {}]);
    expect(matched('users/')).toEqual(['users/?', {}]);
  });

  it('a `:name+` parameter keeps the trailing slash, as `(?P<name>.+)` does; a tune path with one is no tune path', () => {
    expect(matched('sys/auth/ldap/')).toEqual(['sys/auth/:path+', { path: 'ldap/' }]);
    expect(matched('sys/auth/ldap/tune')).toEqual(['sys/auth/:path+/tune', { path: 'ldap' }]);
    expect(matched('sys/auth/ldap/tune/')).toEqual(['sys/auth/:path+', { path: 'ldap/tune/' }]);
    expect(matched('users/alice/')).toEqual(['users/:name+', { name: 'alice/' }]);
  });

  it('a one-segment parameter takes no trailing slash', () => {
    expect(matched('role/dev')).toEqual(['role/:name', { name: 'dev' }]);
    expect(matched('role/dev/')).toBeUndefined();
  });
});
