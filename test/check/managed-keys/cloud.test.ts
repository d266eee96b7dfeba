/** checkManagedKeyBackend for the three cloud types, against their loopback fakes. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkManagedKeyBackend, type Finding } from '../../../src/check/managed-keys/index.js';
import { DEFAULT_CREDENTIALS, startFakeAwsKms, type FakeAwsKms } from '../../fakes/aws-kms/server.js';
import { DEFAULT_CLIENT, startFakeKeyVault, type FakeKeyVault } from '../../fakes/azure-keyvault/server.js';
import { startFakeGcpKms, type FakeGcpKms } from '../../fakes/gcp-kms/server.js';

const last = (fs: Finding[]) => fs.at(-1)!;

describe('provAkms check', () => {
  let aws: FakeAwsKms;
  beforeAll(async () => {
    aws = await startFakeAwsKms();
    aws.seedKey({ keySpec: 'ECC_NIST_P256', alias: 'alias/ok' });
    aws.seedKey({ keySpec: 'ECC_NIST_P256', alias: 'alias/off', keyState: 'Disabled' });
    aws.seedKey({ keySpec: 'RSA_2048', alias: 'alias/enc', keyUsage: 'ENCRYPT_DECRYPT' });
  });
  afterAll(() => aws?.stop());

  const config = (over: Record<string, unknown> = {}) => ({
    kms_key: 'alias/ok', key_type: 'ECDSA', curve: 'P256', endpoint: aws.endpoint,
    access_key: DEFAULT_CREDENTIALS.accessKeyId, secret_key: DEFAULT_CREDENTIALS.secretAccessKey, ...over,
  });

  it('key found, Enabled, SIGN_VERIFY, spec matches', async () => {
    const fs = await checkManagedKeyBackend('provAkms', config());
    expect(fs.map((f) => `${f.ok} ${f.subject}`)).toEqual(['true configuration', 'true key alias/ok', 'true key state', 'true key usage', 'true key spec']);
  });

  it('disabled, wrong usage, wrong spec, missing, bad credentials', async () => {
    expect(last(await checkManagedKeyBackend('provAkms', config({ kms_key: 'alias/off' })))).toMatchObject({ ok: false, subject: 'key state' });
    expect(last(await checkManagedKeyBackend('provAkms', config({ kms_key: 'alias/enc', key_type: 'RSA', key_bits: 2048 })))).toMatchObject({ ok: false, subject: 'key usage' });
    expect(last(await checkManagedKeyBackend('provAkms', config({ curve: 'P384' })))).toMatchObject({ ok: false, subject: 'key spec' });
    expect(last(await checkManagedKeyBackend('provAkms', config({ kms_key: 'alias/none' })))).toMatchObject({ ok: false, subject: 'key alias/none' });
    expect(last(await checkManagedKeyBackend('provAkms', config({ kms_key: 'alias/none', allow_generate_key: true })))).toMatchObject({ ok: true, subject: 'key alias/none' });
    const auth = last(await checkManagedKeyBackend('provAkms', config({ secret_key: 'bad-secret-key-aws' })));
    expect(auth).toMatchObject({ ok: false, subject: 'key alias/ok' });
    expect(auth.message).toContain('InvalidSignatureException');
  });
});

describe('provBkeyvault check', () => {
  let vault: FakeKeyVault;
  beforeAll(async () => {
    vault = await startFakeKeyVault();
    vault.seedKey({ name: 'hsm' });
    vault.seedKey({ name: 'soft', kty: 'RSA' });
  });
  afterAll(() => vault?.stop());

  const config = (over: Record<string, unknown> = {}) => ({
    tenant_id: vault.tenantId, client_id: DEFAULT_CLIENT.clientId, client_secret: DEFAULT_CLIENT.clientSecret,
    vault_name: 'lockstep', key_name: 'hsm', key_type: 'RSA-HSM', key_bits: 2048, resource: vault.resource, ...over,
  });
  const options = () => ({ azure: { authorityHost: vault.authorityHost, caCerts: [vault.caCert] } });

  it('key found, RSA-HSM, size, enabled, sign allowed', async () => {
    const fs = await checkManagedKeyBackend('provBkeyvault', config(), options());
    expect(fs.every((f) => f.ok)).toBe(true);
    expect(fs.map((f) => f.subject)).toEqual(['configuration', 'key hsm', 'key type', 'key size', 'key state', 'key operations']);
  });

  it('software key, size mismatch, missing key, wrong secret', async () => {
    expect(last(await checkManagedKeyBackend('provBkeyvault', config({ key_name: 'soft' }), options()))).toMatchObject({ ok: false, subject: 'key type' });
    expect(last(await checkManagedKeyBackend('provBkeyvault', config({ key_bits: 4096 }), options()))).toMatchObject({ ok: false, subject: 'key size' });
    expect(last(await checkManagedKeyBackend('provBkeyvault', config({ key_name: 'nope' }), options()))).toMatchObject({ ok: false, subject: 'key nope' });
    const auth = last(await checkManagedKeyBackend('provBkeyvault', config({ client_secret: 'bad' }), options()));
    expect(auth.ok).toBe(false);
    expect(auth.message).toContain('AADSTS7000215');
  });
});

describe('provCckms check', () => {
  let gcp: FakeGcpKms;
  let dir: string;
  let credentials: string;
  beforeAll(async () => {
    gcp = await startFakeGcpKms();
    dir = await mkdtemp(join(tmpdir(), 'lockstep-check-gcp-'));
    credentials = join(dir, 'sa.json');
    await writeFile(credentials, JSON.stringify(gcp.addServiceAccount()));
    const ring = gcp.addKeyRing('p1', 'us-east1', 'ring');
    gcp.seedKey({ keyRing: ring, id: 'ec', algorithm: 'EC_SIGN_P256_SHA256' });
    gcp.seedKey({ keyRing: ring, id: 'off', algorithm: 'EC_SIGN_P256_SHA256', state: 'DISABLED' });
  });
  afterAll(async () => {
    await gcp?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  const config = (over: Record<string, unknown> = {}) => ({
    credentials, project: 'p1', region: 'us-east1', key_ring: 'ring', crypto_key: 'ec', algorithm: 'EC_SIGN_P256_SHA256', ...over,
  });
  const options = () => ({ gcp: { endpoint: gcp.endpoint }, env: {} });

  it('key and version found, ENABLED, algorithm matches', async () => {
    const fs = await checkManagedKeyBackend('provCckms', config(), options());
    expect(fs.every((f) => f.ok)).toBe(true);
    expect(fs.map((f) => f.subject)).toEqual([
      'configuration', 'credentials', 'crypto key projects/p1/locations/us-east1/keyRings/ring/cryptoKeys/ec', 'key purpose',
      'key version projects/p1/locations/us-east1/keyRings/ring/cryptoKeys/ec/cryptoKeyVersions/1', 'key version state', 'key version algorithm',
    ]);
  });

  it('disabled, algorithm mismatch, missing version, missing key', async () => {
    expect(last(await checkManagedKeyBackend('provCckms', config({ crypto_key: 'off' }), options()))).toMatchObject({ ok: false, subject: 'key version state' });
    expect(last(await checkManagedKeyBackend('provCckms', config({ algorithm: 'RSA_SIGN_PSS_2048_SHA256' }), options()))).toMatchObject({ ok: false, subject: 'key version algorithm' });
    expect(last(await checkManagedKeyBackend('provCckms', config({ crypto_key_version: 3 }), options())).ok).toBe(false);
    expect(last(await checkManagedKeyBackend('provCckms', config({ crypto_key: 'none' }), options())).ok).toBe(false);
  });
});
