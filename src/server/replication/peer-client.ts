import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

/**
 * JSON over HTTP(S) from one cluster to another (a secondary to its primary). Keeps its
 * connections alive between long polls; an https primary is verified against the given CA
 * certificates (ca_file / ca_path), or the system roots when none is given.
 */
export interface PeerAnswer {
  status: number;
  body: unknown;
}

export class PeerClient {
  private readonly http = new HttpAgent({ keepAlive: true, maxSockets: 4 });
  private readonly https: HttpsAgent;

  constructor(
    readonly apiAddr: string,
    caPem: readonly string[] = [],
  ) {
    this.https = new HttpsAgent({ keepAlive: true, maxSockets: 4, ...(caPem.length > 0 ? { ca: [...caPem] } : {}) });
  }

  post(path: string, body: unknown, timeoutMs: number, signal?: AbortSignal): Promise<PeerAnswer> {
    return this.call('POST', path, body, timeoutMs, signal);
  }

  get(path: string, timeoutMs: number, signal?: AbortSignal): Promise<PeerAnswer> {
    return this.call('GET', path, undefined, timeoutMs, signal);
  }

  close(): void {
    this.http.destroy();
    this.https.destroy();
  }

  private call(method: string, path: string, body: unknown, timeoutMs: number, signal?: AbortSignal): Promise<PeerAnswer> {
    const url = new URL(`${this.apiAddr}/v1/${path}`);
    const secure = url.protocol === 'https:';
    if (!secure && url.protocol !== 'http:') return Promise.reject(new Error(`unsupported scheme ${url.protocol}`));
    const text = body === undefined ? undefined : JSON.stringify(body);
    const signals = [AbortSignal.timeout(timeoutMs), ...(signal ? [signal] : [])];
    return new Promise((resolve, reject) => {
      const options = {
        method,
        agent: secure ? this.https : this.http,
        signal: AbortSignal.any(signals),
        headers: text === undefined ? {} : { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) },
      };
      const req = (secure ? httpsRequest : httpRequest)(url, options, (res) => {
        readAll(res).then((raw) => resolve({ status: res.statusCode ?? 0, body: parse(raw) }), reject);
      });
      req.on('error', reject);
      req.end(text);
    });
  }
}

async function readAll(res: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of res as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

function parse(raw: string): unknown {
  if (raw === '') return null;
  try {
    return JSON.parse(raw);
  } catch {
    return null;
  }
}

/** The `errors` of an error answer, joined (never the request: it holds credentials). */
export function errorText(answer: PeerAnswer): string {
  const errors = (answer.body as { errors?: unknown } | null)?.errors;
  const list = Array.isArray(errors) ? errors.filter((e): e is string => typeof e === 'string') : [];
  return list.length > 0 ? list.join('; ') : `status ${answer.status}`;
}

/** An address as given (`https://host:8200`, `.../v1/`): its origin-and-path without /v1 or trailing slashes. */
export function normaliseApiAddr(addr: string): string {
  return addr.trim().replace(/\/+$/, '').replace(/\/v1$/, '');
}
