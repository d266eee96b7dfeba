/**
 * The sys/managed-keys API without touching a backend: read-back shapes, create/update/delete,
 * validation 400s, name uniqueness across types, the delete guard, secrets read back as
 * "redacted" and never echoed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoCanaries, startKeyServer, type KeyClient, type KeyServer } from './helpers.js';

const PIN = 'api-pin-canary-61c0';
const SECRET_KEY = 'api-secret-key-canary-2b7e';
const CLIENT_SECRET = 'api-client-secret-canary-88af';
const CREDENTIALS = '/etc/api-credentials-canary-4d19.json';

let s: KeyServer;
let api: KeyClient;

beforeAll(async () => {
  s = await startKeyServer({ kmsLibraries: { softhsm: '/usr/lib/softhsm/libsofthsm2.so', other: '/opt/hsm/lib.so' } });
  api = s.client();
});
afterAll(() => s?.close());

const pkcs11 = (over: Record<string, unknown> = {}) => ({ library: 'softhsm', token_label: 'tok', pin: PIN, key_label: 'label', mechanism: '0x1041', ...over });

describe('read-back shapes', () => {
  it('pkcs11: every field, with defaults; booleans and integers typed; pin "redacted"', async () => {
    await api.putKey('pkcs11', 'hsm-a', pkcs11());
    const res = await api.get('sys/managed-keys/pkcs11/hsm-a');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      name: 'hsm-a',
      type: 'pkcs11',
      UUID: expect.stringMatching(/^[0-9a-f-]{36}$/),
      allow_generate_key: false,
      allow_replace_key: false,
      allow_store_key: false,
      any_mount: false,
      usages: ['sign', 'verify'],
      library: 'softhsm',
      key_label: 'label',
      key_id: '',
      mechanism: 4161, // #14: a number, as the service reads it (api-docs/system/managed-keys.mdx)
      pin: 'redacted',
      slot: '',
      token_label: 'tok',
      curve: '',
      key_bits: 0,
      force_rw_session: false,
      max_parallel: 1,
    });
  });

  it('"boolean as text" reads back as booleans, usages as a sorted list, numbers from text', async () => {
    await api.putKey('pkcs11', 'hsm-b', pkcs11({
      allow_generate_key: 'true',
      allow_replace_key: true,
      allow_store_key: 'false',
      any_mount: 't',
      force_rw_session: 'True',
      usages: ' verify, sign ,SIGN',
      curve: 'P256',
      slot: 3,
      key_bits: '2048',
      max_parallel: '4',
    }));
    const data = (await api.get('sys/managed-keys/pkcs11/hsm-b')).body.data;
    expect(data).toMatchObject({
      allow_generate_key: true,
      allow_replace_key: true,
      allow_store_key: false,
      any_mount: true,
      force_rw_session: true,
      usages: ['sign', 'verify'],
      slot: 3, // #14: a number, as the service reads it
      key_bits: 2048,
      max_parallel: 4,
    });
    await api.putKey('pkcs11', 'hsm-b', { usages: ['wrap', 'sign', 'decrypt'] });
    expect((await api.get('sys/managed-keys/pkcs11/hsm-b')).body.data.usages).toEqual(['decrypt', 'sign', 'wrap']);
  });

  it('provAkms, provBkeyvault and provCckms: their fields, secrets "redacted" only when set', async () => {
    await api.putKey('provAkms', 'aws-a', { key_type: 'ECDSA', curve: 'P384', kms_key: 'alias/x', access_key: 'AKIAID', secret_key: SECRET_KEY });
    await api.putKey('provAkms', 'aws-b', { key_type: 'RSA', key_bits: 4096, kms_key: 'arn:aws:kms:us-east-1:1:key/abc', region: 'eu-west-1' });
    await api.putKey('provBkeyvault', 'az-a', { tenant_id: 't', client_id: 'c', client_secret: CLIENT_SECRET, vault_name: 'v', key_name: 'k', key_type: 'RSA-HSM' });
    await api.putKey('provCckms', 'gc-a', { credentials: CREDENTIALS, crypto_key: 'k', key_ring: 'r', project: 'p', region: 'r1', algorithm: 'RSA_SIGN_PKCS1_4096_SHA512' });
    const aws = (await api.get('sys/managed-keys/provAkms/aws-a')).body.data;
    expect(aws).toMatchObject({ access_key: 'AKIAID', secret_key: 'redacted', curve: 'P384', key_bits: '', region: 'us-east-1', endpoint: '' });
    const awsNoSecret = (await api.get('sys/managed-keys/provAkms/aws-b')).body.data;
    expect(awsNoSecret).not.toHaveProperty('secret_key');
    expect(awsNoSecret).toMatchObject({ access_key: '', key_bits: '4096', region: 'eu-west-1' });
    expect((await api.get('sys/managed-keys/provBkeyvault/az-a')).body.data).toEqual({
      name: 'az-a',
      type: 'provBkeyvault',
      UUID: expect.any(String),
      allow_generate_key: false,
      allow_replace_key: false,
      allow_store_key: false,
      any_mount: false,
      usages: ['sign', 'verify'],
      tenant_id: 't',
      client_id: 'c',
      client_secret: 'redacted',
      environment: 'PROVBPUBLICCLOUD',
      vault_name: 'v',
      key_name: 'k',
      resource: 'vault.azure.net',
      key_bits: '',
      key_type: 'RSA-HSM',
    });
    expect((await api.get('sys/managed-keys/provCckms/gc-a')).body.data).toEqual({
      name: 'gc-a',
      type: 'provCckms',
      UUID: expect.any(String),
      allow_generate_key: false,
      allow_replace_key: false,
      allow_store_key: false,
      any_mount: false,
      usages: ['sign', 'verify'],
      credentials: 'redacted',
      crypto_key: 'k',
      crypto_key_version: '1',
      key_ring: 'r',
      project: 'p',
      region: 'r1',
      algorithm: 'RSA_SIGN_PKCS1_4096_SHA512',
    });
  });

  it('the answer is the service envelope; members come out sorted', async () => {
    const res = await api.get('sys/managed-keys/provCckms/gc-a');
    expect(res.body).toMatchObject({ lease_id: '', renewable: false, lease_duration: 0, wrap_info: null, auth: null });
    const keys = Object.keys(res.body.data);
    expect(keys).toEqual([...keys].sort());
  });
});

describe('create, update, list, delete', () => {
  it('LIST per type, sorted; 404 when a type has none', async () => {
    await api.putKey('provBkeyvault', 'az-0', { tenant_id: 't', vault_name: 'v', key_name: 'k', key_type: 'rsa-hsm' });
    expect((await api.list('sys/managed-keys/provBkeyvault')).body.data).toEqual({ keys: ['az-0', 'az-a'] });
    expect((await api.call('LIST', 'sys/managed-keys/provAkms')).body.data.keys).toEqual(['aws-a', 'aws-b']);
    const none = s.client('empty-ns');
    expect((await none.list('sys/managed-keys/pkcs11')).status).toBe(404);
  });

  it('an update changes the fields given and keeps the others (pin and UUID included)', async () => {
    const before = (await api.get('sys/managed-keys/pkcs11/hsm-a')).body.data;
    await api.putKey('pkcs11', 'hsm-a', { max_parallel: 2, key_id: '0x01' });
    const after = (await api.get('sys/managed-keys/pkcs11/hsm-a')).body.data;
    expect(after).toEqual({ ...before, max_parallel: 2, key_id: '0x01' });
  });

  it('null or "" unsets a field (its default reads back); the rules still hold', async () => {
    await api.putKey('pkcs11', 'hsm-a', { key_label: '', max_parallel: null });
    const data = (await api.get('sys/managed-keys/pkcs11/hsm-a')).body.data;
    expect(data).toMatchObject({ key_label: '', key_id: '0x01', max_parallel: 1 });
    const res = await api.post('sys/managed-keys/pkcs11/hsm-a', { key_id: '' });
    expect(res).toEqual({ status: 400, body: { errors: ['key_label or key_id is required'] } });
  });

  it('unknown members are ignored; the framework warns of them only on a response, and a key write gives none (sdk/framework/backend.go HandleRequest)', async () => {
    const res = await api.post('sys/managed-keys/pkcs11/hsm-a', { endpoint: 'http://x', zzz: 1 });
    expect(res).toEqual({ status: 204, body: undefined });
    expect((await api.get('sys/managed-keys/pkcs11/hsm-a')).body.data).not.toHaveProperty('endpoint');
  });

  it('DELETE removes the key; deleting an absent key is fine', async () => {
    await api.putKey('pkcs11', 'doomed', pkcs11());
    expect((await api.delete('sys/managed-keys/pkcs11/doomed')).status).toBe(204);
    expect((await api.get('sys/managed-keys/pkcs11/doomed')).status).toBe(404);
    expect((await api.delete('sys/managed-keys/pkcs11/doomed')).status).toBe(204);
  });
});

describe('names', () => {
  it('are unique across all types in the namespace', async () => {
    const res = await api.post('sys/managed-keys/provAkms/hsm-a', { key_type: 'RSA', key_bits: '2048', kms_key: 'alias/a' });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual(['a managed key named "hsm-a" already exists with type pkcs11; names are unique across all types in the namespace']);
    // The key is found only under its own type.
    expect((await api.get('sys/managed-keys/provAkms/hsm-a')).status).toBe(404);
    expect((await api.testSign('provAkms', 'hsm-a')).status).toBe(404);
    expect((await api.delete('sys/managed-keys/provAkms/hsm-a')).status).toBe(204);
    expect((await api.get('sys/managed-keys/pkcs11/hsm-a')).status).toBe(200);
  });

  it('are lower-case', async () => {
    const res = await api.post('sys/managed-keys/pkcs11/HSM-Upper', pkcs11());
    expect(res).toEqual({ status: 400, body: { errors: ['name "HSM-Upper" must be lower-case'] } });
  });

  it('name and type in the body must agree with the path', async () => {
    const res = await api.post('sys/managed-keys/pkcs11/hsm-c', pkcs11({ name: 'other', type: 'provAkms' }));
    expect(res.body.errors).toEqual([
      'name "other" in the body differs from the path\'s "hsm-c"',
      'type "provAkms" in the body differs from the path\'s "pkcs11"',
    ]);
    await api.putKey('pkcs11', 'hsm-c', pkcs11({ name: 'hsm-c', type: 'pkcs11' }));
  });

  it('an unknown type is a 400 for every operation', async () => {
    for (const res of [await api.list('sys/managed-keys/awskms'), await api.get('sys/managed-keys/awskms/x'), await api.post('sys/managed-keys/awskms/x', {})]) {
      expect(res.status).toBe(400);
      expect(res.body.errors[0]).toMatch(/^unsupported managed key type "awskms"/);
    }
  });
});

describe('validation: every problem at once', () => {
  const problems = async (type: string, body: Record<string, unknown>) => {
    const res = await api.post(`sys/managed-keys/${type}/invalid`, body);
    expect(res.status).toBe(400);
    expect((await api.get(`sys/managed-keys/${type}/invalid`)).status).toBe(404);
    return res.body.errors as string[];
  };

  it('pkcs11: required fields', async () => {
    expect(await problems('pkcs11', {})).toEqual([
      'library is required',
      'mechanism is required',
      'pin is required',
      'key_label or key_id is required',
      'slot or token_label is required',
    ]);
  });

  it('pkcs11: values', async () => {
    expect(await problems('pkcs11', pkcs11({ library: 'nope', mechanism: '4161', slot: '0x1', curve: 'P999', key_bits: 1024, max_parallel: 0 }))).toEqual([
      'library "nope" is not a kms_library stanza of the server; the server has: softhsm, other',
      'mechanism "4161" must be a hexadecimal string prefixed by 0x (e.g. 0x1041)',
      'slot "0x1" must be a decimal number',
      'curve "P999" must be one of P256, P384, P521',
      'key_bits must be one of 2048, 3072, 4096',
      'max_parallel must be at least 1',
    ]);
  });

  it('pkcs11: generation needs the curve (EC) or key_bits (RSA) of the mechanism', async () => {
    expect(await problems('pkcs11', pkcs11({ allow_generate_key: true }))).toEqual(['curve is required when allow_generate_key is true (EC mechanism)']);
    expect(await problems('pkcs11', pkcs11({ allow_generate_key: true, mechanism: '0x0001' }))).toEqual(['key_bits is required when allow_generate_key is true (RSA mechanism)']);
    expect(await problems('pkcs11', pkcs11({ allow_generate_key: true, mechanism: '0x80000001' }))).toEqual(['curve or key_bits is required when allow_generate_key is true']);
  });

  it('conversion errors never echo a secret, and a bad secret is not also reported missing', async () => {
    expect(await problems('pkcs11', pkcs11({ pin: 424242, allow_store_key: 'yes', usages: 'sign,bogus' }))).toEqual([
      'pin must be a string',
      'Field validation failed: error converting input yes for field "allow_store_key": cannot parse \'\' as bool: strconv.ParseBool: parsing "yes": invalid syntax',
      'usages: "bogus" not allowed; allowed values: encrypt, decrypt, sign, verify, wrap, unwrap, mac, random',
    ]);
  });

  it('provAkms', async () => {
    expect(await problems('provAkms', {})).toEqual(['key_type is required', 'kms_key is required']);
    expect(await problems('provAkms', { key_type: 'DSA', kms_key: 'k' })).toEqual(['key_type must be RSA or ECDSA']);
    expect(await problems('provAkms', { key_type: 'rsa', kms_key: 'k' })).toEqual(['key_bits is required when key_type is RSA']);
    expect(await problems('provAkms', { key_type: 'Ecdsa', curve: 'P-256', kms_key: 'key-id', allow_generate_key: true, access_key: 'A', endpoint: 'ftp://h' })).toEqual([
      'curve "P-256" must be one of P256, P384, P521',
      'kms_key must be an alias (alias/NAME) when allow_generate_key is true',
      'access_key and secret_key must be given together',
      'endpoint "ftp://h" must be an http or https URL',
    ]);
    expect(await problems('provAkms', { key_type: 'ECDSA', kms_key: 'k', key_bits: '1024' })).toEqual([
      'key_bits must be one of 2048, 3072, 4096',
      'curve is required when key_type is ECDSA',
    ]);
  });

  it('provBkeyvault', async () => {
    expect(await problems('provBkeyvault', {})).toEqual(['tenant_id is required', 'vault_name is required', 'key_name is required', 'key_type is required']);
    expect(await problems('provBkeyvault', { tenant_id: 't', vault_name: 'my vault', key_name: 'k', key_type: 'RSA', client_id: 'c', environment: 'MARS', allow_generate_key: true })).toEqual([
      'key_type must be RSA-HSM (the only supported value)',
      'client_id and client_secret must be given together (or both left out for a managed identity)',
      'vault_name "my vault" may only contain letters, digits and hyphens',
      'environment must be one of PROVBPUBLICCLOUD, PROVBCHINACLOUD, PROVBUSGOVERNMENTCLOUD, PROVBGERMANCLOUD',
      'key_bits is required when allow_generate_key is true',
    ]);
  });

  it('provCckms (no PROVC_* fallbacks in this server environment)', async () => {
    expect(await problems('provCckms', {})).toEqual([
      'crypto_key is required',
      'key_ring is required',
      'algorithm is required',
      'credentials is required (or PROVC_CREDENTIALS / PROVC_APPLICATION_CREDENTIALS in the server\'s environment)',
      'project is required (or PROVC_PROJECT in the server\'s environment)',
      'region is required (or PROVC_REGION in the server\'s environment)',
    ]);
    expect(await problems('provCckms', { credentials: CREDENTIALS, project: 'a/b', region: 'r', key_ring: 'k', crypto_key: 'c', crypto_key_version: 'latest', algorithm: 'EC_SIGN_SECP256K1_SHA256' })).toEqual([
      'project "a/b" may only contain letters, digits, _ and -',
      'crypto_key_version "latest" must be a number',
      'algorithm "EC_SIGN_SECP256K1_SHA256" must be one of EC_SIGN_P256_SHA256, EC_SIGN_P384_SHA384, RSA_SIGN_PSS_2048_SHA256, RSA_SIGN_PSS_3072_SHA256, RSA_SIGN_PSS_4096_SHA256, RSA_SIGN_PSS_4096_SHA512, RSA_SIGN_PKCS1_2048_SHA256, RSA_SIGN_PKCS1_3072_SHA256, RSA_SIGN_PKCS1_4096_SHA256, RSA_SIGN_PKCS1_4096_SHA512',
    ]);
  });

  it('test/sign body: an invalid use_pss is a 400', async () => {
    const res = await api.testSign('pkcs11', 'hsm-c', { use_pss: 'maybe' });
    expect(res).toEqual({ status: 400, body: { errors: ['use_pss must be a boolean'] } });
  });
});

describe('the delete guard', () => {
  it('refuses while a mount lists the key in allowed_managed_keys, naming the mounts', async () => {
    await api.putKey('pkcs11', 'guarded', pkcs11({ any_mount: true }));
    expect((await api.post('sys/mounts/pki', { type: 'pki' })).status).toBe(204);
    expect((await api.post('sys/mounts/pki/tune', { allowed_managed_keys: 'guarded,other' })).status).toBe(204);
    expect((await api.post('sys/auth/ldap', { type: 'ldap', config: { allowed_managed_keys: ['guarded'] } })).status).toBe(204);
    const res = await api.delete('sys/managed-keys/pkcs11/guarded');
    expect(res).toEqual({ status: 400, body: { errors: ['managed key "guarded" cannot be deleted: it is listed in allowed_managed_keys of "pki/", "auth/ldap/"'] } });
    expect((await api.get('sys/managed-keys/pkcs11/guarded')).status).toBe(200);

    await api.post('sys/mounts/pki/tune', { allowed_managed_keys: [] });
    await api.post('sys/auth/ldap/tune', { allowed_managed_keys: 'other' });
    expect((await api.delete('sys/managed-keys/pkcs11/guarded')).status).toBe(204);
  });
});

describe('secrets', () => {
  it('pin, secret_key, client_secret and credentials never appear in any answer or log line', () => {
    expectNoCanaries(s, [PIN, SECRET_KEY, CLIENT_SECRET, CREDENTIALS, '424242']);
  });
});
