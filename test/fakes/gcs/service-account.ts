import { generateKeyPairSync, randomBytes } from 'node:crypto';

/** A service-account key JSON shaped like the real thing, with a fresh RSA key (the fake never checks it). */
export function fakeServiceAccountKey(): string {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return JSON.stringify({
    type: 'service_account',
    project_id: 'lockstep-test',
    private_key_id: randomBytes(20).toString('hex'),
    private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    client_email: 'snapshots@lockstep-test.iam.gserviceaccount.com',
    client_id: '1234567890',
    token_uri: 'https://oauth2.googleapis.com/token',
  });
}
