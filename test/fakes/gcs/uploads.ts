/**
 * The three upload protocols of the JSON API: simple media, multipart, and resumable (session
 * start, chunks with Content-Range, status queries, finalisation).
 */
import { randomBytes } from 'node:crypto';
import { parseMultipartRelated } from './multipart.js';
import { objectResource, type FakeGcsStore, type StoredBucket } from './store.js';

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  json?: unknown;
}

interface Session {
  bucket: StoredBucket;
  name: string;
  contentType: string | undefined;
  metadata: Record<string, string>;
  received: Buffer[];
  size: number;
  done?: Record<string, unknown>;
}

export class Uploads {
  private readonly sessions = new Map<string, Session>();

  constructor(
    private readonly store: FakeGcsStore,
    private readonly endpoint: () => string,
  ) {}

  /** POST /upload/storage/v1/b/:bucket/o?uploadType=media|multipart|resumable */
  start(bucket: StoredBucket, query: URLSearchParams, contentType: string, body: Buffer): Reply {
    const type = query.get('uploadType') ?? 'media';
    if (type === 'media') {
      const name = query.get('name');
      if (!name) return badRequest('uploadType=media needs name');
      return this.finish(bucket, name, body, { contentType });
    }
    if (type === 'multipart') {
      const upload = parseMultipartRelated(contentType, body);
      const name = query.get('name') ?? (typeof upload.metadata.name === 'string' ? upload.metadata.name : undefined);
      if (!name) return badRequest('multipart upload without a name');
      return this.finish(bucket, name, upload.media, {
        contentType: stringOr(upload.metadata.contentType) ?? upload.mediaType,
        metadata: upload.metadata.metadata as Record<string, string> | undefined,
      });
    }
    if (type === 'resumable') {
      const meta = body.length > 0 ? (JSON.parse(body.toString('utf8')) as Record<string, unknown>) : {};
      const name = query.get('name') ?? stringOr(meta.name);
      if (!name) return badRequest('resumable upload without a name');
      const id = randomBytes(12).toString('hex');
      this.sessions.set(id, {
        bucket,
        name,
        contentType: stringOr(meta.contentType),
        metadata: (meta.metadata as Record<string, string> | undefined) ?? {},
        received: [],
        size: 0,
      });
      const location = `${this.endpoint()}/upload/storage/v1/b/${encodeURIComponent(bucket.name)}/o?uploadType=resumable&name=${encodeURIComponent(name)}&upload_id=${id}`;
      return { status: 200, headers: { location } };
    }
    return badRequest(`unsupported uploadType ${type}`);
  }

  // PUT to a session URI. `Content-Range: bytes */T` (or `bytes */*`) asks for the status;
  // `bytes A-B/T` appends a chunk; the upload completes when T bytes are in or when the range
  // end is `*` (the request carries the whole remainder: `bytes 0-*/*` finalises). Without a
  // Content-Range the body is the whole object.
  put(uploadId: string, contentRange: string | undefined, body: Buffer): Reply {
    const s = this.sessions.get(uploadId);
    if (!s) return { status: 404, json: errorBody(404, 'No such upload session', 'notFound') };
    if (s.done) return { status: 200, json: s.done };
    if (contentRange === undefined) return this.complete(uploadId, s, body);
    const status = /^bytes \*\/(\d+|\*)$/.exec(contentRange);
    if (status) return this.incomplete(s);
    const chunk = /^bytes (\d+)-(\d+|\*)\/(\d+|\*)$/.exec(contentRange);
    if (!chunk) return badRequest(`bad Content-Range ${contentRange}`);
    const first = Number(chunk[1]);
    if (first > s.size) return badRequest(`chunk starts at ${first}, only ${s.size} bytes received`);
    const fresh = body.subarray(s.size - first); // a retried chunk may overlap what we have
    s.received.push(fresh);
    s.size += fresh.length;
    const total = chunk[3] === '*' ? undefined : Number(chunk[3]);
    if (total !== undefined && s.size > total) return badRequest(`received ${s.size} bytes of a ${total}-byte object`);
    if (chunk[2] === '*' || s.size === total) return this.complete(uploadId, s, Buffer.concat(s.received));
    return this.incomplete(s);
  }

  private complete(id: string, s: Session, data: Buffer): Reply {
    const reply = this.finish(s.bucket, s.name, data, { contentType: s.contentType, metadata: s.metadata });
    s.done = reply.json as Record<string, unknown>;
    s.received = [];
    this.sessions.set(id, s);
    return reply;
  }

  private incomplete(s: Session): Reply {
    return { status: 308, headers: s.size > 0 ? { range: `bytes=0-${s.size - 1}` } : {} };
  }

  private finish(bucket: StoredBucket, name: string, data: Buffer, meta: { contentType?: string; metadata?: Record<string, string> }): Reply {
    const obj = this.store.putObject(bucket, name, data, meta);
    return { status: 200, json: objectResource(bucket.name, obj) };
  }
}

export function errorBody(code: number, message: string, reason: string): unknown {
  return { error: { code, message, errors: [{ message, domain: 'global', reason }] } };
}

function badRequest(message: string): Reply {
  return { status: 400, json: errorBody(400, message, 'invalid') };
}

function stringOr(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}
