/**
 * A real server of the service's lineage for test/real-server: OpenBao's `bao` (test/setup/
 * openbao.sh installs it) or the binary named by LOCKSTEP_TEST_SERVER_BIN (`bao` or `vault`),
 * run as `server -dev`: unsealed, in memory, with a root token, on a free loopback port, one per
 * test file, stopped after. The same binary is a real client of the API (`bao read ...`).
 */
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { ROOT, type CliResult } from './cli.js';
import { useForFile } from './file-scoped.js';
import { answersHttp, launchOnFreePorts } from './process.js';

const run = promisify(execFile);

let binary: string | undefined;

/** The server binary's path, found (and installed when missing) by the same script `npm test` runs first. */
export function realServerBinary(): string {
  binary ??= execFileSync('bash', [`${ROOT}test/setup/openbao.sh`], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
  return binary;
}

export interface RealServer {
  /** `http://127.0.0.1:PORT` */
  addr: string;
  token: string;
  /** The binary's own name for itself and its release, e.g. `OpenBao v2.6.2`. */
  release: string;
  /** Environment for lockstep's implicit cluster. */
  env: Record<string, string>;
  /** The binary as a client (`bao read auth/ldap/config`), against this server; `namespace` sets BAO_NAMESPACE/VAULT_NAMESPACE. */
  client(args: string[], opts?: { namespace?: string; token?: string; env?: Record<string, string> }): Promise<CliResult>;
  /** Raw HTTP against the server, behind lockstep's back. */
  raw(method: string, path: string, body?: unknown, opts?: { namespace?: string; token?: string }): Promise<{ status: number; body: unknown; text: string }>;
  stop(): Promise<void>;
}

export async function startRealServer(token = `root-${Math.random().toString(36).slice(2)}`): Promise<RealServer> {
  const bin = realServerBinary();
  const { stdout: version } = await run(bin, ['version']);
  const launched = await launchOnFreePorts({
    name: bin,
    ports: 1,
    command: bin,
    args: ([port]) => ['server', '-dev', `-dev-root-token-id=${token}`, `-dev-listen-address=127.0.0.1:${port}`],
    probe: ([port]) => {
      const ask = answersHttp(`http://127.0.0.1:${port}/v1/sys/health`);
      return async () => {
        const res = (await ask()) as Response;
        if (res.status !== 200) throw new Error(`sys/health answered ${res.status}`);
      };
    },
    timeoutMs: 20_000,
  });
  const addr = `http://127.0.0.1:${launched.ports[0]!}`;
  return {
    addr,
    token,
    release: version.trim().split(' (')[0]!,
    env: { SERVICE_ADDR: addr, SERVICE_TOKEN: token },
    client: binaryClient(addr, token),
    raw: async (method, path, body, opts = {}) => {
      const headers: Record<string, string> = { 'X-Vault-Token': opts.token ?? token, 'Content-Type': 'application/json' };
      if (opts.namespace !== undefined) headers['X-Vault-Namespace'] = opts.namespace;
      const res = await fetch(`${addr}/v1/${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      const text = await res.text();
      return { status: res.status, body: jsonOrText(text), text };
    },
    stop: launched.stop,
  };
}

function jsonOrText(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** The binary as a client of the server at `addr` (`http://host:port`, no /v1), e.g. `lockstep serve`'s. */
export function binaryClient(addr: string, token: string): RealServer['client'] {
  const bin = realServerBinary();
  return (args, opts = {}) => {
    const ns: Record<string, string> = opts.namespace === undefined ? {} : { BAO_NAMESPACE: opts.namespace, VAULT_NAMESPACE: opts.namespace };
    const t = opts.token ?? token;
    return runBinary(bin, args, { BAO_ADDR: addr, VAULT_ADDR: addr, BAO_TOKEN: t, VAULT_TOKEN: t, ...ns, ...opts.env });
  };
}

/** Runs the binary as a client: a minimal environment (no HOME token helper, no user config), never a terminal. */
function runBinary(bin: string, args: string[], env: Record<string, string>): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(bin, args, { env: { PATH: process.env['PATH'] ?? '', HOME: '/nonexistent', ...env }, timeout: 30_000 }, (err, stdout, stderr) => {
      const code = err === null ? 0 : typeof err.code === 'number' ? err.code : -1;
      resolve({ code, stdout, stderr });
    });
  });
}

/** One real server for the tests of one file, started before them and stopped after. */
export function useRealServer(): () => RealServer {
  return useForFile(startRealServer, (s) => s.stop(), 60_000);
}
