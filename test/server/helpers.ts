import { connect, type Socket } from 'node:net';
import { startServer, type RunningCluster, type RunningServer, type ServerOptions } from '../../src/server/index.js';

export interface ApiResponse {
  status: number;
  body: any;
}

/** A server on random ports, with log lines collected instead of printed. */
export async function startTestServer(opts: ServerOptions = {}): Promise<RunningServer & { logs: string[] }> {
  const logs: string[] = [];
  const server = await startServer({ port: 0, log: (line) => logs.push(line), ...opts });
  return Object.assign(server, { logs });
}

export interface ApiClientOptions {
  /** Requests go to `{baseUrl}/{namespace}/...`; '' (the default) is the root namespace. */
  namespace?: string;
  /** Called with every response body text, e.g. to look for canaries later. */
  onText?: (text: string) => void;
}

/**
 * A tiny API client for one cluster: `api.get('sys/health')`, `api.post('auth/ldap/config', {...})`.
 * Uses the root token unless given another one, or null for none.
 */
export function apiClient(cluster: Pick<RunningCluster, 'name' | 'port' | 'baseUrl' | 'rootToken'>, tokenOrNull?: string | null, opts: ApiClientOptions = {}) {
  const token = tokenOrNull === undefined ? cluster.rootToken : tokenOrNull;
  const base = opts.namespace ? `${cluster.baseUrl}/${opts.namespace}` : cluster.baseUrl;
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse> => {
    const res = await fetch(`${base}/${path}`, {
      method,
      headers: {
        ...(token ? { 'X-Vault-Token': token } : {}),
        ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    opts.onText?.(text);
    return { status: res.status, body: text === '' ? undefined : JSON.parse(text) };
  };
  return {
    call,
    get: (path: string) => call('GET', path),
    list: (path: string) => call('GET', `${path}?list=true`),
    post: (path: string, body: unknown = {}) => call('POST', path, body),
    delete: (path: string) => call('DELETE', path),
  };
}

export type ApiClient = ReturnType<typeof apiClient>;

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** One raw keep-alive connection: send bytes, read whole HTTP/1.1 responses (Content-Length framed). */
export class RawConnection {
  private buffer = Buffer.alloc(0);
  private waiters: Array<() => void> = [];
  private closed = false;

  private constructor(private readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.wake();
    });
    socket.on('close', () => {
      this.closed = true;
      this.wake();
    });
  }

  static open(port: number): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => resolve(new RawConnection(socket)));
      socket.once('error', reject);
    });
  }

  send(data: string | Buffer): void {
    this.socket.write(data);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  async readResponse(): Promise<RawResponse> {
    for (;;) {
      const parsed = this.tryParse();
      if (parsed) return parsed;
      if (this.closed) throw new Error(`connection closed; unparsed: ${this.buffer.toString('latin1')}`);
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  close(): void {
    this.socket.destroy();
  }

  /** Resolves once the server has closed the connection. */
  async closedByServer(): Promise<void> {
    while (!this.closed) await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  private tryParse(): RawResponse | undefined {
    const end = this.buffer.indexOf('\r\n\r\n');
    if (end === -1) return undefined;
    const [statusLine, ...lines] = this.buffer.toString('latin1', 0, end).split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers['content-length'] ?? 0);
    if (this.buffer.length < end + 4 + length) return undefined;
    const body = this.buffer.toString('utf8', end + 4, end + 4 + length);
    this.buffer = this.buffer.subarray(end + 4 + length);
    return { status: Number(statusLine!.split(' ')[1]), headers, body };
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }
}

/** Enables an LDAP auth method at `path` (default "ldap"). */
export async function enableLdap(api: ApiClient, path = 'ldap'): Promise<void> {
  const res = await api.post(`sys/auth/${path}`, { type: 'ldap' });
  if (res.status !== 204) throw new Error(`enable ldap at ${path}: ${res.status} ${JSON.stringify(res.body)}`);
}
