/**
 * provBkeyvault managed keys over real HTTP against the loopback HTTPS Key Vault fake. The
 * server is pointed at it the way `lockstep serve` is: LOCKSTEP_PROVB_AUTHORITY_HOST and
 * LOCKSTEP_PROVB_CA_FILE in its environment, and the key's `resource` field.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeKeyVault, type FakeKeyVault } from '../../fakes/azure-keyvault/server.js';
import { expectLoggedFailure, expectNoCanaries, expectRefused, expectSigned, startKeyServer, type KeyClient, type KeyServer } from './helpers.js';

const CLIENT_ID = '5e0c7a2b-0000-4000-8000-00000000c1d0';
const CLIENT_SECRET = 'client-secret-canary~4a7f';
const WRONG_SECRET = 'wrong-client-secret-canary~0b1c';

let fake: FakeKeyVault;
let dir: string;
let s: KeyServer;
let api: KeyClient;

beforeAll(async () => {
  fake = await startFakeKeyVault({ clients: { [CLIENT_ID]: CLIENT_SECRET } });
  fake.seedKey({ name: 'hsm-2048' });
  fake.seedKey({ name: 'soft-2048', kty: 'RSA' });
  fake.seedKey({ name: 'hsm-disabled', enabled: false });
  fake.seedKey({ name: 'hsm-encrypt-only', keyOps: ['encrypt', 'decrypt'] });
  dir = await mkdtemp(join(tmpdir(), 'lockstep-mk-azure-'));
  await writeFile(join(dir, 'ca.pem'), fake.caCert);
  process.env.LOCKSTEP_PROVB_AUTHORITY_HOST = fake.authorityHost;
  process.env.LOCKSTEP_PROVB_CA_FILE = join(dir, 'ca.pem');
  s = await startKeyServer({ keyBackends: undefined });
  api = s.client();
});

afterAll(async () => {
  await s?.close();
  await fake?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const key = (over: Record<string, unknown> = {}) => ({
  tenant_id: fake.tenantId,
  client_id: CLIENT_ID,
  client_secret: CLIENT_SECRET,
  vault_name: 'lockstep',
  key_name: 'hsm-2048',
  key_type: 'RSA-HSM',
  key_bits: 2048,
  resource: fake.resource,
  ...over,
});

describe('test/sign', () => {
  it('RSA-HSM, PKCS#1 v1.5 and PSS over the SHA-2 hashes (token, challenge, sign, local verify)', async () => {
    await api.putKey('provBkeyvault', 'az-key', key());
    expectSigned(await api.testSign('provBkeyvault', 'az-key'));
    expectSigned(await api.testSign('provBkeyvault', 'az-key', { use_pss: true, hash_algorithm: 'sha2-512' }));
    expectSigned(await api.testSign('provBkeyvault', 'az-key', { hash_algorithm: 'sha2-384' }));
    expect(fake.requests.some((r) => r.authorized && r.path.endsWith('/sign'))).toBe(true);
  });

  it('generates a key of key_bits when allowed and absent', async () => {
    await api.putKey('provBkeyvault', 'az-gen', key({ key_name: 'generated', key_bits: '3072', allow_generate_key: true }));
    expectSigned(await api.testSign('provBkeyvault', 'az-gen', { use_pss: true }));
    expect(fake.store.get('lockstep', 'generated')?.kty).toBe('RSA-HSM');
  });
});

describe('failures', () => {
  it('wrong spec: a software key, and another size', async () => {
    await api.putKey('provBkeyvault', 'az-soft', key({ key_name: 'soft-2048' }));
    expectRefused(await api.testSign('provBkeyvault', 'az-soft'), /kty RSA, not RSA-HSM/);
    await api.putKey('provBkeyvault', 'az-size', key({ key_bits: '4096' }));
    expectRefused(await api.testSign('provBkeyvault', 'az-size'), /2048 bits, but key_bits is 4096/);
  });

  it('wrong usage', async () => {
    await api.putKey('provBkeyvault', 'az-encrypt', key({ key_name: 'hsm-encrypt-only' }));
    expectRefused(await api.testSign('provBkeyvault', 'az-encrypt'), /does not allow sign/);
  });

  it('a disabled key', async () => {
    await api.putKey('provBkeyvault', 'az-disabled', key({ key_name: 'hsm-disabled' }));
    expectRefused(await api.testSign('provBkeyvault', 'az-disabled'), /is disabled/);
  });

  it('bad credentials', async () => {
    await api.putKey('provBkeyvault', 'az-creds', key({ client_secret: WRONG_SECRET }));
    expectRefused(await api.testSign('provBkeyvault', 'az-creds'), /AADSTS7000215/);
    expectLoggedFailure(s, 'sys/managed-keys/provBkeyvault/az-creds');
  });

  it('a missing key when generation is not allowed', async () => {
    await api.putKey('provBkeyvault', 'az-absent', key({ key_name: 'absent' }));
    expectRefused(await api.testSign('provBkeyvault', 'az-absent'), /allow_generate_key is false/);
  });

  it('sha1 cannot be signed by the service', async () => {
    expectRefused(await api.testSign('provBkeyvault', 'az-key', { hash_algorithm: 'sha1' }), /sha1 is not supported/);
  });
});

describe('read back', () => {
  it('client_secret "redacted", defaults filled, key_bits as text', async () => {
    const data = (await api.get('sys/managed-keys/provBkeyvault/az-key')).body.data;
    expect(data).toMatchObject({
      client_id: CLIENT_ID,
      client_secret: 'redacted',
      environment: 'PROVBPUBLICCLOUD',
      key_bits: '2048',
      resource: fake.resource,
      usages: ['sign', 'verify'],
    });
  });

  it('no client secret in any answer or log line', () => {
    expectNoCanaries(s, [CLIENT_SECRET, WRONG_SECRET]);
  });
});
