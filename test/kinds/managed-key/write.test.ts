import { RedactionSet } from '../../../src/core/redaction.js';
/** apply of one change: the write, then test/sign with verify (its failure carries the server's reason), or the delete. */
import { describe, expect, test } from 'vitest';
import { ApiError } from '../../../src/client/errors.js';
import type { ApiResponse, ClusterClient, RequestPath } from '../../../src/client/types.js';
import type { Change } from '../../../src/core/plan.js';
import { revealDeep } from '../../../src/core/secret.js';
import { desiredManagedKeys, type DesiredManagedKey } from '../../../src/kinds/managed-key/desired.js';
import { applyManagedKeyChange } from '../../../src/kinds/managed-key/write.js';
import { ctx, keyDoc, keyDocs, PKCS11 } from './docs.js';

interface Call {
  method: string;
  path: string;
  body?: unknown;
}

/** The writes' paths as text: they come as the change's Address (its segments). */
const pathText = (path: RequestPath): string => (typeof path === 'string' ? path : path.segments.join('/'));

function fakeClient(failSign?: string): { client: ClusterClient; calls: Call[] } {
  const calls: Call[] = [];
  const ok: ApiResponse = { status: 204, data: null, auth: null, warnings: [], body: null };
  const client = {
    cluster: 'default',
    baseUrl: 'http://127.0.0.1:1/v1',
    requestCount: 0,
    concurrency: 4,
    request: async () => ok,
    read: async () => null,
    write: async (target: RequestPath, body: unknown) => {
      const path = pathText(target);
      calls.push({ method: 'POST', path, body: revealDeep(body) });
      if (failSign && path.endsWith('/test/sign')) {
        throw new ApiError({ cluster: 'default', method: 'POST', url: path, status: 400, errors: [failSign], message: `POST ${path}: 400 Bad Request: ${failSign}` });
      }
      return ok;
    },
    delete: async (target: RequestPath) => {
      calls.push({ method: 'DELETE', path: pathText(target) });
    },
  } satisfies ClusterClient;
  return { client, calls };
}

async function keyOf(extra: string[] = []): Promise<DesiredManagedKey> {
  return desiredManagedKeys(await keyDocs([keyDoc('hsm', 'pkcs11', PKCS11, extra)]), ctx).resources[0] as DesiredManagedKey;
}

function changeOf(key: DesiredManagedKey, action: Change['action']): Change {
  return { address: key.address, resourceType: 'managed.key', action, reason: 'declared', before: null, after: key.attrs, changedFields: [], writeOnlyFields: [], sensitiveFields: [], destructive: false, dependsOn: [], guards: [], notes: [] };
}

describe('apply', () => {
  test('a create writes the whole configuration with the pin; no verify, no test/sign', async () => {
    const key = await keyOf();
    const { client, calls } = fakeClient();
    await applyManagedKeyChange(changeOf(key, 'create'), key, { client, clients: { get: () => client }, run: new Map(), redaction: new RedactionSet() });
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ method: 'POST', path: 'sys/managed-keys/pkcs11/hsm', body: { library: 'softhsm', pin: '1234', mechanism: '0x1041', key_id: '', usages: '' } });
  });

  test('with verify, test/sign follows the write with the options given', async () => {
    const key = await keyOf(['verify: { hash_algorithm: sha2-512, use_pss: true }']);
    const { client, calls } = fakeClient();
    await applyManagedKeyChange(changeOf(key, 'update'), key, { client, clients: { get: () => client }, run: new Map(), redaction: new RedactionSet() });
    expect(calls.map((c) => [c.path, c.path.endsWith('sign') ? c.body : undefined])).toEqual([
      ['sys/managed-keys/pkcs11/hsm', undefined],
      ['sys/managed-keys/pkcs11/hsm/test/sign', { hash_algorithm: 'sha2-512', use_pss: true }],
    ]);
  });

  test("a failing test/sign fails the change with the server's reason", async () => {
    const key = await keyOf(['verify: true']);
    const { client } = fakeClient('pkcs11: login failed: CKR_PIN_INCORRECT');
    await expect(applyManagedKeyChange(changeOf(key, 'create'), key, { client, clients: { get: () => client }, run: new Map(), redaction: new RedactionSet() })).rejects.toThrow(
      /^verify: the key was written but cannot sign: pkcs11: login failed: CKR_PIN_INCORRECT\. Fix the configuration and apply again/,
    );
  });

  test('a delete deletes the key at its type', async () => {
    const key = await keyOf();
    const { client, calls } = fakeClient();
    await applyManagedKeyChange(changeOf(key, 'delete'), undefined, { client, clients: { get: () => client }, run: new Map(), redaction: new RedactionSet() });
    expect(calls).toEqual([{ method: 'DELETE', path: 'sys/managed-keys/pkcs11/hsm' }]);
  });
});

describe('errors never carry a part of a secret', () => {
  test("a credentials file's private key, or one line of it, echoed alone is scrubbed", async () => {
    const pem = '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7\nshort\n-----END PRIVATE KEY-----\n';
    const credentials = JSON.stringify({ type: 'service_account', client_email: 'a@b', private_key: pem, private_key_id: 'kid-0123456789' });
    const key = desiredManagedKeys(
      await keyDocs([keyDoc('gcp', 'provCckms', ['credentials: ${env:C}', 'crypto_key: k', 'key_ring: r', 'project: p', 'region: r', 'algorithm: EC_SIGN_P256_SHA256'])], { C: credentials }),
      ctx,
    ).resources[0] as DesiredManagedKey;
    const { client } = fakeClient();
    const failing = { ...client, write: async () => Promise.reject(new Error(`bad key MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7 and kid-0123456789 for a@b`)) };
    await expect(applyManagedKeyChange(changeOf(key, 'create'), key, { client: failing, clients: { get: () => failing }, run: new Map(), redaction: new RedactionSet() })).rejects.toThrow(
      'bad key (sensitive) and (sensitive) for a@b',
    );
  });
});
