/** The KMS fake at the protocol level: auth errors and the operations' error shapes. */
import { DescribeKeyCommand, KMSClient, ListAliasesCommand, SignCommand, VerifyCommand } from '@aws-sdk/client-kms';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CREDENTIALS, startFakeAwsKms, type FakeAwsKms } from './server.js';

let fake: FakeAwsKms;
let kms: KMSClient;

beforeAll(async () => {
  fake = await startFakeAwsKms();
  kms = new KMSClient({ region: 'us-east-1', endpoint: fake.endpoint, credentials: DEFAULT_CREDENTIALS, maxAttempts: 1 });
  fake.seedKey({ keySpec: 'RSA_2048', alias: 'alias/rsa' });
});

afterAll(async () => {
  kms.destroy();
  await fake?.stop();
});

const post = (target: string, headers: Record<string, string> = {}) =>
  fetch(fake.endpoint, { method: 'POST', body: '{}', headers: { 'x-amz-target': `TrentService.${target}`, 'content-type': 'application/x-amz-json-1.1', ...headers } });

describe('aws-kms fake', () => {
  it('refuses unsigned and badly signed requests', async () => {
    const unsigned = await post('ListAliases');
    expect(unsigned.status).toBe(400);
    expect(await unsigned.json()).toMatchObject({ __type: 'MissingAuthenticationTokenException' });
    const forged = await post('ListAliases', {
      authorization: `AWS4-HMAC-SHA256 Credential=${DEFAULT_CREDENTIALS.accessKeyId}/20250101/us-east-1/kms/aws4_request, SignedHeaders=host, Signature=${'0'.repeat(64)}`,
      'x-amz-date': '20250101T000000Z',
    });
    expect(await forged.json()).toMatchObject({ __type: 'InvalidSignatureException' });
  });

  it('signs with the SDK, verifies, and reports a bad signature', async () => {
    const digest = createHash('sha256').update('data').digest();
    const base = { KeyId: 'alias/rsa', Message: digest, MessageType: 'DIGEST' as const, SigningAlgorithm: 'RSASSA_PSS_SHA_256' as const };
    const { Signature } = await kms.send(new SignCommand(base));
    expect((await kms.send(new VerifyCommand({ ...base, Signature }))).SignatureValid).toBe(true);
    const bad = Buffer.from(Signature!);
    bad[0]! ^= 1;
    await expect(kms.send(new VerifyCommand({ ...base, Signature: bad }))).rejects.toMatchObject({ name: 'KMSInvalidSignatureException' });
  });

  it('answers NotFoundException, ValidationException and lists aliases', async () => {
    await expect(kms.send(new DescribeKeyCommand({ KeyId: 'alias/none' }))).rejects.toMatchObject({ name: 'NotFoundException' });
    const short = { KeyId: 'alias/rsa', Message: Buffer.alloc(20), MessageType: 'DIGEST' as const, SigningAlgorithm: 'RSASSA_PSS_SHA_256' as const };
    await expect(kms.send(new SignCommand(short))).rejects.toMatchObject({ name: 'ValidationException' });
    const { Aliases } = await kms.send(new ListAliasesCommand({}));
    expect(Aliases?.map((a) => a.AliasName)).toContain('alias/rsa');
  });
});
