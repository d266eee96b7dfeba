/** The plan hook: create, update, no change, type change as a destructive replace, prune, the delete guard. */
import { describe, expect, test } from 'vitest';
import { Address } from '../../../src/core/address.js';
import type { JsonObject } from '../../../src/core/json.js';
import type { DesiredState, LiveResource, LiveState } from '../../../src/core/resource.js';
import { keyAttrs } from '../../../src/kinds/managed-key/attrs.js';
import { desiredManagedKeys } from '../../../src/kinds/managed-key/desired.js';
import { planManagedKeys } from '../../../src/kinds/managed-key/plan.js';
import type { KeyType } from '../../../src/kinds/managed-key/types.js';
import { orderChanges } from '../../../src/order/order.js';
import { AWS, ctx, GCP, keyDoc, keyDocs, PKCS11 } from './docs.js';

const FLAGS = { syncSecrets: false, allowUnreachablePrimary: false, force: false };

async function desired(texts: string[], prune = false): Promise<DesiredState> {
  return desiredManagedKeys(await keyDocs(texts), { ...ctx, prune });
}

function liveKey(type: KeyType, name: string, values: Record<string, unknown>, ns = ''): LiveResource {
  return { address: new Address('default', `${ns}sys/managed-keys/${type}/${name}`), resourceType: 'managed.key', attrs: keyAttrs(type, values) };
}

function live(resources: LiveResource[], users: JsonObject = {}, ns = ''): LiveState {
  const usersRecord: LiveResource = { address: new Address('default', `${ns}sys/mounts`), resourceType: 'managed.key-users', attrs: users };
  return { resources: [...resources, usersRecord], observed: {}, notes: [] };
}

const HSM_LIVE = { library: 'softhsm', key_label: 'signing', mechanism: '0x1041', pin: 'redacted', token_label: 'lockstep', usages: ['sign', 'verify'] };

describe('plan', () => {
  test('create, with the verify note; nothing destructive', async () => {
    const plan = planManagedKeys(await desired([keyDoc('hsm', 'pkcs11', PKCS11, ['verify: { hash_algorithm: sha2-384 }'])]), live([]), FLAGS);
    expect(plan.errors).toEqual([]);
    expect(plan.changes.map((c) => [c.action, String(c.address), c.destructive, c.reason])).toEqual([['create', 'default:sys/managed-keys/pkcs11/hsm', false, 'declared']]);
    expect(plan.changes[0]!.writeOnlyFields).toEqual(['pin']);
    expect(plan.changes[0]!.sensitiveFields).toEqual(['pin']);
    expect(plan.changes[0]!.notes).toEqual(['then test/sign (sha2-384): a key that cannot sign fails the apply']);
  });

  test('no change when the live key matches; an update names the fields that differ', async () => {
    const want = await desired([keyDoc('hsm', 'pkcs11', PKCS11)]);
    expect(planManagedKeys(want, live([liveKey('pkcs11', 'hsm', HSM_LIVE)]), FLAGS).changes).toEqual([]);
    const drifted = planManagedKeys(want, live([liveKey('pkcs11', 'hsm', { ...HSM_LIVE, key_label: 'other', max_parallel: 3 })]), FLAGS);
    expect(drifted.changes.map((c) => [c.action, c.changedFields, c.destructive])).toEqual([['update', ['key_label', 'max_parallel'], false]]);
    expect(planManagedKeys(want, live([liveKey('pkcs11', 'hsm', HSM_LIVE)]), FLAGS).notes.map((n) => n.message)).toEqual([
      'write-only pin compared only as set (the server reads it back only as "redacted"); apply --sync-secrets re-sends it',
    ]);
    const sync = planManagedKeys(want, live([liveKey('pkcs11', 'hsm', HSM_LIVE)]), { ...FLAGS, syncSecrets: true });
    expect(sync.changes.map((c) => [c.action, c.reason])).toEqual([['update', 'sync-secrets']]);
  });

  test('#14.3: a secret the manifest drops is cleared when the server holds it, shown as cleared; then no change', async () => {
    const withoutSecret = await desired([keyDoc('aws', 'provAkms', ['key_type: ECDSA', 'curve: P256', 'kms_key: alias/x'])]);
    const held = { ...liveKey('provAkms', 'aws', { key_type: 'ECDSA', curve: 'P256', kms_key: 'alias/x' }), writeOnlySet: ['secret_key'] };
    const plan = planManagedKeys(withoutSecret, live([held]), FLAGS);
    expect(plan.changes.map((c) => [c.action, c.changedFields, c.clearedFields])).toEqual([['update', ['secret_key'], ['secret_key']]]);
    // Cleared on the server: nothing left to do.
    expect(planManagedKeys(withoutSecret, live([{ ...held, writeOnlySet: [] }]), FLAGS).changes).toEqual([]);
    // A secret the manifest sets that the server lacks is written too.
    const withSecret = await desired([keyDoc('hsm', 'pkcs11', PKCS11)]);
    const lacking = { ...liveKey('pkcs11', 'hsm', HSM_LIVE), writeOnlySet: [] };
    expect(planManagedKeys(withSecret, live([lacking]), FLAGS).changes.map((c) => [c.changedFields, c.clearedFields])).toEqual([[['pin'], []]]);
  });

  test('a type change is a destructive replace: delete at the old type, then create at the new one', async () => {
    const plan = planManagedKeys(await desired([keyDoc('hsm', 'provAkms', AWS)]), live([liveKey('pkcs11', 'hsm', HSM_LIVE)]), FLAGS);
    expect(plan.errors).toEqual([]);
    expect(plan.unmanaged).toEqual([]);
    const ordered = orderChanges(plan.changes);
    expect(ordered.map((c) => [c.action, String(c.address), c.reason, c.destructive, c.dependsOn.map(String)])).toEqual([
      ['delete', 'default:sys/managed-keys/pkcs11/hsm', 'replace', true, []],
      ['create', 'default:sys/managed-keys/provAkms/hsm', 'replace', true, ['default:sys/managed-keys/pkcs11/hsm']],
    ]);
    expect(ordered[0]!.notes[0]).toBe('type changes to provAkms: the key is deleted, then created as default:sys/managed-keys/provAkms/hsm');
  });

  test('a replace with --prune is still one replace', async () => {
    const plan = planManagedKeys(await desired([keyDoc('hsm', 'provAkms', AWS)], true), live([liveKey('pkcs11', 'hsm', HSM_LIVE)]), FLAGS);
    expect(plan.changes.map((c) => [c.action, c.reason])).toEqual([['create', 'replace'], ['delete', 'replace']]);
  });

  test('keys no manifest lists are unmanaged, or destructive deletes with --prune', async () => {
    const extra = liveKey('provCckms', 'old', { crypto_key: 'k', key_ring: 'r', project: 'p', region: 'r', algorithm: 'EC_SIGN_P256_SHA256' });
    const kept = planManagedKeys(await desired([keyDoc('hsm', 'pkcs11', PKCS11)]), live([liveKey('pkcs11', 'hsm', HSM_LIVE), extra]), FLAGS);
    expect(kept.changes).toEqual([]);
    expect(kept.unmanaged.map((u) => String(u.address))).toEqual(['default:sys/managed-keys/provCckms/old']);
    const pruned = planManagedKeys(await desired([keyDoc('hsm', 'pkcs11', PKCS11)], true), live([liveKey('pkcs11', 'hsm', HSM_LIVE), extra]), FLAGS);
    expect(pruned.changes.map((c) => [c.action, String(c.address), c.reason, c.destructive])).toEqual([['delete', 'default:sys/managed-keys/provCckms/old', 'prune', true]]);
  });

  test('a delete of a key that a mount lists is refused at plan time, naming the mounts', async () => {
    const extra = liveKey('pkcs11', 'old', HSM_LIVE);
    const users = { 'transit/': ['old', 'other'], 'auth/ldap/': ['old'], 'pki/': ['other'] };
    const pruned = planManagedKeys(await desired([keyDoc('hsm', 'pkcs11', PKCS11)], true), live([extra], users), FLAGS);
    expect(pruned.errors.map((e) => e.message)).toEqual([
      'default:sys/managed-keys/pkcs11/old: cannot delete managed key "old" (prune): it is listed in allowed_managed_keys of mounts transit/, auth/ldap/; remove it there first',
    ]);
    const replaced = planManagedKeys(await desired([keyDoc('old', 'provCckms', GCP)]), live([extra], { 'transit/': ['old'] }), FLAGS);
    expect(replaced.errors.map((e) => e.message)).toEqual([
      'default:sys/managed-keys/pkcs11/old: cannot delete managed key "old" (replace): it is listed in allowed_managed_keys of mount transit/; remove it there first',
    ]);
    expect(pruned.errors.map((e) => String(e.address))).toEqual(['default:sys/managed-keys/pkcs11/old']);
    // Without --prune nothing is deleted, so nothing is refused.
    expect(planManagedKeys(await desired([keyDoc('hsm', 'pkcs11', PKCS11)]), live([extra], users), FLAGS).errors).toEqual([]);
  });

  test('the guard looks at the mounts of the key\'s own namespace', async () => {
    const extra = liveKey('pkcs11', 'old', HSM_LIVE, 'team-a/');
    const rootUsers: LiveResource = { address: new Address('default', 'sys/mounts'), resourceType: 'managed.key-users', attrs: { 'transit/': ['old'] } };
    const state = live([extra], {}, 'team-a/');
    const plan = planManagedKeys(await desired([keyDoc('hsm', 'pkcs11', PKCS11, ['namespace: team-a'])], true), { ...state, resources: [...state.resources, rootUsers] }, FLAGS);
    expect(plan.errors).toEqual([]);
    expect(plan.changes.map((c) => String(c.address))).toEqual(['default:team-a/sys/managed-keys/pkcs11/hsm', 'default:team-a/sys/managed-keys/pkcs11/old']);
  });

  test('keys whose credentials come from the server environment get an info note', async () => {
    const plan = planManagedKeys(
      await desired([keyDoc('aws', 'provAkms', ['key_type: ECDSA', 'curve: P256', 'kms_key: alias/x']), keyDoc('az', 'provBkeyvault', ['tenant_id: t', 'vault_name: v', 'key_name: k', 'key_type: RSA-HSM']), keyDoc('aws2', 'provAkms', AWS)]),
      live([]),
      FLAGS,
    );
    expect(plan.notes.map((n) => [n.severity, String(n.address), n.message])).toEqual([
      ['info', 'default:sys/managed-keys/provAkms/aws', 'access_key and secret_key are not set: the server takes its credentials from its environment (PROVA_ACCESS_KEY_ID, PROVA_SECRET_ACCESS_KEY) or profile'],
      ['info', 'default:sys/managed-keys/provBkeyvault/az', 'client_id and client_secret are not set: the server authenticates with its managed identity'],
    ]);
  });
});
