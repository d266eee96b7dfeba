/**
 * A loopback fake of the GCS JSON API, enough for @google-cloud/storage against
 * `apiEndpoint: fake.endpoint`. What it covers and what not: SPEC.md next to this file.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { closeServer, listenOnLoopback, readBody } from '../common/http.js';
import { bucketResource, FakeGcsStore, md5Base64, objectResource, type StoredBucket } from './store.js';
import { crc32cBase64 } from './crc32c.js';
import { errorBody, Uploads, type Reply } from './uploads.js';

export interface FakeGcsOptions {
  /** Buckets that exist from the start. */
  buckets?: string[];
  /** When set, every API request must carry `Authorization: Bearer <token>` (else 401). */
  bearerToken?: string;
  /** Objects per list page (default 1000), to exercise pagination. */
  pageSize?: number;
}

export interface FakeGcsRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  contentRange?: string;
}

export interface FakeGcs {
  /** `http://127.0.0.1:PORT`, for `apiEndpoint` / provC_endpoint. */
  endpoint: string;
  port: number;
  /** While true, object writes and deletes answer 403 (an unwritable destination). */
  failWrites: boolean;
  bearerToken: string | undefined;
  store: FakeGcsStore;
  /** Every request, in order. */
  requests: FakeGcsRequest[];
  createBucket(name: string): void;
  objectNames(bucket: string): string[];
  stop(): Promise<void>;
}

export async function startFakeGcs(opts: FakeGcsOptions = {}): Promise<FakeGcs> {
  const store = new FakeGcsStore();
  for (const b of opts.buckets ?? []) store.createBucket(b);
  let endpoint = '';
  const uploads = new Uploads(store, () => endpoint);
  const fake: FakeGcs = {
    endpoint,
    port: 0,
    failWrites: false,
    bearerToken: opts.bearerToken,
    store,
    requests: [],
    createBucket: (name) => void store.createBucket(name),
    objectNames: (bucket) => [...(store.buckets.get(bucket)?.objects.keys() ?? [])].sort(),
    stop: () => closeServer(server),
  };
  const server = createServer((req, res) => {
    void readBody(req)
      .then((body) => route(fake, uploads, req, body, opts.pageSize ?? 1000))
      .catch((err: Error) => ({ status: 500, json: errorBody(500, err.message, 'backendError') }))
      .then((reply) => send(res, reply));
  });
  fake.port = await listenOnLoopback(server);
  endpoint = fake.endpoint = `http://127.0.0.1:${fake.port}`;
  return fake;
}

type Handler = Reply | { media: Buffer; headers: Record<string, string> };

function route(fake: FakeGcs, uploads: Uploads, req: IncomingMessage, body: Buffer, pageSize: number): Handler {
  const url = new URL(req.url ?? '/', 'http://fake');
  const method = req.method ?? 'GET';
  const contentRange = header(req, 'content-range');
  fake.requests.push({ method, path: url.pathname, query: Object.fromEntries(url.searchParams), ...(contentRange ? { contentRange } : {}) });
  const uploadId = url.searchParams.get('upload_id');
  // A session URI is its own credential, as on the real service.
  if (!(uploadId && method === 'PUT') && !authorised(fake, req)) {
    return { status: 401, json: errorBody(401, 'Anonymous caller does not have storage access.', 'required') };
  }
  const isWrite = (method === 'POST' && url.pathname.startsWith('/upload/')) || method === 'PUT' || (method === 'DELETE' && url.pathname.includes('/o/'));
  if (fake.failWrites && isWrite) {
    return { status: 403, json: errorBody(403, 'fake-gcs: writes to this bucket are forbidden', 'forbidden') };
  }

  const upload = /^\/upload\/storage\/v1\/b\/([^/]+)\/o$/.exec(url.pathname);
  if (upload) {
    if (method === 'PUT' && uploadId) return uploads.put(uploadId, contentRange, body);
    const bucket = fake.store.buckets.get(decodeURIComponent(upload[1]!));
    if (!bucket) return noSuchBucket();
    if (method === 'POST') return uploads.start(bucket, url.searchParams, header(req, 'content-type') ?? '', body);
    return notAllowed();
  }

  if (url.pathname === '/storage/v1/b') {
    if (method !== 'POST') return notAllowed();
    const name = (JSON.parse(body.toString('utf8') || '{}') as { name?: string }).name;
    if (!name) return { status: 400, json: errorBody(400, 'bucket name required', 'invalid') };
    const created = fake.store.createBucket(name);
    if (!created) return { status: 409, json: errorBody(409, 'Your previous request to create the named bucket succeeded and you already own it.', 'conflict') };
    return { status: 200, json: bucketResource(created) };
  }

  const bucketPath = /^\/(?:download\/)?storage\/v1\/b\/([^/]+)(\/o(?:\/(.+))?)?$/.exec(url.pathname);
  if (!bucketPath) return { status: 404, json: errorBody(404, `Not Found: ${url.pathname}`, 'notFound') };
  const bucket = fake.store.buckets.get(decodeURIComponent(bucketPath[1]!));
  if (!bucket) return noSuchBucket();
  if (!bucketPath[2]) return method === 'GET' ? { status: 200, json: bucketResource(bucket) } : notAllowed();
  if (bucketPath[3] === undefined) return method === 'GET' ? list(bucket, url.searchParams, pageSize) : notAllowed();
  return objectRequest(bucket, decodeURIComponent(bucketPath[3]), method, url.searchParams);
}

function objectRequest(bucket: StoredBucket, name: string, method: string, query: URLSearchParams): Handler {
  const obj = bucket.objects.get(name);
  if (!obj) return { status: 404, json: errorBody(404, `No such object: ${bucket.name}/${name}`, 'notFound') };
  if (method === 'DELETE') {
    bucket.objects.delete(name);
    return { status: 204 };
  }
  if (method !== 'GET') return notAllowed();
  if (query.get('alt') !== 'media') return { status: 200, json: objectResource(bucket.name, obj) };
  return {
    media: obj.data,
    headers: {
      'content-type': obj.contentType,
      'x-goog-hash': `crc32c=${crc32cBase64(obj.data)},md5=${md5Base64(obj.data)}`,
      'x-goog-generation': String(obj.generation),
      'x-goog-stored-content-length': String(obj.data.length),
      'x-goog-stored-content-encoding': 'identity',
    },
  };
}

/** GET .../o?prefix=&delimiter=&maxResults=&pageToken= — names in lexical order. */
function list(bucket: StoredBucket, query: URLSearchParams, pageSize: number): Reply {
  const prefix = query.get('prefix') ?? '';
  const delimiter = query.get('delimiter') ?? '';
  const max = Math.min(pageSize, Number(query.get('maxResults') ?? pageSize) || pageSize);
  const after = query.get('pageToken') ? Buffer.from(query.get('pageToken')!, 'base64url').toString('utf8') : undefined;
  const names = [...bucket.objects.keys()].filter((n) => n.startsWith(prefix) && (after === undefined || n > after)).sort();
  const items: Record<string, unknown>[] = [];
  const prefixes = new Set<string>();
  let last: string | undefined;
  for (const n of names) {
    if (items.length + prefixes.size >= max) break;
    last = n;
    const cut = delimiter ? n.indexOf(delimiter, prefix.length) : -1;
    if (cut !== -1) prefixes.add(n.slice(0, cut + delimiter.length));
    else items.push(objectResource(bucket.name, bucket.objects.get(n)!));
  }
  const more = last !== undefined && names.indexOf(last) < names.length - 1;
  return {
    status: 200,
    json: {
      kind: 'storage#objects',
      ...(items.length ? { items } : {}),
      ...(prefixes.size ? { prefixes: [...prefixes] } : {}),
      ...(more ? { nextPageToken: Buffer.from(last!).toString('base64url') } : {}),
    },
  };
}

function authorised(fake: FakeGcs, req: IncomingMessage): boolean {
  if (fake.bearerToken === undefined) return true;
  return header(req, 'authorization') === `Bearer ${fake.bearerToken}`;
}

function noSuchBucket(): Reply {
  return { status: 404, json: errorBody(404, 'The specified bucket does not exist.', 'notFound') };
}

function notAllowed(): Reply {
  return { status: 405, json: errorBody(405, 'Method not allowed', 'methodNotAllowed') };
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function send(res: ServerResponse, reply: Handler): void {
  if ('media' in reply) {
    res.writeHead(200, { ...reply.headers, 'content-length': String(reply.media.length) });
    res.end(reply.media);
    return;
  }
  const body = reply.json === undefined ? '' : JSON.stringify(reply.json);
  res.writeHead(reply.status, {
    ...reply.headers,
    ...(body ? { 'content-type': 'application/json; charset=UTF-8' } : {}),
    'content-length': String(Buffer.byteLength(body)),
  });
  res.end(body);
}
