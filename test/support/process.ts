/**
 * Plumbing shared by the fixtures that run a real server in a child process (s3rver, azurite,
 * slapd): free loopback ports, spawning with captured stderr, polling readiness against a
 * deadline, stopping by PID and temp dirs. Kept free of any one server's details.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** How many times a launch is tried: a probed port can be taken before the server binds it. */
const LAUNCH_ATTEMPTS = 4;
const POLL_INTERVAL_MS = 50;
const STOP_GRACE_MS = 3000;

/** A port the OS just handed out on 127.0.0.1 (free at the time of asking, not reserved). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** A fresh directory under the OS temp dir, named `lockstep-<name>-XXXXXX`. */
export function makeTempDir(name: string): Promise<string> {
  return mkdtemp(join(tmpdir(), `lockstep-${name}-`));
}

export async function removeDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}


export function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

export interface SpawnedServer {
  child: ChildProcess;
  /** Everything the child wrote to stderr so far (shown when it fails to start). */
  stderr: () => string;
}

/** Spawns a server with stdout ignored and stderr captured; it is SIGKILLed if the test process exits first. */
export function spawnServer(command: string, args: string[]): SpawnedServer {
  const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  killOnProcessExit(child);
  return { child, stderr: () => stderr };
}

/** Best effort: never leave a server behind if a test file forgets stop(). */
function killOnProcessExit(child: ChildProcess): void {
  const onExit = () => {
    try {
      if (child.pid) process.kill(child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  process.once('exit', onExit);
  child.once('exit', () => process.removeListener('exit', onExit));
}

/**
 * Calls `probe` until it resolves, the child exits or `timeoutMs` passes. A rejecting probe
 * means "not yet".
 */
export async function waitUntilReady(
  child: ChildProcess,
  probe: () => Promise<unknown>,
  opts: { timeoutMs: number; what: string },
): Promise<void> {
  const deadline = Date.now() + opts.timeoutMs;
  while (Date.now() < deadline) {
    if (hasExited(child)) throw new Error(`exited (${child.exitCode ?? child.signalCode})`);
    try {
      await probe();
      return;
    } catch {
      await new Promise((r) => setTimeout(r, POLL_INTERVAL_MS));
    }
  }
  throw new Error(`timed out waiting for ${opts.what}`);
}

/** A readiness probe for HTTP servers: any answer at all (even 403) means listening. */
export function answersHttp(url: string): () => Promise<unknown> {
  return () => fetch(url, { signal: AbortSignal.timeout(1000) });
}

/** SIGTERM, then SIGKILL if it has not exited after a grace period; resolves once it exited. */
export async function stopByPid(child: ChildProcess, graceMs = STOP_GRACE_MS): Promise<void> {
  if (hasExited(child) || !child.pid) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  process.kill(child.pid, 'SIGTERM');
  const timer = setTimeout(() => {
    try {
      if (child.pid) process.kill(child.pid, 'SIGKILL');
    } catch {
      // exited in between
    }
  }, graceMs);
  await exited;
  clearTimeout(timer);
}

export interface LaunchSpec {
  /** Named in the error when every attempt failed. */
  name: string;
  /** How many free loopback ports the server needs. */
  ports: number;
  command: string;
  args(ports: number[]): string[];
  /** Resolves once the server on these ports serves requests. */
  probe(ports: number[]): () => Promise<unknown>;
  timeoutMs: number;
}

export interface LaunchedServer {
  child: ChildProcess;
  pid: number;
  ports: number[];
  /** stopByPid; safe to call more than once. */
  stop: () => Promise<void>;
}

/**
 * Starts a server on fresh ports and waits until it is ready; retries on new ports when an
 * attempt fails (typically a port taken between probe and bind).
 */
export async function launchOnFreePorts(spec: LaunchSpec): Promise<LaunchedServer> {
  let lastError: unknown;
  for (let attempt = 0; attempt < LAUNCH_ATTEMPTS; attempt++) {
    const ports: number[] = [];
    for (let i = 0; i < spec.ports; i++) ports.push(await freePort());
    const { child, stderr } = spawnServer(spec.command, spec.args(ports));
    try {
      await waitUntilReady(child, spec.probe(ports), { timeoutMs: spec.timeoutMs, what: spec.name });
      return { child, pid: child.pid!, ports, stop: () => stopByPid(child) };
    } catch (err) {
      lastError = new Error(`${spec.name} did not start: ${(err as Error).message}\n${stderr()}`);
      await stopByPid(child);
    }
  }
  throw lastError;
}

/** A launched server that owns a temp dir: stop() stops the server, then removes the dir. */
export type ServerInTempDir<L extends LaunchedServer> = L & { dir: string };

/**
 * Makes a temp dir (see makeTempDir), launches a server that keeps its files there, and runs
 * `setup` against it (a bucket to create, data to load). When any step fails, the server is
 * stopped and the dir removed before the error is passed on.
 */
export async function startServerInTempDir<L extends LaunchedServer, T>(
  name: string,
  launch: (dir: string) => Promise<L>,
  setup: (server: ServerInTempDir<L>) => Promise<T>,
): Promise<T> {
  const dir = await makeTempDir(name);
  let launched: L | undefined;
  try {
    launched = await launch(dir);
    const stopServer = launched.stop;
    const server: ServerInTempDir<L> = {
      ...launched,
      dir,
      stop: async () => {
        await stopServer();
        await removeDir(dir);
      },
    };
    return await setup(server);
  } catch (err) {
    await launched?.stop();
    await removeDir(dir);
    throw err;
  }
}
