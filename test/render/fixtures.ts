import { Address } from '../../src/core/address.js';
import { PLAN_FORMAT_VERSION, type Plan } from '../../src/core/plan.js';
import { change, east } from '../core/builders.js';

const west = (path: string): Address => new Address('west', path);

const OLD_PEM = [
  '-----BEGIN CERTIFICATE-----',
  'MIIBszCCAVmgAwIBAgIUQk1hZ2ljT2xkQ2VydGlmaWNhdGUwCgYIKoZIzj0EAwIw',
  'EjEQMA4GA1UEAwwHb2xkLWNhMB4XDTI0MDEwMTAwMDAwMFoXDTI1MDEwMTAwMDAw',
  'MFowEjEQMA4GA1UEAwwHb2xkLWNhMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE',
  'c2FtZS1saW5lLWluLWJvdGgtY2VydGlmaWNhdGVzLWtlcHQtYXMtY29udGV4dA==',
  'c2FtZS1saW5lLTI=',
  'c2FtZS1saW5lLTM=',
  'c2FtZS1saW5lLTQ=',
  'c2FtZS1saW5lLTU=',
  'c2FtZS1saW5lLTY=',
  'b2xkLXRhaWw=',
  '-----END CERTIFICATE-----',
  '',
].join('\n');
const NEW_PEM = OLD_PEM.replace('Qk1hZ2ljT2xkQ2VydGlmaWNhdGU', 'TmV3Q2VydGlmaWNhdGVGb3JMZGFw').replace('b2xkLXRhaWw=', 'bmV3LXRhaWw=');

/** One plan with every kind of entry the renderers know. */
export function fullPlan(): Plan {
  return {
    formatVersion: PLAN_FORMAT_VERSION,
    changes: [
      change({
        address: east('auth/ldap'),
        resourceType: 'auth.mount',
        action: 'create',
        after: { type: 'ldap', description: '' },
        changedFields: ['description', 'type'],
      }),
      change({
        address: east('auth/ldap/config'),
        resourceType: 'ldap.config',
        action: 'update',
        before: { url: 'ldap://a.example.com', token_ttl: 0, certificate: OLD_PEM, binddn: 'cn=svc' },
        after: { url: 'ldaps://b.example.com', token_ttl: 3600, certificate: NEW_PEM, binddn: 'cn=svc' },
        changedFields: ['certificate', 'token_ttl', 'url'],
        writeOnlyFields: ['bindpass', 'client_tls_cert'],
        sensitiveFields: ['bindpass'],
        dependsOn: [east('auth/ldap')],
        notes: ['write-only fields are sent with every write of this object'],
      }),
      change({
        address: east('auth/ldap/groups/admins'),
        resourceType: 'ldap.group',
        action: 'create',
        after: { policies: ['admin', 'default'] },
        changedFields: ['policies'],
        dependsOn: [east('auth/ldap')],
      }),
      change({
        address: east('auth/ldap/users/bob'),
        resourceType: 'ldap.user',
        action: 'delete',
        reason: 'prune',
        before: { groups: '', policies: ['dev'] },
        changedFields: ['groups', 'policies'],
      }),
      change({
        address: east('team-a/sys/managed-keys/pkcs11/hsm-signing'),
        resourceType: 'managed-key.pkcs11',
        action: 'create',
        after: { library: 'softhsm', pin: '(sensitive)', slot: '0', key_label: 'signing' },
        changedFields: ['key_label', 'library', 'pin', 'slot'],
        sensitiveFields: ['pin'],
      }),
      change({
        address: east('team-a/sys/managed-keys/pkcs11/old-key'),
        resourceType: 'managed-key.pkcs11',
        action: 'delete',
        before: { library: 'softhsm', pin: '(sensitive)' },
        changedFields: ['library', 'pin'],
        sensitiveFields: ['pin'],
        destructive: true,
        notes: ['data encrypted with this key can no longer be decrypted'],
      }),
      change({
        address: east('sys/replication/dr/primary/demote'),
        resourceType: 'dr.step',
        action: 'transition',
        reason: 'step',
        before: { mode: 'primary' },
        after: { mode: 'secondary' },
        changedFields: ['mode'],
      }),
      change({
        address: west('sys/replication/dr/secondary/promote'),
        resourceType: 'dr.step',
        action: 'transition',
        reason: 'step',
        before: { mode: 'secondary', state: 'stream-wals' },
        after: { mode: 'primary', state: 'running' },
        destructive: true,
        dependsOn: [east('sys/replication/dr/primary/demote')],
        notes: ['west becomes the DR primary'],
      }),
    ],
    unmanaged: [
      { address: east('auth/ldap/groups/ops'), resourceType: 'ldap.group' },
      { address: east('auth/ldap/users/carol'), resourceType: 'ldap.user' },
    ],
    notes: [
      { severity: 'warning', message: 'a DR operation token will be generated from the key shares', address: west('sys/replication/dr') },
      { severity: 'info', message: 'bindpass cannot be compared with the server; use apply --sync-secrets to re-send it' },
    ],
  };
}

export function emptyPlan(): Plan {
  return { formatVersion: PLAN_FORMAT_VERSION, changes: [], unmanaged: [], notes: [] };
}
