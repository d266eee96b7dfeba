/** provCckms managed keys over real HTTP against the loopback Cloud KMS REST fake (keyBackends.gcp.endpoint). */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceAccountFile } from '../../fakes/gcp-kms/auth.js';
import { startFakeGcpKms, type FakeGcpKms } from '../../fakes/gcp-kms/server.js';
import { expectLoggedFailure, expectNoCanaries, expectRefused, expectSigned, startKeyServer, type KeyClient, type KeyServer } from './helpers.js';

let fake: FakeGcpKms;
let other: FakeGcpKms;
let dir: string;
let credentialsFile: string;
let account: ServiceAccountFile;
let stranger: ServiceAccountFile;
let s: KeyServer;
let api: KeyClient;

beforeAll(async () => {
  fake = await startFakeGcpKms();
  other = await startFakeGcpKms();
  dir = await mkdtemp(join(tmpdir(), 'lockstep-mk-gcp-'));
  account = fake.addServiceAccount();
  stranger = other.addServiceAccount();
  credentialsFile = join(dir, 'credentials-canary-9d2e.json');
  await writeFile(credentialsFile, JSON.stringify(account));
  const ring = fake.addKeyRing('fake-project', 'europe-west1', 'signing');
  fake.seedKey({ keyRing: ring, id: 'ec-p256', algorithm: 'EC_SIGN_P256_SHA256' });
  fake.seedKey({ keyRing: ring, id: 'rsa-pss', algorithm: 'RSA_SIGN_PSS_2048_SHA256', versions: 2 });
  fake.seedKey({ keyRing: ring, id: 'ec-disabled', algorithm: 'EC_SIGN_P256_SHA256', state: 'DISABLED' });
  fake.seedKey({ keyRing: ring, id: 'symmetric', purpose: 'ENCRYPT_DECRYPT', algorithm: 'GOOGLE_SYMMETRIC_ENCRYPTION' });
  s = await startKeyServer({ keyBackends: { env: { PROVC_REGION: 'europe-west1' }, gcp: { endpoint: fake.endpoint } } });
  api = s.client();
});

afterAll(async () => {
  await s?.close();
  await fake?.stop();
  await other?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const key = (over: Record<string, unknown> = {}) => ({
  credentials: credentialsFile,
  project: 'fake-project',
  region: 'europe-west1',
  key_ring: 'signing',
  crypto_key: 'ec-p256',
  algorithm: 'EC_SIGN_P256_SHA256',
  ...over,
});

describe('test/sign', () => {
  it('EC P256 with a credentials file', async () => {
    await api.putKey('provCckms', 'gc-ec', key());
    expectSigned(await api.testSign('provCckms', 'gc-ec'));
  });

  it('RSA PSS, key version 2, credentials as JSON text, region from the server environment (PROVC_REGION)', async () => {
    await api.putKey('provCckms', 'gc-pss', key({ crypto_key: 'rsa-pss', algorithm: 'RSA_SIGN_PSS_2048_SHA256', crypto_key_version: 2, credentials: JSON.stringify(account), region: undefined }));
    expectSigned(await api.testSign('provCckms', 'gc-pss', { use_pss: true, hash_algorithm: 'sha2-256' }));
  });

  it('generates the crypto key when allowed and absent', async () => {
    await api.putKey('provCckms', 'gc-gen', key({ crypto_key: 'generated', algorithm: 'EC_SIGN_P384_SHA384', allow_generate_key: true }));
    expectSigned(await api.testSign('provCckms', 'gc-gen'));
    expectSigned(await api.testSign('provCckms', 'gc-gen'));
  });
});

describe('failures', () => {
  it('wrong usage (an encryption key)', async () => {
    await api.putKey('provCckms', 'gc-sym', key({ crypto_key: 'symmetric' }));
    expectRefused(await api.testSign('provCckms', 'gc-sym'), /not ASYMMETRIC_SIGN/);
  });

  it('wrong spec (the algorithm differs)', async () => {
    await api.putKey('provCckms', 'gc-spec', key({ crypto_key: 'rsa-pss', algorithm: 'RSA_SIGN_PKCS1_2048_SHA256' }));
    expectRefused(await api.testSign('provCckms', 'gc-spec'), /has algorithm RSA_SIGN_PSS_2048_SHA256, but the configuration asks for RSA_SIGN_PKCS1_2048_SHA256/);
  });

  it('a disabled key version', async () => {
    await api.putKey('provCckms', 'gc-disabled', key({ crypto_key: 'ec-disabled' }));
    expectRefused(await api.testSign('provCckms', 'gc-disabled'), /DISABLED/);
  });

  it('bad credentials: a service account the service does not know, its key never echoed', async () => {
    await api.putKey('provCckms', 'gc-creds', key({ credentials: JSON.stringify(stranger) }));
    expect((await api.testSign('provCckms', 'gc-creds')).status).toBe(400);
    expectLoggedFailure(s, 'sys/managed-keys/provCckms/gc-creds');
  });

  it('a hash other than the algorithm one', async () => {
    expectRefused(await api.testSign('provCckms', 'gc-ec', { hash_algorithm: 'sha2-512' }), /signs sha2-256 digests, not sha2-512/);
  });
});

describe('read back', () => {
  it('credentials "redacted", crypto_key_version default "1" or as text', async () => {
    expect((await api.get('sys/managed-keys/provCckms/gc-ec')).body.data).toMatchObject({ credentials: 'redacted', crypto_key_version: '1', region: 'europe-west1' });
    expect((await api.get('sys/managed-keys/provCckms/gc-pss')).body.data).toMatchObject({ credentials: 'redacted', crypto_key_version: '2', region: '' });
  });

  it('neither the credentials path nor any private key in any answer or log line', () => {
    const keyLines = (a: ServiceAccountFile) => a.private_key.split('\n').filter((l) => l.length >= 40);
    expectNoCanaries(s, [credentialsFile, 'credentials-canary-9d2e', ...keyLines(account), ...keyLines(stranger)]);
  });
});
