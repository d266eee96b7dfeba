// One row of the bench alone, for profiling the CLI's process and nothing else:
// `node test/bench/one-row.mjs plan|apply USERS [WRAPPER...]` starts `serve` in this process,
// warms it up, writes the bench's manifests (under a mount of their own), applies them first
// when the row is a plan (so the plan finds no changes, as the bench's does), then runs
// `[WRAPPER...] node measure-cli.mjs plan|apply FILE --concurrency 16 --verbose` as its own
// process, as the bench does; `pool-plan` and `pool-apply` run the pool floor of the same row
// instead (floor-process.mjs: the same requests through lockstep's transport, bare). The wrapper is what measures it, e.g.
//   node test/bench/one-row.mjs plan 1000 valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.out
// and BENCH_NODE_ARGS gives node flags, e.g.
//   BENCH_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' node test/bench/one-row.mjs apply 10000
// BENCH_CLI=PATH runs another build's dist/cli.js (an A/B against a copy of the tree before);
// BENCH_SHOW_STDERR=1 shows the CLI's stderr (its --verbose lines, a probe's or a trace's output).
// Prints the CLI's exit code, wall and CPU time and peak memory, as measure-cli.mjs reports them.
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { bodyOf, CONCURRENCY, floor, freshMount, objectPaths, TOKEN, preparePolicies } from './workload.mjs';
import { manifests } from './manifests.mjs';

const [command, usersArg, ...wrapper] = process.argv.slice(2);
const ROWS = ['plan', 'apply', 'pool-plan', 'pool-apply'];
if (!ROWS.includes(command) || !/^\d+$/.test(usersArg ?? '')) {
  throw new Error(`usage: node test/bench/one-row.mjs ${ROWS.join('|')} USERS [WRAPPER...]`);
}
const users = Number(usersArg);
const cliPath = process.env.BENCH_CLI ?? new URL('../../dist/cli.js', import.meta.url).pathname;
const script = (name) => new URL(name, import.meta.url).pathname;
const { startServer } = await import(new URL('../../dist/server/index.js', import.meta.url).href);

const dir = await mkdtemp(path.join(tmpdir(), 'lockstep-bench-row-'));
const server = await startServer({ port: 0, rootToken: TOKEN });
const baseUrl = server.clusters[0].baseUrl;
const env = { ...process.env, SERVICE_ADDR: baseUrl, SERVICE_TOKEN: TOKEN, NO_COLOR: '1' };

/** Runs `argv` to its end, its output discarded (stderr kept for a failure's message). */
const run = (argv) =>
  new Promise((resolve, reject) => {
    // fd 3: measure-cli's report (wall and CPU time, peak memory).
    const child = spawn(argv[0], argv.slice(1), { env: { ...env, BENCH_CLI: cliPath }, stdio: ['ignore', 'ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let report = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.stdio[3].on('data', (d) => (report += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr, report: report ? JSON.parse(report) : undefined }));
  });

try {
  const warm = await freshMount(baseUrl, 'bench-warm-up');
  await preparePolicies(baseUrl);
  await floor(baseUrl, 'POST', objectPaths(users, warm), bodyOf);
  await floor(baseUrl, 'GET', objectPaths(users, warm));

  const file = path.join(dir, 'ldap.yaml');
  await writeFile(file, manifests(users, 'bench-0'));
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  // Through measure-cli.mjs, as the bench runs it (its output counted, not written).
  const cli = (args, flags = []) => [process.execPath, ...flags, script('./measure-cli.mjs'), ...args, '--concurrency', String(CONCURRENCY), '--verbose'];
  if (command.endsWith('plan')) {
    const applied = await run(cli(['apply', file, '--auto-approve']));
    if (applied.code !== 0) throw new Error(`apply before the plan exited ${applied.code}: ${applied.stderr}`);
  }
  // The pool floors: the same requests through lockstep's transport bare (floor-process.mjs),
  // the reads of what the apply wrote, or the writes under a fresh mount.
  const pool = async (method) => [process.execPath, ...nodeArgs, script('./floor-process.mjs'), baseUrl, method, String(users), method === 'GET' ? 'bench-0' : await freshMount(baseUrl, 'floor-pool'), 'pool'];
  const argv = {
    plan: () => cli(['plan', file, '--detailed-exitcode'], nodeArgs),
    apply: () => cli(['apply', file, '--auto-approve'], nodeArgs),
    'pool-plan': () => pool('GET'),
    'pool-apply': () => pool('POST'),
  }[command];
  const measured = await run([...wrapper, ...(await argv())]);
  // valgrind's own summary goes to stderr: shown, as is the CLI's on failure, and all of it with
  // BENCH_SHOW_STDERR=1 (what a --import'ed probe or a temporary trace writes there).
  const shown = (l) => l.startsWith('==') || measured.code !== 0 || process.env.BENCH_SHOW_STDERR === '1';
  process.stderr.write(measured.stderr.split('\n').filter(shown).join('\n') + '\n');
  const r = measured.report;
  const s = (ms) => `${(ms / 1000).toFixed(2)} s`;
  const rss = r?.maxRssKb === undefined ? '' : `, peak RSS ${(r.maxRssKb / 1024).toFixed(0)} MB`;
  // Since the process started (start-up included, unlike CPU): the main thread, and the others.
  const threads = r?.threads ? `, threads: main ${s(r.threads.mainMs)}, others ${s(r.threads.helpersMs)}` : '';
  console.log(`${command} ${users} users: exit ${measured.code}${r ? `, wall ${s(r.wallMs)}, CPU ${s(r.cpuMs)}${rss}${threads}` : ''}`);
  if (measured.code !== 0) process.exitCode = 1;
} finally {
  await server.close();
  await rm(dir, { recursive: true, force: true });
}
