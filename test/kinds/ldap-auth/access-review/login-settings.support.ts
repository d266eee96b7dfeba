import type { LoginDirectorySettings } from '../../../../src/adapters/ldap/index.js';

/** A login's directory settings for the access review's tests: every field set, a test overrides what it is about. */
export function loginSettings(overrides: Partial<LoginDirectorySettings> = {}): LoginDirectorySettings {
  return {
    binddn: 'cn=svc',
    bindpass: 'pw',
    discoverdn: false,
    userdn: 'ou=people,dc=x',
    userattr: 'uid',
    userfilter: '',
    upndomain: '',
    groupdn: 'ou=groups,dc=x',
    groupfilter: '',
    groupattr: 'cn',
    use_token_groups: false,
    use_pre111_group_cn_behavior: false,
    anonymous_group_search: false,
    dereference_aliases: 'never',
    max_page_size: 0,
    ...overrides,
  };
}
