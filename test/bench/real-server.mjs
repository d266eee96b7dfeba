// The real server for the bench: OpenBao's `bao server -dev` (the binary test/setup/openbao.sh
// installs, or LOCKSTEP_TEST_SERVER_BIN), unsealed, in memory, with the bench's root token, on a
// free loopback port, as test/support/real-server.ts starts it for the tests (that one is
// TypeScript and not built; the bench runs on dist/ with plain Node).
//
// One difference, on purpose: the in-memory storage runs without transactions
// (BENCH_BAO_STORAGE=inmem, the default). bao 2.6's dev storage begins a transaction for every
// request that touches an LDAP user or group, and beginning one copies the whole store under one
// lock (sdk/physical/inmem/inmem.go, TransactionalInmemBackend.BeginTx:
// `radix.NewFromMap(i.root.ToMap())`): 1.5 ms of the server's CPU a request with 2,000 objects
// stored, 14 ms with 13,000, every request waiting on the one before. A bench on it would time
// that copy, not lockstep; production storage (raft) and Vault's in-memory storage have no such
// copy. BENCH_BAO_STORAGE=dev runs the stock dev storage all the same.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

const ATTEMPTS = 4;
const READY_TIMEOUT_MS = 20_000;
const STOP_GRACE_MS = 3_000;
const STORAGE = process.env.BENCH_BAO_STORAGE ?? 'inmem';
if (STORAGE !== 'inmem' && STORAGE !== 'dev') throw new Error(`BENCH_BAO_STORAGE must be inmem or dev, not ${STORAGE}`);

/** The server binary's path, installed when missing by the same script `npm test` runs first. */
export function realServerBinary() {
  const script = new URL('../setup/openbao.sh', import.meta.url).pathname;
  return execFileSync('bash', [script], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
}

/** How the server's storage runs, for the table's heading. */
export const storageLabel = STORAGE === 'inmem' ? 'in memory, without transactions' : "bao's stock dev storage (in memory, a transaction per request)";

/**
 * Starts `bao server -dev` with root token `token` on a free loopback port and waits until it
 * answers sys/health with 200; retries on a new port when an attempt fails (a port taken between
 * asking for it and binding it). Resolves with its `/v1` base URL, its release, the CPU time its
 * process has used so far (a function), and stop().
 */
export async function startRealServer(token) {
  const bin = realServerBinary();
  const release = execFileSync(bin, ['version'], { encoding: 'utf8' }).trim().split(' (')[0];
  const dir = await mkdtemp(path.join(tmpdir(), 'lockstep-bench-bao-'));
  const config = path.join(dir, 'storage.hcl');
  await writeFile(config, 'storage "inmem" {\n  disable_transactions = "true"\n}\n');
  let lastError;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const port = await freePort();
    const args = ['server', '-dev', `-dev-root-token-id=${token}`, `-dev-listen-address=127.0.0.1:${port}`];
    if (STORAGE === 'inmem') args.push(`-config=${config}`);
    // stdout (the dev banner, with its unseal key) is never read; stderr is kept for a failure.
    const child = spawn(bin, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr = (stderr + d).slice(-4000)));
    const kill = () => child.kill('SIGKILL');
    process.once('exit', kill);
    const baseUrl = `http://127.0.0.1:${port}/v1`;
    try {
      await waitUntilReady(child, baseUrl);
      const stop = async () => {
        process.removeListener('exit', kill);
        await stopChild(child);
        await rm(dir, { recursive: true, force: true });
      };
      return { baseUrl, release, cpuMs: cpuOf(child.pid), stop };
    } catch (err) {
      lastError = new Error(`${bin} server -dev did not start: ${err.message}\n${stderr}`);
      process.removeListener('exit', kill);
      await stopChild(child);
    }
  }
  await rm(dir, { recursive: true, force: true });
  throw lastError;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

async function waitUntilReady(child, baseUrl) {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`exited (${child.exitCode ?? child.signalCode})`);
    try {
      const res = await fetch(`${baseUrl}/sys/health`, { signal: AbortSignal.timeout(1000) });
      await res.arrayBuffer();
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('timed out waiting for sys/health');
}

/** SIGTERM, then SIGKILL after a grace period; resolves once the process exited. */
async function stopChild(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
  await exited;
  clearTimeout(timer);
}

/**
 * The CPU time (user + system, every thread) process `pid` has used so far, in ms, from
 * /proc/PID/stat; NaN where there is no /proc.
 */
function cpuOf(pid) {
  let ticksPerSecond = 100;
  try {
    ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    // getconf missing: Linux's usual 100
  }
  return () => {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // Fields after the command name (which may hold spaces), from field 3 (state) on:
      // utime and stime are fields 14 and 15.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
    } catch {
      return NaN;
    }
  };
}
