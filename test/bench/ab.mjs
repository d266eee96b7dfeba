// A/B of CLI variants on one server, interleaved: `node test/bench/ab.mjs USERS REPEATS` with
// BENCH_VARIANTS a JSON object {name: {"args": [node flags], "cli": path?, "env": {...}?}}.
// Each repeat runs every variant's plan (of what the first apply wrote) and apply (under a
// fresh mount), in turn, so they meet the same machine; prints each variant's median CPU time,
// wall time and peak memory. CPU is the measure on a shared machine (every thread of the CLI's process).
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { bodyOf, CONCURRENCY, floor, freshMount, objectPaths, TOKEN, preparePolicies } from './workload.mjs';
import { manifests } from './manifests.mjs';

const users = Number(process.argv[2] ?? 1000);
const repeats = Number(process.argv[3] ?? 3);
const variants = JSON.parse(process.env.BENCH_VARIANTS ?? '{"head":{"args":[]}}');
const defaultCli = new URL('../../dist/cli.js', import.meta.url).pathname;
const measureCli = new URL('./measure-cli.mjs', import.meta.url).pathname;
const { startServer } = await import(new URL('../../dist/server/index.js', import.meta.url).href);

const dir = await mkdtemp(path.join(tmpdir(), 'lockstep-bench-ab-'));
const server = await startServer({ port: 0, rootToken: TOKEN });
const baseUrl = server.clusters[0].baseUrl;
const env = { ...process.env, SERVICE_ADDR: baseUrl, SERVICE_TOKEN: TOKEN, NO_COLOR: '1' };

const run = (variant, args) =>
  new Promise((resolve, reject) => {
    const argv = [...(variant.args ?? []), measureCli, ...args, '--concurrency', String(CONCURRENCY), '--verbose'];
    const child = spawn(process.execPath, argv, { env: { ...env, ...variant.env, BENCH_CLI: variant.cli ?? defaultCli }, stdio: ['ignore', 'ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let report = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.stdio[3].on('data', (d) => (report += d));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 || (code === 2 && args[0] === 'plan') ? resolve(JSON.parse(report)) : reject(new Error(`${args[0]} exited ${code}: ${stderr}`))));
  });

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
try {
  const warm = await freshMount(baseUrl, 'bench-warm-up');
  await preparePolicies(baseUrl);
  await floor(baseUrl, 'POST', objectPaths(users, warm), bodyOf);
  await floor(baseUrl, 'GET', objectPaths(users, warm));
  const file = (mount) => path.join(dir, `${mount}.yaml`);
  await writeFile(file('bench-0'), manifests(users, 'bench-0'));
  await run(Object.values(variants)[0], ['apply', file('bench-0'), '--auto-approve']);
  const results = Object.fromEntries(Object.keys(variants).map((name) => [name, { plan: [], apply: [] }]));
  let mounts = 1;
  for (let r = 0; r < repeats; r++) {
    for (const [name, variant] of Object.entries(variants)) {
      results[name].plan.push(await run(variant, ['plan', file('bench-0'), '--detailed-exitcode']));
      const mount = `bench-${mounts++}`;
      await writeFile(file(mount), manifests(users, mount));
      results[name].apply.push(await run(variant, ['apply', file(mount), '--auto-approve']));
    }
  }
  for (const [name, { plan, apply }] of Object.entries(results)) {
    const line = (rs) => `CPU ${(median(rs.map((x) => x.cpuMs)) / 1000).toFixed(3)} s [${rs.map((x) => (x.cpuMs / 1000).toFixed(2)).join(' ')}], wall ${(median(rs.map((x) => x.wallMs)) / 1000).toFixed(2)} s, RSS ${(median(rs.map((x) => x.maxRssKb)) / 1024).toFixed(0)} MB`;
    console.log(`${users} ${name.padEnd(12)} plan  ${line(plan)}`);
    console.log(`${users} ${name.padEnd(12)} apply ${line(apply)}`);
  }
} finally {
  await server.close();
  await rm(dir, { recursive: true, force: true });
}
