/** In-memory buckets and objects of the fake, and their JSON API resources. */
import { createHash } from 'node:crypto';
import { crc32cBase64 } from './crc32c.js';

export interface StoredObject {
  name: string;
  data: Buffer;
  contentType: string;
  generation: number;
  created: Date;
  updated: Date;
  metadata: Record<string, string>;
}

export interface StoredBucket {
  name: string;
  created: Date;
  objects: Map<string, StoredObject>;
}

export class FakeGcsStore {
  readonly buckets = new Map<string, StoredBucket>();
  private generation = Date.now() * 1000;

  createBucket(name: string): StoredBucket | undefined {
    if (this.buckets.has(name)) return undefined;
    const b: StoredBucket = { name, created: new Date(), objects: new Map() };
    this.buckets.set(name, b);
    return b;
  }

  putObject(bucket: StoredBucket, name: string, data: Buffer, meta: { contentType?: string; metadata?: Record<string, string> }): StoredObject {
    const now = new Date();
    const previous = bucket.objects.get(name);
    const obj: StoredObject = {
      name,
      data,
      contentType: meta.contentType ?? 'application/octet-stream',
      generation: ++this.generation,
      created: previous?.created ?? now,
      updated: now,
      metadata: meta.metadata ?? {},
    };
    bucket.objects.set(name, obj);
    return obj;
  }
}

export function bucketResource(b: StoredBucket): Record<string, unknown> {
  return {
    kind: 'storage#bucket',
    id: b.name,
    name: b.name,
    location: 'US',
    storageClass: 'STANDARD',
    timeCreated: b.created.toISOString(),
    updated: b.created.toISOString(),
    metageneration: '1',
  };
}

export function objectResource(bucket: string, o: StoredObject): Record<string, unknown> {
  return {
    kind: 'storage#object',
    id: `${bucket}/${o.name}/${o.generation}`,
    selfLink: `/storage/v1/b/${bucket}/o/${encodeURIComponent(o.name)}`,
    name: o.name,
    bucket,
    generation: String(o.generation),
    metageneration: '1',
    contentType: o.contentType,
    size: String(o.data.length),
    md5Hash: md5Base64(o.data),
    crc32c: crc32cBase64(o.data),
    etag: md5Base64(o.data),
    timeCreated: o.created.toISOString(),
    updated: o.updated.toISOString(),
    storageClass: 'STANDARD',
    ...(Object.keys(o.metadata).length > 0 ? { metadata: o.metadata } : {}),
  };
}

export function md5Base64(data: Buffer): string {
  return createHash('md5').update(data).digest('base64');
}
