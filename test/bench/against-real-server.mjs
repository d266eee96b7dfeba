// The bench's rows against the real server (see real-server.mjs): plan and apply of the same
// workload as against `serve`, next to the pool floor (the same requests through lockstep's
// transport, on undici, bare, at the same concurrency, from a process of its own), interleaved
// run by run. Requests are the CLI's own count (its stderr summary): the real server counts none
// it would tell. Each size runs BENCH_BAO_REPEATS times (default 5 up to 2,000 users, else 3: a
// run of 10,000 users against the real server takes about as long as three against `serve`).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { bodyOf, CONCURRENCY, floor, freshMount, GROUPS, measureProcess, median, objectPaths, requestsReported, TOKEN, preparePolicies } from './workload.mjs';
import { manifests } from './manifests.mjs';
import { startRealServer, storageLabel } from './real-server.mjs';

const repeatsFor = (users) => Number(process.env.BENCH_BAO_REPEATS ?? (users <= 2000 ? 5 : 3));

/** Runs the workload at each size against a fresh real server; resolves with a row per size. */
export async function benchRealServer(sizes) {
  const rows = [];
  let release = '';
  for (const users of sizes) {
    const dir = await mkdtemp(path.join(tmpdir(), 'lockstep-bench-bao-'));
    const server = await startRealServer(TOKEN);
    release = server.release;
    try {
      rows.push(await benchOneSize(server, users, dir));
    } finally {
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    }
  }
  return { release, storage: storageLabel, rows };
}

async function benchOneSize(server, users, dir) {
  const { baseUrl, cpuMs } = server;
  const env = { SERVICE_ADDR: baseUrl, SERVICE_TOKEN: TOKEN };
  const resources = GROUPS + users + 2; // + mount + config
  const measure = (script, args, withEnv = {}) => measureProcess(script, args, withEnv, cpuMs);
  const cli = async (args) => {
    // --verbose: the request count comes from the concurrency summary, printed only when asked.
    const m = await measure('./measure-cli.mjs', [...args, '--concurrency', String(CONCURRENCY), '--verbose'], env);
    if (m.code !== 0) throw new Error(`lockstep ${args[0]} against ${server.release} exited ${m.code}: ${m.stderr}`);
    return { ...m, requests: requestsReported(m.stderr) };
  };
  const poolFloor = (method, mount) => measure('./floor-process.mjs', [baseUrl, method, String(users), mount, 'pool']);

  // Warm the server up (Go's heap and scheduler, its caches) before the first measured run.
  const warm = await freshMount(baseUrl, 'bench-warm-up');
  await preparePolicies(baseUrl);
  await floor(baseUrl, 'POST', objectPaths(users, warm), bodyOf);
  await floor(baseUrl, 'GET', objectPaths(users, warm));

  const runs = [];
  const repeats = repeatsFor(users);
  for (let rep = 0; rep < repeats; rep++) {
    // Apply creates the mount (it is missing), its config and every object; its floor creates
    // the same objects under a fresh mount of its own.
    const mount = `bench-${rep}`;
    const file = path.join(dir, `ldap-${rep}.yaml`);
    await writeFile(file, manifests(users, mount));
    const apply = await cli(['apply', file, '--auto-approve']);
    const applyFloor = await poolFloor('POST', await freshMount(baseUrl, `floor-pool-${rep}`));
    const plan = await cli(['plan', file, '--detailed-exitcode']);
    const planFloor = await poolFloor('GET', mount);
    runs.push({ apply, applyFloor, plan, planFloor });
  }
  const summary = (cmd) => {
    const med = (pick) => median(runs.map(pick));
    const ratios = runs.map((r) => r[cmd].wallMs / r[`${cmd}Floor`].wallMs);
    return {
      wallMs: med((r) => r[cmd].wallMs),
      floorMs: med((r) => r[`${cmd}Floor`].wallMs),
      // Each run's own ratio, then their median (as against `serve`, see run.mjs).
      ratio: median(ratios),
      ratioRange: [Math.min(...ratios), Math.max(...ratios)],
      requests: med((r) => r[cmd].requests),
      maxRssKb: Math.max(...runs.map((r) => r[cmd].maxRssKb)),
      cpu: {
        cli: med((r) => r[cmd].cpuMs),
        cliServer: med((r) => r[cmd].serverCpuMs),
        floor: med((r) => r[`${cmd}Floor`].cpuMs),
        floorServer: med((r) => r[`${cmd}Floor`].serverCpuMs),
      },
    };
  };
  return { users, resources, repeats, plan: summary('plan'), apply: summary('apply') };
}

/** Prints the rows as the bench's second and third tables. */
export function printRealServerRows({ release, storage, rows }) {
  const f = (ms) => `${(ms / 1000).toFixed(2)} s`;
  console.log(
    `\nAgainst the real server: ${release} server -dev, ${storage}, concurrency ${CONCURRENCY}, medians of ${rows.map((r) => `${r.repeats} runs (${r.users} users)`).join(', ')}`,
  );
  console.log('command  users   resources  wall      pool floor  ratio  (runs)        req/resource  peak RSS');
  for (const r of rows) {
    for (const name of ['plan', 'apply']) {
      const m = r[name];
      const range = `(${m.ratioRange.map((x) => x.toFixed(2)).join('-')})`;
      console.log(
        `${name.padEnd(5)}    ${String(r.users).padEnd(7)} ${String(r.resources).padEnd(10)} ${f(m.wallMs).padEnd(9)} ${f(m.floorMs).padEnd(11)} ${m.ratio.toFixed(2).padEnd(6)} ${range.padEnd(13)} ${(m.requests / r.resources).toFixed(3).padEnd(13)} ${(m.maxRssKb / 1024).toFixed(0)} MB`,
      );
    }
  }
  console.log('\nCPU time against the real server (medians), client and server:');
  console.log('command  users   lockstep  its server  pool floor  its server');
  for (const r of rows) {
    for (const name of ['plan', 'apply']) {
      const c = r[name].cpu;
      console.log(`${name.padEnd(5)}    ${String(r.users).padEnd(7)} ${f(c.cli).padEnd(9)} ${f(c.cliServer).padEnd(11)} ${f(c.floor).padEnd(11)} ${f(c.floorServer)}`);
    }
  }
}
