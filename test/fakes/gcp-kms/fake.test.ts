/** The Cloud KMS fake at the protocol level: auth and error shapes. */
import { createSign } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeGcpKms, type FakeGcpKms } from './server.js';

let fake: FakeGcpKms;
let ring: string;

beforeAll(async () => {
  fake = await startFakeGcpKms();
  ring = fake.addKeyRing('p', 'global', 'r');
  fake.seedKey({ keyRing: ring, id: 'ec', algorithm: 'EC_SIGN_P256_SHA256' });
  fake.auth.addStaticToken('static-token');
});

afterAll(async () => {
  await fake?.stop();
});

const get = (path: string, token?: string) => fetch(`${fake.endpoint}/v1/${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });

function assertion(sa: { client_email: string; private_key: string; token_uri: string }): string {
  const enc = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  const unsigned = `${enc({ alg: 'RS256', typ: 'JWT' })}.${enc({ iss: sa.client_email, aud: sa.token_uri, scope: 'https://www.googleapis.com/auth/cloudkms', iat: now, exp: now + 600 })}`;
  return `${unsigned}.${createSign('sha256').update(unsigned).sign(sa.private_key).toString('base64url')}`;
}

describe('gcp-kms fake', () => {
  it('401 UNAUTHENTICATED without a valid token', async () => {
    const res = await get(`${ring}/cryptoKeys/ec`);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: { status: 'UNAUTHENTICATED' } });
    expect((await get(`${ring}/cryptoKeys/ec`, 'forged')).status).toBe(401);
  });

  it('accepts static tokens, self-signed JWTs and JWT-bearer access tokens', async () => {
    expect((await get(`${ring}/cryptoKeys/ec`, 'static-token')).status).toBe(200);
    const sa = fake.addServiceAccount();
    expect((await get(`${ring}/cryptoKeys/ec`, assertion(sa))).status).toBe(200);
    const res = await fetch(`${fake.endpoint}/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: assertion(sa) }) });
    const { access_token } = (await res.json()) as { access_token: string };
    expect((await get(`${ring}/cryptoKeys/ec/cryptoKeyVersions/1`, access_token)).status).toBe(200);
  });

  it('NOT_FOUND and enum encodings', async () => {
    expect(await (await get(`${ring}/cryptoKeys/none`, 'static-token')).json()).toMatchObject({ error: { code: 404, status: 'NOT_FOUND' } });
    expect(await (await get(`${ring}/cryptoKeys/ec`, 'static-token')).json()).toMatchObject({ purpose: 'ASYMMETRIC_SIGN' });
    expect(await (await get(`${ring}/cryptoKeys/ec?$alt=json%3Benum-encoding%3Dint`, 'static-token')).json()).toMatchObject({ purpose: 5 });
  });
});
