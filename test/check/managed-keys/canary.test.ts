/**
 * Canary: the values of pin, secret_key, client_secret and credentials never appear in an
 * error message of test/sign or in a check finding — including when the same text is also
 * used in a non-secret field that the message quotes (it is then redacted).
 */
import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyBackendError } from '../../../src/adapters/kms/errors.js';
import { createKeyBackend } from '../../../src/adapters/kms/signer.js';
import type { KeyBackendOptions } from '../../../src/adapters/kms/types.js';
import type { KeyBackendType } from '../../../src/adapters/kms/errors.js';
import { checkManagedKeyBackend } from '../../../src/check/managed-keys/index.js';
import { startFakeAwsKms, type FakeAwsKms } from '../../fakes/aws-kms/server.js';
import { startFakeKeyVault, type FakeKeyVault } from '../../fakes/azure-keyvault/server.js';
import { startFakeGcpKms, type FakeGcpKms } from '../../fakes/gcp-kms/server.js';
import { startSoftHsm, type SoftHsm } from '../../support/softhsm.js';

const PIN = 'canary-pin-7Q2x';
const WRONG_PIN = 'canary-wrong-pin-Z9';
const SECRET_KEY = 'canary-secret-key-Hk3p';
const CLIENT_SECRET = 'canary-client-secret-Wq8';
const ACCESS_KEY = 'AKIACANARY0000000001';

let hsm: SoftHsm;
let aws: FakeAwsKms;
let vault: FakeKeyVault;
let gcp: FakeGcpKms;
let dir: string;
let credentialsPath: string;
let credentialsJson: string;
let strangerJson: string;
const canaries: string[] = [PIN, WRONG_PIN, SECRET_KEY, CLIENT_SECRET];

beforeAll(async () => {
  hsm = await startSoftHsm([{ label: 'canary', userPin: PIN }]);
  await hsm.createEcKey({ label: 'ec' });
  aws = await startFakeAwsKms({ credentials: { [ACCESS_KEY]: SECRET_KEY } });
  vault = await startFakeKeyVault({ clients: { 'canary-client': CLIENT_SECRET } });
  gcp = await startFakeGcpKms();
  dir = await mkdtemp(join(tmpdir(), 'lockstep-canary-'));
  await mkdir(join(dir, 'canary-credentials-dir'));
  credentialsPath = join(dir, 'canary-credentials-dir', 'sa.json');
  credentialsJson = JSON.stringify(gcp.addServiceAccount());
  await writeFile(credentialsPath, credentialsJson);
  strangerJson = JSON.stringify((await startFakeGcpKms().then(async (other) => { const sa = other.addServiceAccount(); await other.stop(); return sa; })));
  gcp.addKeyRing('p', 'l', 'r');
  for (const json of [credentialsJson, strangerJson]) {
    const key = (JSON.parse(json) as { private_key: string }).private_key;
    canaries.push(key, ...key.split('\n').filter((l) => l.length >= 40));
  }
  canaries.push(credentialsPath, 'canary-credentials-dir');
});

afterAll(async () => {
  await hsm?.cleanup();
  await aws?.stop();
  await vault?.stop();
  await gcp?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

interface Case {
  name: string;
  type: KeyBackendType;
  config: Record<string, unknown>;
  options?: () => KeyBackendOptions;
}

const cases = (): Case[] => {
  const p11 = { library: hsm.library, token_label: 'canary', pin: PIN, mechanism: '0x1041', key_label: 'ec' };
  const akms = { kms_key: 'alias/x', key_type: 'ECDSA', curve: 'P256', endpoint: aws.endpoint, access_key: ACCESS_KEY, secret_key: SECRET_KEY };
  const azure = { tenant_id: vault.tenantId, client_id: 'canary-client', client_secret: CLIENT_SECRET, vault_name: 'v', key_name: 'k', key_type: 'RSA-HSM', resource: vault.resource };
  const azureOptions = () => ({ azure: { authorityHost: vault.authorityHost, caCerts: [vault.caCert] } });
  const ckms = { credentials: credentialsPath, project: 'p', region: 'l', key_ring: 'r', crypto_key: 'k', algorithm: 'EC_SIGN_P256_SHA256' };
  const gcpOptions = () => ({ gcp: { endpoint: gcp.endpoint }, env: {} });
  return [
    { name: 'pkcs11 wrong PIN', type: 'pkcs11', config: { ...p11, pin: WRONG_PIN } },
    { name: 'pkcs11 key_label equal to the PIN', type: 'pkcs11', config: { ...p11, key_label: PIN } },
    { name: 'pkcs11 key_id equal to the PIN', type: 'pkcs11', config: { ...p11, key_label: undefined, key_id: PIN } },
    { name: 'pkcs11 token_label equal to the PIN', type: 'pkcs11', config: { ...p11, token_label: PIN } },
    { name: 'provAkms wrong secret key', type: 'provAkms', config: { ...akms, secret_key: `${SECRET_KEY}-wrong` } },
    { name: 'provAkms alias quoting the secret key', type: 'provAkms', config: { ...akms, kms_key: `alias/${SECRET_KEY}` } },
    { name: 'provBkeyvault wrong client secret', type: 'provBkeyvault', config: { ...azure, client_secret: `${CLIENT_SECRET}-wrong` }, options: azureOptions },
    { name: 'provBkeyvault key named like the client secret', type: 'provBkeyvault', config: { ...azure, key_name: CLIENT_SECRET }, options: azureOptions },
    { name: 'provCckms missing credentials file', type: 'provCckms', config: { ...ckms, credentials: `${credentialsPath}.missing` }, options: gcpOptions },
    { name: 'provCckms unknown service account (JSON text)', type: 'provCckms', config: { ...ckms, credentials: strangerJson }, options: gcpOptions },
    { name: 'provCckms missing key', type: 'provCckms', config: ckms, options: gcpOptions },
    { name: 'provCckms credentials that are not JSON', type: 'provCckms', config: { ...ckms, credentials: `{ ${SECRET_KEY}` }, options: gcpOptions },
  ];
};

function assertClean(text: string, where: string): void {
  for (const c of canaries) expect(text.includes(c), `${where} leaks a secret: ${text}`).toBe(false);
}

describe('no secret in any message or finding', () => {
  it('test/sign errors and check findings of every failure case', async () => {
    let redactions = 0;
    for (const c of cases()) {
      const options = c.options?.() ?? {};
      let error: unknown;
      try {
        await createKeyBackend(c.type, c.config as never, options).testSign();
      } catch (err) {
        error = err;
      }
      expect(error, c.name).toBeInstanceOf(KeyBackendError);
      const e = error as KeyBackendError;
      assertClean(`${e.message} ${String(e.stack)} ${JSON.stringify(e)}`, `${c.name} (test/sign)`);
      const findings = await checkManagedKeyBackend(c.type, c.config, options);
      expect(findings.some((f) => !f.ok), c.name).toBe(true);
      assertClean(JSON.stringify(findings), `${c.name} (check)`);
      redactions += (e.message.match(/\(sensitive\)/g) ?? []).length;
    }
    // The cases that quote a secret in a non-secret field went through redaction.
    expect(redactions).toBeGreaterThanOrEqual(4);
  });
});
