/**
 * Natural manifests show no change against the server's read-back: the desired attrs equal the
 * normalised answer of the embedded server's own write and read functions for the request body
 * lockstep sends.
 */
import { describe, expect, test } from 'vitest';
import type { JsonObject } from '../../../src/core/json.js';
import { revealDeep } from '../../../src/core/secret.js';
import { keyAttrs } from '../../../src/kinds/managed-key/attrs.js';
import { desiredManagedKeys, type DesiredManagedKey } from '../../../src/kinds/managed-key/desired.js';
import { requestBody } from '../../../src/kinds/managed-key/write.js';
import { managedKeyView } from '../../../src/server/managed-keys/view.js';
import { applyKeyWrite } from '../../../src/server/managed-keys/write.js';
import { AWS, AZURE, ctx, GCP, keyDoc, keyDocs, PKCS11 } from './docs.js';

const SERVER = { kmsLibraries: ['softhsm'], env: {} };

async function desiredOf(text: string): Promise<DesiredManagedKey> {
  return desiredManagedKeys(await keyDocs([text]), ctx).resources[0] as DesiredManagedKey;
}

/** What the server stores and reads back for lockstep's write over `existing`. */
function serverReadBack(desired: DesiredManagedKey, existing: JsonObject = {}): JsonObject {
  const write = applyKeyWrite(desired.keyType, desired.name, existing, revealDeep(requestBody(desired)) as JsonObject, SERVER);
  expect(write.problems).toEqual([]);
  expect(write.ignored).toEqual([]);
  // The emulator's JSON (numbers of a request body are JsonNumbers) holds none here: each field is converted.
  return managedKeyView({ name: desired.name, type: desired.keyType, uuid: 'u', config: write.config }) as JsonObject;
}

const NATURAL: Array<[string, string]> = [
  ['pkcs11', keyDoc('hsm', 'pkcs11', [...PKCS11, 'mechanism: "0x00001041"', 'allow_generate_key: "true"', 'curve: p-256', 'usages: "Verify, sign,sign"', 'max_parallel: "4"', 'force_rw_session: True'].filter((l, i) => i !== 2))],
  ['pkcs11 by slot and id', keyDoc('hsm', 'pkcs11', ['library: softhsm', 'key_id: "0a0b"', 'mechanism: "0x0001"', 'pin: ${env:PIN}', 'slot: 0012', 'key_bits: "2048"', 'allow_generate_key: "1"'])],
  ['provAkms', keyDoc('aws', 'provAkms', [...AWS.filter((l) => !l.startsWith('key_type')), 'key_type: ecdsa', 'any_mount: "true"'])],
  ['provAkms from the environment', keyDoc('aws', 'provAkms', ['key_type: RSA', 'key_bits: 3072', 'kms_key: arn:aws:kms:eu-west-1:1:key/abc', 'region: eu-west-1'])],
  ['provBkeyvault', keyDoc('az', 'provBkeyvault', [...AZURE, 'key_bits: 4096', 'allow_generate_key: true', 'environment: provbchinacloud', 'resource: vault.azure.cn'])],
  ['provBkeyvault managed identity', keyDoc('az', 'provBkeyvault', AZURE.filter((l) => !l.startsWith('client')))],
  ['provCckms', keyDoc('gcp', 'provCckms', [...GCP, 'crypto_key_version: 3', 'usages: [sign]'])],
  ['provCckms path on the server', keyDoc('gcp', 'provCckms', [...GCP.filter((l) => !l.startsWith('credentials')), 'credentials: /etc/provc/sa.json', 'algorithm: rsa_sign_pss_2048_sha256'].filter((l) => !l.startsWith('algorithm: EC')))],
];

describe('natural manifests against the server read-back', () => {
  test.each(NATURAL)('%s: no change after a create', async (_, text) => {
    const desired = await desiredOf(text);
    expect(keyAttrs(desired.keyType, serverReadBack(desired))).toEqual(desired.attrs);
  });

  test('an update over a key with other values set converges (fields left out are cleared)', async () => {
    const desired = await desiredOf(keyDoc('hsm', 'pkcs11', PKCS11));
    const existing = { library: 'softhsm', key_label: 'old', key_id: '01', mechanism: '0x1', pin: 'p', slot: '3', curve: 'P384', key_bits: 2048, max_parallel: 9, any_mount: true, usages: ['encrypt'] };
    expect(keyAttrs('pkcs11', serverReadBack(desired, existing))).toEqual(desired.attrs);
  });

  test('secret fields are write-only: "redacted" and absence both compare equal', async () => {
    const desired = await desiredOf(keyDoc('aws', 'provAkms', AWS));
    const view = serverReadBack(desired);
    expect(view['secret_key']).toBe('redacted');
    expect(desired.attrs).not.toHaveProperty('secret_key');
    expect(Object.keys(desired.writeOnly)).toEqual(['secret_key']);
    expect(desired.sensitiveFields).toEqual(['secret_key']);
  });
});

describe('desired keys', () => {
  test('attrs hold every field of the type with its default, in comparable form', async () => {
    const desired = await desiredOf(keyDoc('hsm', 'pkcs11', PKCS11));
    expect(desired.address.toString()).toBe('default:sys/managed-keys/pkcs11/hsm');
    expect(desired.attrs).toEqual({
      allow_generate_key: false, allow_replace_key: false, allow_store_key: false, any_mount: false, usages: ['sign', 'verify'],
      library: 'softhsm', key_label: 'signing', key_id: '', mechanism: '0x1041', slot: '', token_label: 'lockstep', curve: '', key_bits: 0,
      force_rw_session: false, max_parallel: 1,
    });
    expect(desired.given.sort()).toEqual(['key_label', 'library', 'mechanism', 'token_label']);
  });

  test('namespace first in the address; collections per type for each cluster + namespace', async () => {
    const state = desiredManagedKeys(await keyDocs([keyDoc('k', 'provCckms', GCP, ['namespace: team-a/eng'])]), { ...ctx, prune: true });
    expect(state.resources[0]!.address.toString()).toBe('default:team-a/eng/sys/managed-keys/provCckms/k');
    expect(state.collections.map((c) => [c.address.toString(), c.prune])).toEqual([
      ['default:team-a/eng/sys/managed-keys/pkcs11', true],
      ['default:team-a/eng/sys/managed-keys/provAkms', true],
      ['default:team-a/eng/sys/managed-keys/provBkeyvault', true],
      ['default:team-a/eng/sys/managed-keys/provCckms', true],
    ]);
  });

  test('verify becomes the test/sign request', async () => {
    expect((await desiredOf(keyDoc('k', 'pkcs11', PKCS11, ['verify: true']))).verify).toEqual({});
    expect((await desiredOf(keyDoc('k', 'pkcs11', PKCS11, ['verify: false']))).verify).toBeUndefined();
    expect((await desiredOf(keyDoc('k', 'pkcs11', PKCS11))).verify).toBeUndefined();
    expect((await desiredOf(keyDoc('k', 'pkcs11', PKCS11, ['verify: { hash_algorithm: sha2-512, use_pss: "true" }']))).verify).toEqual({ hash_algorithm: 'sha2-512', use_pss: true });
  });

  test('a literal credentials path is write-only but not a Secret; a reference is a Secret', async () => {
    const path = await desiredOf(keyDoc('gcp', 'provCckms', [...GCP.filter((l) => !l.startsWith('credentials')), 'credentials: /etc/sa.json']));
    expect(path.writeOnly['credentials']).toBe('/etc/sa.json');
    const ref = await desiredOf(keyDoc('gcp', 'provCckms', GCP));
    expect(String(ref.writeOnly['credentials'])).toBe('(sensitive)');
    expect(ref.sensitiveFields).toEqual(['credentials']);
  });
});

describe('the request body', () => {
  test('fields the manifest sets in the spec forms; the others and absent secrets empty', async () => {
    const desired = await desiredOf(keyDoc('aws', 'provAkms', ['key_type: ecdsa', 'curve: p-384', 'kms_key: alias/x', 'allow_generate_key: true', 'usages: sign,verify']));
    expect(requestBody(desired)).toEqual({
      allow_generate_key: 'true', allow_replace_key: '', allow_store_key: '', any_mount: '', usages: 'sign,verify',
      access_key: '', secret_key: '', curve: 'P384', endpoint: '', key_bits: '', key_type: 'ECDSA', kms_key: 'alias/x', region: '',
    });
  });
});

describe('#14.3: the service reads pkcs11 mechanism and slot back as numbers', () => {
  test('a live read with numbers compares equal to the manifest text', () => {
    const manifest = keyAttrs('pkcs11', { library: 'softhsm', mechanism: '0x1041', slot: '2305843009213693', token_label: '' });
    const live = keyAttrs('pkcs11', { library: 'softhsm', mechanism: 4161, slot: 2305843009213693, pin: 'redacted' });
    expect(live).toEqual(manifest);
    expect(live).toMatchObject({ mechanism: '0x1041', slot: '2305843009213693' });
  });
});
