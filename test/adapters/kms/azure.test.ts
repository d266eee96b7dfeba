/** provBkeyvault test/sign against the loopback HTTPS Key Vault + token endpoint fake. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeyBackend } from '../../../src/adapters/kms/signer.js';
import type { AzureKeyVaultKeyConfig, KeyBackendOptions, TestSignOptions } from '../../../src/adapters/kms/types.js';
import { DEFAULT_CLIENT, startFakeKeyVault, type FakeKeyVault } from '../../fakes/azure-keyvault/server.js';
import { rejection } from './pkcs11/helpers.js';

let fake: FakeKeyVault;
let options: KeyBackendOptions;

beforeAll(async () => {
  fake = await startFakeKeyVault();
  options = { azure: { authorityHost: fake.authorityHost, caCerts: [fake.caCert] } };
  fake.seedKey({ name: 'hsm-2048' });
  fake.seedKey({ name: 'soft-2048', kty: 'RSA' });
  fake.seedKey({ name: 'hsm-disabled', enabled: false });
  fake.seedKey({ name: 'hsm-encrypt-only', keyOps: ['encrypt', 'decrypt'] });
});

afterAll(async () => {
  await fake?.stop();
});

function config(over: Partial<AzureKeyVaultKeyConfig> = {}): AzureKeyVaultKeyConfig {
  return {
    tenant_id: fake.tenantId,
    client_id: DEFAULT_CLIENT.clientId,
    client_secret: DEFAULT_CLIENT.clientSecret,
    vault_name: 'lockstep',
    key_name: 'hsm-2048',
    key_type: 'RSA-HSM',
    key_bits: '2048',
    resource: fake.resource,
    ...over,
  };
}

const testSign = (cfg: AzureKeyVaultKeyConfig, opts: TestSignOptions = {}, opt: KeyBackendOptions = options) =>
  createKeyBackend('provBkeyvault', cfg, opt).testSign(opts);

describe('signing', () => {
  it.each([
    ['sha2-256', false],
    ['sha2-384', false],
    ['sha2-512', false],
    ['sha2-256', true],
    ['sha2-512', true],
  ] as const)('RSA-HSM over %s, PSS %s (challenge, token, sign, local verify)', async (hash, usePss) => {
    await testSign(config(), { hashAlgorithm: hash, usePss });
  });

  it('answers the first unauthenticated call with a challenge, then uses the token', async () => {
    const before = fake.requests.length;
    await testSign(config());
    const seen = fake.requests.slice(before).map((r) => `${r.authorized ? 'token' : 'none'} ${r.method} ${r.path}`);
    const sign = `POST /keys/hsm-2048/${fake.store.get('lockstep', 'hsm-2048')!.version}/sign`;
    // Key client and cryptography client each meet the challenge once.
    expect(seen).toEqual(['none GET /keys/hsm-2048/', 'token GET /keys/hsm-2048/', `none ${sign}`, `token ${sign}`]);
  });

  it.each(['sha1', 'sha3-256'] as const)('%s is unsupported', async (hash) => {
    expect((await rejection(testSign(config(), { hashAlgorithm: hash }))).code).toBe('unsupported');
  });
});

describe('failures', () => {
  it('a software RSA key is not RSA-HSM', async () => {
    const err = await rejection(testSign(config({ key_name: 'soft-2048' })));
    expect(err.code).toBe('spec');
    expect(err.message).toContain('kty RSA');
  });

  it('a size different from key_bits', async () => {
    const err = await rejection(testSign(config({ key_bits: 3072 })));
    expect(err.code).toBe('spec');
    expect(err.message).toContain('2048 bits');
  });

  it('a disabled key', async () => {
    expect((await rejection(testSign(config({ key_name: 'hsm-disabled' })))).code).toBe('disabled');
  });

  it('a key whose key_ops do not allow sign', async () => {
    expect((await rejection(testSign(config({ key_name: 'hsm-encrypt-only' })))).code).toBe('usage');
  });

  it('a wrong client secret', async () => {
    const err = await rejection(testSign(config({ client_secret: 'wrong-secret-value~99' })));
    expect(err.code).toBe('auth');
    expect(err.message).toContain('AADSTS7000215');
    expect(err.message).not.toContain('wrong-secret-value~99');
  });

  it('an unknown client id', async () => {
    expect((await rejection(testSign(config({ client_id: '00000000-0000-4000-8000-000000000000' })))).code).toBe('auth');
  });

  it('a missing key without allow_generate_key is forbidden', async () => {
    const err = await rejection(testSign(config({ key_name: 'absent' })));
    expect(err.code).toBe('forbidden');
    expect(fake.store.get('lockstep', 'absent')).toBeUndefined();
  });

  it('the fake CA not trusted', async () => {
    const err = await rejection(testSign(config(), {}, { azure: { authorityHost: fake.authorityHost } }));
    expect(err.message).toMatch(/certificate/i);
  });

  it('config errors', async () => {
    const code = async (cfg: AzureKeyVaultKeyConfig) => (await rejection(testSign(cfg))).code;
    expect(await code(config({ key_type: 'RSA' }))).toBe('config');
    expect(await code(config({ client_secret: undefined }))).toBe('config');
    expect(await code(config({ environment: 'MARS' }))).toBe('config');
    expect(await code(config({ key_name: 'absent', key_bits: undefined, allow_generate_key: true }))).toBe('config');
  });
});

describe('generation', () => {
  it('creates an RSA-HSM key with key_bits when allowed, then reuses it', async () => {
    const cfg = config({ key_name: 'generated', key_bits: 3072, allow_generate_key: true });
    await testSign(cfg, { usePss: true });
    const first = fake.store.get('lockstep', 'generated')!;
    expect(first.kty).toBe('RSA-HSM');
    expect(first.material.kind === 'RSA' && first.material.bits).toBe(3072);
    await testSign(cfg);
    expect(fake.store.get('lockstep', 'generated')!.version).toBe(first.version);
  });
});
