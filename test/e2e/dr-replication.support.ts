import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import { createInterface } from 'node:readline';
import { decodeWithOtp } from '../../src/server/replication/otp.js';
import { ROOT } from '../support/cli.js';

/**
 * Support for the DR end-to-end test: a recording reverse proxy put between lockstep and each
 * cluster (it sees every secret lockstep sends or receives, so the test knows the canaries it
 * must never find in any output, and every DR operation token lockstep generated), and
 * `lockstep serve` for one cluster in a child process that can be killed and restarted.
 */

export const DR = 'sys/replication/dr';

/** One request through the proxy and its answer (bodies as text). */
export interface Exchange {
  cluster: string;
  method: string;
  path: string;
  requestBody: string;
  status: number;
  responseBody: string;
}

/** A DR operation token generated through the proxy, decoded from the answer with its OTP. */
export interface GeneratedToken {
  cluster: string;
  token: string;
}

export class RecordingProxy {
  readonly exchanges: Exchange[] = [];
  #server: Server | undefined;
  #port = 0;

  constructor(
    readonly cluster: string,
    /** The cluster's origin (http://127.0.0.1:PORT), where requests go. */
    private readonly target: string,
  ) {}

  /** lockstep's view of the cluster: the proxy's base URL. */
  get baseUrl(): string {
    return `http://127.0.0.1:${this.#port}/v1`;
  }

  /** Listens (again on the same port after a close: the cluster "comes back"). */
  async listen(): Promise<void> {
    const server = createServer((req, res) => {
      void this.#forward(req).then(
        ({ status, headers, body, requestBody }) => {
          this.exchanges.push({ cluster: this.cluster, method: req.method ?? '', path: req.url ?? '', requestBody, status, responseBody: body.toString('utf8') });
          res.writeHead(status, headers);
          res.end(body);
        },
        () => res.destroy(), // the cluster is down: the client sees a broken connection
      );
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.#port, '127.0.0.1', () => resolve());
    });
    this.#port = (server.address() as { port: number }).port;
    this.#server = server;
  }

  /** Stops listening and drops open connections: lockstep gets "connection refused". */
  async close(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  async #forward(req: IncomingMessage): Promise<{ status: number; headers: Record<string, string | string[]>; body: Buffer; requestBody: string }> {
    const requestBody = await readAll(req);
    const target = new URL(this.target);
    return new Promise((resolve, reject) => {
      const upstream = request(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } },
        (res) => {
          readAll(res).then((body) => {
            const headers = Object.fromEntries(Object.entries(res.headers).filter((e): e is [string, string | string[]] => e[1] !== undefined && e[0] !== 'transfer-encoding'));
            resolve({ status: res.statusCode ?? 502, headers: { ...headers, 'content-length': String(body.length) }, body, requestBody: requestBody.toString('utf8') });
          }, reject);
        },
      );
      upstream.once('error', reject);
      upstream.end(requestBody);
    });
  }
}

function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.once('end', () => resolve(Buffer.concat(chunks)));
    stream.once('error', reject);
  });
}

function json(text: string): Record<string, any> {
  try {
    const v = JSON.parse(text);
    return v !== null && typeof v === 'object' ? v : {};
  } catch {
    return {};
  }
}

/**
 * Every secret text that crossed the proxies: DR operation tokens (sent, and decoded from the
 * generation answers), one-time passwords, encoded tokens, activation tokens, key shares.
 */
export function secretsSeen(exchanges: readonly Exchange[]): Set<string> {
  const out = new Set<string>();
  const add = (v: unknown): void => {
    if (typeof v === 'string' && v.length > 0) out.add(v);
  };
  for (const e of exchanges) {
    const req = json(e.requestBody);
    const res = json(e.responseBody);
    for (const field of ['dr_operation_token', 'token', 'key', 'otp']) add(req[field]);
    for (const field of ['otp', 'encoded_token', 'encoded_root_token']) add(res[field]);
    add(res['data']?.token);
    add(res['wrap_info']?.token);
  }
  for (const g of generatedTokens(exchanges)) out.add(g.token);
  return out;
}

/** The DR operation tokens generated from key shares: each completed attempt decoded with its OTP. */
export function generatedTokens(exchanges: readonly Exchange[]): GeneratedToken[] {
  const otps = new Map<string, string>();
  const tokens: GeneratedToken[] = [];
  for (const e of exchanges) {
    if (e.method === 'POST' && e.path.endsWith(`${DR}/secondary/generate-operation-token/attempt`) && e.status === 200) {
      otps.set(e.cluster, json(e.responseBody)['otp']);
    }
    if (e.method === 'POST' && e.path.endsWith(`${DR}/secondary/generate-operation-token/update`) && e.status === 200) {
      const answer = json(e.responseBody);
      const otp = otps.get(e.cluster);
      if (answer['complete'] === true && otp) tokens.push({ cluster: e.cluster, token: decodeWithOtp(answer['encoded_token'], otp) });
    }
  }
  return tokens;
}

/** The DR operation tokens lockstep asked a cluster to delete (successfully). */
export function deletedTokens(exchanges: readonly Exchange[]): GeneratedToken[] {
  return exchanges
    .filter((e) => e.method === 'POST' && e.path.endsWith(`${DR}/secondary/operation-token/delete`) && e.status === 204)
    .map((e) => ({ cluster: e.cluster, token: String(json(e.requestBody)['dr_operation_token']) }));
}

export interface ServeChild {
  child: ChildProcess;
  /** http://127.0.0.1:PORT/v1 */
  baseUrl: string;
  rootToken: string;
  /** Everything it printed (stdout and stderr), for the canary checks. */
  output: string[];
  kill(): Promise<void>;
}

/** `lockstep serve ARGS` (the built CLI) in a child process; resolves once it printed its address. */
export async function serveChild(args: string[]): Promise<ServeChild> {
  const child = spawn(process.execPath, [`${ROOT}dist/cli.js`, 'serve', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  createInterface({ input: child.stderr }).on('line', (line) => output.push(line));
  const first = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      output.push(line);
      if (line.includes(' root token: ')) resolve(line); // printed once it listens
    });
    void exited.then(() => reject(new Error(`lockstep serve exited early:\n${output.join('\n')}`)));
  });
  const match = /^cluster \S+: (\S+) root token: (\S+)$/.exec(first);
  if (!match) throw new Error(`unexpected first line of lockstep serve: ${first}`);
  return {
    child,
    baseUrl: match[1]!,
    rootToken: match[2]!,
    output,
    kill: async () => {
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/**
 * A port for a cluster that must come back on the same address after it was stopped: free now,
 * and outside the range the OS hands out as the local port of outgoing connections, so that no
 * connection of a test running meanwhile takes it (the restart would fail with EADDRINUSE, as
 * an ephemeral port did once under load). Tried at random until one binds.
 */
export async function portToComeBackOn(): Promise<number> {
  const [low, high] = ephemeralRange();
  // Below the range when there is room (Linux: 32768-60999), else above it (macOS: 49152-65535 leaves none).
  const [from, to] = low > 11_000 ? [10_000, low - 1] : [high + 1, 65_535];
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = from + Math.floor(Math.random() * (to - from + 1));
    if (await bindable(port)) return port;
  }
  throw new Error(`no free port in ${from}-${to}`);
}

/** The OS's range of local ports for outgoing connections: Linux's setting, else IANA's dynamic range. */
function ephemeralRange(): [number, number] {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    if (Number.isInteger(low) && Number.isInteger(high)) return [low!, high!];
  } catch {
    // Not Linux.
  }
  return [49_152, 65_535];
}

function bindable(port: number): Promise<boolean> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** Raw HTTP to a cluster, behind lockstep's back. */
export async function raw(baseUrl: string, token: string | null, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${baseUrl}/${path}`, {
    method,
    headers: { ...(token ? { 'X-Vault-Token': token } : {}), 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** Polls until `check` returns a value, or fails after `ms`. */
export async function waitFor<T>(what: string, check: () => Promise<T | undefined>, ms = 5_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
