import { describe, expect, it } from 'vitest';
import { ldapFieldsLackedBy } from '../../src/kinds/ldap-auth/schema-fields.js';
import { releaseHas, releaseOfHealth, type ServerRelease } from '../../src/kinds/server-release.js';

const release = (health: Record<string, unknown>): ServerRelease => releaseOfHealth(health)!;

describe('the release a server reports in sys/health', () => {
  it('tells Vault (the enterprise member, since 1.16: hashicorp/vault#24270) from OpenBao (forked before it, numbered from 2.0.0)', () => {
    expect(release({ version: '1.21.0+ent', enterprise: true })).toMatchObject({ product: 'vault', version: [1, 21, 0], enterprise: true });
    expect(release({ version: '1.21.0', enterprise: false })).toMatchObject({ product: 'vault', enterprise: false });
    expect(release({ version: '1.15.6+ent' })).toMatchObject({ product: 'vault', enterprise: true });
    expect(release({ version: '1.12.3' })).toMatchObject({ product: 'vault', enterprise: false });
    expect(release({ version: '2.6.2' })).toMatchObject({ product: 'openbao', version: [2, 6, 2], enterprise: false });
    expect(release({ version: '2.0.0', enterprise: false })).toMatchObject({ product: 'vault' });
    expect(releaseOfHealth({ version: 'dev' })).toBeUndefined();
    expect(releaseOfHealth({})).toBeUndefined();
  });

  it('has a backported field from the first patch release of each minor line that got it (max_page_size: 1.11.10, 1.12.6, 1.13.2)', () => {
    const since = { vault: ['1.11.10', '1.12.6', '1.13.2'], openbao: true };
    const has = (v: string): boolean => releaseHas(release({ version: v, enterprise: false }), since);
    expect(['1.10.15', '1.11.9', '1.12.5', '1.13.1'].filter(has)).toEqual([]);
    expect(['1.11.10', '1.12.6', '1.13.2', '1.14.0', '1.21.3', '2.0.0'].every(has)).toBe(true);
    expect(releaseHas(release({ version: '2.6.2' }), since)).toBe(true);
    expect(releaseHas(release({ version: '2.6.2' }), { vault: ['1.19.0'], openbao: false })).toBe(false);
  });
});

describe('the LDAP config fields a release lacks', () => {
  const lacked = (health: Record<string, unknown>): string[] => [...ldapFieldsLackedBy(releaseOfHealth(health))].sort();
  const ROTATION = ['disable_automated_rotation', 'password_policy', 'rotation_credential_type', 'rotation_period', 'rotation_schedule', 'rotation_schema', 'rotation_url', 'rotation_window'];

  it('none on the emulated release, Vault Enterprise 1.21, or on a server that names no release', () => {
    expect(lacked({ version: '1.21.0+ent', enterprise: true })).toEqual([]);
    expect([...ldapFieldsLackedBy(undefined)]).toEqual([]);
  });

  it('OpenBao: the fields Vault added after the fork (token_strictly_bind_ip, its own, is not managed at all)', () => {
    expect(lacked({ version: '2.6.2' })).toEqual(['alias_metadata', 'enable_samaccountname_login', ...ROTATION].sort());
  });

  it('Vault Community 1.21: the Enterprise alias_metadata; 1.20: the 1.21 rotation fields too; 1.13.1: everything from 1.14 on and max_page_size', () => {
    expect(lacked({ version: '1.21.0', enterprise: false })).toEqual(['alias_metadata']);
    expect(lacked({ version: '1.20.4+ent', enterprise: true })).toEqual(['alias_metadata', 'rotation_credential_type', 'rotation_schema', 'rotation_url']);
    expect(lacked({ version: '1.13.1' })).toEqual(
      ['alias_metadata', 'connection_timeout', 'dereference_aliases', 'enable_samaccountname_login', 'max_page_size', ...ROTATION].sort(),
    );
  });
});
