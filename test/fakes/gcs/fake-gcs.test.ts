import { randomBytes } from 'node:crypto';
import { Storage } from '@google-cloud/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crc32c, crc32cBase64 } from './crc32c.js';
import { startFakeGcs, type FakeGcs } from './server.js';

let fake: FakeGcs;
let storage: Storage;

beforeAll(async () => {
  fake = await startFakeGcs({ buckets: ['existing'] });
  storage = new Storage({ apiEndpoint: fake.endpoint, projectId: 'test-project', retryOptions: { autoRetry: false } });
});
afterAll(async () => {
  await fake.stop();
});

describe('crc32c', () => {
  it('matches the standard check value', () => {
    expect(crc32c(Buffer.from('123456789'))).toBe(0xe3069283);
    expect(crc32cBase64(Buffer.alloc(0))).toBe('AAAAAA==');
  });
});

describe('fake GCS through @google-cloud/storage', () => {
  it('creates and reads buckets', async () => {
    const [bucket] = await storage.createBucket('made-by-sdk');
    expect(bucket.name).toBe('made-by-sdk');
    const [exists] = await storage.bucket('made-by-sdk').exists();
    expect(exists).toBe(true);
    const [missing] = await storage.bucket('nope').exists();
    expect(missing).toBe(false);
    await expect(storage.createBucket('made-by-sdk')).rejects.toMatchObject({ code: 409 });
  });

  it('stores a multipart upload and serves metadata and media', async () => {
    const data = Buffer.from('multipart body \r\n--not-a-boundary\r\n');
    const file = storage.bucket('existing').file('dir/multi.snap');
    await file.save(data, { resumable: false, validation: 'crc32c', contentType: 'application/octet-stream' });
    const [meta] = await file.getMetadata();
    expect(Number(meta.size)).toBe(data.length);
    expect(meta.crc32c).toBe(crc32cBase64(data));
    const [back] = await file.download();
    expect(back.equals(data)).toBe(true);
    expect(fake.requests.some((r) => r.query.uploadType === 'multipart')).toBe(true);
  });

  it('stores a single-request resumable upload (Content-Range bytes 0-*/*)', async () => {
    const data = randomBytes(300_000);
    const file = storage.bucket('existing').file('dir/resumable.snap');
    await file.save(data, { resumable: true, validation: 'crc32c' });
    const [back] = await file.download();
    expect(back.equals(data)).toBe(true);
    const puts = fake.requests.filter((r) => r.method === 'PUT' && r.query.upload_id);
    expect(puts.map((r) => r.contentRange)).toContain('bytes 0-*/*');
  });

  it('stores a chunked resumable upload', async () => {
    const data = randomBytes(256 * 1024 * 2 + 1234);
    const file = storage.bucket('existing').file('dir/chunked.snap');
    await file.save(data, { resumable: true, chunkSize: 256 * 1024, validation: 'crc32c' });
    const [back] = await file.download();
    expect(back.equals(data)).toBe(true);
  });

  it('lists by prefix across pages', async () => {
    const small = await startFakeGcs({ buckets: ['paged'], pageSize: 2 });
    try {
      const s = new Storage({ apiEndpoint: small.endpoint, projectId: 'p' });
      for (const n of ['a/1', 'a/2', 'a/3', 'a/4', 'a/5', 'b/1']) await s.bucket('paged').file(n).save(Buffer.from(n), { resumable: false });
      const [files] = await s.bucket('paged').getFiles({ prefix: 'a/', autoPaginate: true });
      expect(files.map((f) => f.name)).toEqual(['a/1', 'a/2', 'a/3', 'a/4', 'a/5']);
      expect(small.requests.filter((r) => r.method === 'GET' && r.path.endsWith('/o')).length).toBe(3);
    } finally {
      await small.stop();
    }
  });

  it('deletes, and reports a missing object as 404', async () => {
    const file = storage.bucket('existing').file('dir/doomed');
    await file.save(Buffer.from('x'), { resumable: false });
    await file.delete();
    expect(fake.objectNames('existing')).not.toContain('dir/doomed');
    await expect(file.delete()).rejects.toMatchObject({ code: 404 });
    await expect(file.download()).rejects.toMatchObject({ code: 404 });
  });

  it('refuses writes and deletes while failWrites is set, but still reads', async () => {
    const file = storage.bucket('existing').file('dir/kept');
    await file.save(Buffer.from('kept'), { resumable: false });
    fake.failWrites = true;
    try {
      await expect(storage.bucket('existing').file('dir/new').save(Buffer.from('x'), { resumable: false })).rejects.toMatchObject({ code: 403 });
      // The resumable path reports a GaxiosError: `status`, not `code`.
      await expect(storage.bucket('existing').file('dir/new').save(Buffer.from('x'), { resumable: true })).rejects.toMatchObject({ status: 403 });
      await expect(file.delete()).rejects.toMatchObject({ code: 403 });
      const [back] = await file.download();
      expect(back.toString()).toBe('kept');
    } finally {
      fake.failWrites = false;
    }
  });
});

describe('fake GCS over raw HTTP', () => {
  it('accepts a simple media upload', async () => {
    const res = await fetch(`${fake.endpoint}/upload/storage/v1/b/existing/o?uploadType=media&name=raw%2Fmedia`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'media!',
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { name: string; size: string; crc32c: string; md5Hash: string };
    expect(body).toMatchObject({ name: 'raw/media', size: '6', crc32c: crc32cBase64(Buffer.from('media!')) });
    expect(body.md5Hash).toBeTruthy();
  });

  it('answers a resumable status query with 308 and the received range', async () => {
    const start = await fetch(`${fake.endpoint}/upload/storage/v1/b/existing/o?uploadType=resumable&name=raw%2Fresumed`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    const session = start.headers.get('location')!;
    const chunk = await fetch(session, { method: 'PUT', headers: { 'content-range': 'bytes 0-3/*' }, body: 'abcd' });
    expect(chunk.status).toBe(308);
    const status = await fetch(session, { method: 'PUT', headers: { 'content-range': 'bytes */*' } });
    expect(status.status).toBe(308);
    expect(status.headers.get('range')).toBe('bytes=0-3');
    const last = await fetch(session, { method: 'PUT', headers: { 'content-range': 'bytes 4-5/6' }, body: 'ef' });
    expect(last.status).toBe(200);
    const [data] = await storage.bucket('existing').file('raw/resumed').download();
    expect(data.toString()).toBe('abcdef');
  });

  it('checks the bearer token when one is configured', async () => {
    const guarded = await startFakeGcs({ buckets: ['b'], bearerToken: 'let-me-in' });
    try {
      const url = `${guarded.endpoint}/storage/v1/b/b/o`;
      expect((await fetch(url)).status).toBe(401);
      expect((await fetch(url, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
      expect((await fetch(url, { headers: { authorization: 'Bearer let-me-in' } })).status).toBe(200);
    } finally {
      await guarded.stop();
    }
  });
});
