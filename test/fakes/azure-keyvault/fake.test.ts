/** The Key Vault fake at the protocol level: challenge, token endpoint, verify. */
import { Agent, request } from 'node:https';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loopbackLookup } from '../../../src/adapters/kms/azure/client.js';
import { DEFAULT_CLIENT, startFakeKeyVault, type FakeKeyVault } from './server.js';

let fake: FakeKeyVault;
let agent: Agent;

beforeAll(async () => {
  fake = await startFakeKeyVault();
  agent = new Agent({ ca: fake.caCert, lookup: loopbackLookup });
  fake.seedKey({ name: 'k' });
});

afterAll(async () => {
  agent.destroy();
  await fake?.stop();
});

function call(url: string, method: string, body?: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, unknown>; json: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, agent, headers: { 'content-type': body?.startsWith('{') ? 'application/json' : 'application/x-www-form-urlencoded', ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, json: JSON.parse(Buffer.concat(chunks).toString() || '{}') as Record<string, unknown> }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const token = async (secret: string) =>
  call(`${fake.authorityHost}/${fake.tenantId}/oauth2/v2.0/token`, 'POST', new URLSearchParams({ grant_type: 'client_credentials', client_id: DEFAULT_CLIENT.clientId, client_secret: secret, scope: 'https://vault.localhost/.default' }).toString());

describe('azure-keyvault fake', () => {
  it('answers an unauthenticated call with a Bearer challenge', async () => {
    const res = await call(`https://lockstep.${fake.resource}/keys/k?api-version=7.6`, 'GET');
    expect(res.status).toBe(401);
    expect(String(res.headers['www-authenticate'])).toContain(`authorization="${fake.authorityHost}/${fake.tenantId}"`);
  });

  it('issues tokens for the right secret only, without echoing it', async () => {
    const bad = await token('nope-secret');
    expect(bad.status).toBe(401);
    expect(JSON.stringify(bad.json)).not.toContain('nope-secret');
    const good = await token(DEFAULT_CLIENT.clientSecret);
    expect(good.json).toMatchObject({ token_type: 'Bearer' });
  });

  it('signs and verifies; 404 KeyNotFound for a missing key', async () => {
    const { json } = await token(DEFAULT_CLIENT.clientSecret);
    const auth = { authorization: `Bearer ${String(json.access_token)}` };
    const base = `https://lockstep.${fake.resource}`;
    const digest = createHash('sha256').update('x').digest('base64url');
    const signed = await call(`${base}/keys/k//sign?api-version=7.6`, 'POST', JSON.stringify({ alg: 'PS256', value: digest }), auth);
    expect(signed.status).toBe(200);
    const verified = await call(`${base}/keys/k//verify`, 'POST', JSON.stringify({ alg: 'PS256', digest, value: signed.json.value }), auth);
    expect(verified.json).toEqual({ value: true });
    const missing = await call(`${base}/keys/none`, 'GET', undefined, auth);
    expect(missing.status).toBe(404);
    expect(missing.json).toMatchObject({ error: { code: 'KeyNotFound' } });
  });
});
