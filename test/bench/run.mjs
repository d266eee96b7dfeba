// `npm run bench`: plan and apply of 1,000 and 10,000 LDAP users plus 1,000 groups against the
// embedded server, each next to a floor measured in the same run against the same server: the
// same number of plain keep-alive GETs (for plan) and POSTs (for apply) at the same concurrency,
// sent from this process (next to the server) and from a process of its own (as the CLI runs).
// Each size runs BENCH_REPEATS times (default 9 up to 2,000 users, where a run takes seconds and
// the machine's drift weighs most, else 5), the CLI and its floors interleaved so that they
// meet the same machine; the table gives medians. Then the same against the real server
// (against-real-server.mjs, BENCH_BAO_REPEATS). BENCH_SERVERS=serve or =bao runs one side only.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { bodyOf, CONCURRENCY, floor, freshMount, GROUPS, measureProcess, median, objectPaths, requestsReported, TOKEN, preparePolicies } from './workload.mjs';
import { manifests } from './manifests.mjs';
import { benchRealServer, printRealServerRows } from './against-real-server.mjs';

const { startServer } = await import(new URL('../../dist/server/index.js', import.meta.url).href);
const SIZES = (process.env.BENCH_SIZES ?? '1000,10000').split(',').map(Number);
const repeatsFor = (users) => Number(process.env.BENCH_REPEATS ?? (users <= 2000 ? 9 : 5));
const SERVERS = (process.env.BENCH_SERVERS ?? 'serve,bao').split(',');
for (const s of SERVERS) if (s !== 'serve' && s !== 'bao') throw new Error(`BENCH_SERVERS: unknown server ${s} (serve, bao)`);

// The fixed part of every command: loading the CLI's modules (`--version` does nothing else).
// Median of five, so the reader can tell start-up from per-object cost.
const startups = [];
for (let i = 0; i < 5; i++) startups.push((await measureProcess('./measure-cli.mjs', ['--version'], {})).wallMs);
const startupMs = median(startups);

const rows = [];
for (const users of SERVERS.includes('serve') ? SIZES : []) {
  const dir = await mkdtemp(path.join(tmpdir(), 'lockstep-bench-'));
  const server = await startServer({ port: 0, rootToken: TOKEN });
  const baseUrl = server.clusters[0].baseUrl;
  const env = { SERVICE_ADDR: baseUrl, SERVICE_TOKEN: TOKEN };
  const resources = GROUPS + users + 2; // + mount + config
  const count = () => server.stats?.().requests ?? NaN;
  const cli = async (args) => {
    const before = count();
    // --verbose: the concurrency summary (with the request count) is printed only when asked.
    const m = await measureProcess('./measure-cli.mjs', [...args, '--concurrency', String(CONCURRENCY), '--verbose'], env);
    const requests = count() - before;
    // Against the real server the rows count what the CLI reports it sent: checked here against
    // what the server received.
    if (requestsReported(m.stderr) !== requests) console.warn(`warning: lockstep ${args[0]} reported ${requestsReported(m.stderr)} requests, the server counted ${requests}`);
    return { ...m, requests };
  };

  // Warm the server up first (its JIT, its allocator) so that neither the CLI nor a floor pays
  // for running against a cold server.
  const warm = await freshMount(baseUrl, 'bench-warm-up');
  await preparePolicies(baseUrl);
  await floor(baseUrl, 'POST', objectPaths(users, warm), bodyOf);
  await floor(baseUrl, 'GET', objectPaths(users, warm));

  const runs = [];
  const repeats = repeatsFor(users);
  for (let rep = 0; rep < repeats; rep++) {
    // Every repetition applies to a mount of its own, so each apply creates every object.
    const mount = `bench-${rep}`;
    const file = path.join(dir, `ldap-${rep}.yaml`);
    await writeFile(file, manifests(users, mount));

    const apply = await cli(['apply', file, '--auto-approve']);
    if (apply.code !== 0) throw new Error(`apply exited ${apply.code}`);
    // Each floor creates the same objects, with the same bodies, under a fresh mount of its own
    // (re-writing the applied ones would cost the server less).
    const applyFloor = await floor(baseUrl, 'POST', objectPaths(users, await freshMount(baseUrl, `floor-here-${rep}`)), bodyOf);
    const applyFloorOwn = await measureProcess('./floor-process.mjs', [baseUrl, 'POST', String(users), await freshMount(baseUrl, `floor-own-${rep}`)], {});
    const applyFloorPool = await measureProcess('./floor-process.mjs', [baseUrl, 'POST', String(users), await freshMount(baseUrl, `floor-pool-${rep}`), 'pool'], {});

    const plan = await cli(['plan', file, '--detailed-exitcode']);
    if (plan.code !== 0) throw new Error(`plan after apply exited ${plan.code} (expected no changes)`);
    const planFloor = await floor(baseUrl, 'GET', objectPaths(users, mount));
    const planFloorOwn = await measureProcess('./floor-process.mjs', [baseUrl, 'GET', String(users), mount], {});
    const planFloorPool = await measureProcess('./floor-process.mjs', [baseUrl, 'GET', String(users), mount, 'pool'], {});
    runs.push({ apply, applyFloor, applyFloorOwn, applyFloorPool, plan, planFloor, planFloorOwn, planFloorPool });
  }
  const med = (pick) => median(runs.map(pick));
  const summary = (cmd) => {
    const ownRatios = runs.map((r) => r[cmd].wallMs / r[`${cmd}FloorOwn`].wallMs);
    return {
      wallMs: med((r) => r[cmd].wallMs),
      maxRssKb: Math.max(...runs.map((r) => r[cmd].maxRssKb)),
      requests: med((r) => r[cmd].requests),
      floor: med((r) => r[`${cmd}Floor`]),
      floorOwn: med((r) => r[`${cmd}FloorOwn`].wallMs),
      // Each run's own ratio, then their median: a run's CLI and floors meet the same minute of a
      // machine whose speed drifts, where the medians of the columns may come from different runs.
      ratio: med((r) => r[cmd].wallMs / r[`${cmd}Floor`]),
      ratioOwn: median(ownRatios),
      ratioOwnRange: [Math.min(...ownRatios), Math.max(...ownRatios)],
      floorPool: med((r) => r[`${cmd}FloorPool`].wallMs),
      ratioPool: med((r) => r[cmd].wallMs / r[`${cmd}FloorPool`].wallMs),
      cpu: {
        cli: med((r) => r[cmd].cpuMs),
        cliServer: med((r) => r[cmd].serverCpuMs),
        floor: med((r) => r[`${cmd}FloorOwn`].cpuMs),
        floorServer: med((r) => r[`${cmd}FloorOwn`].serverCpuMs),
        pool: med((r) => r[`${cmd}FloorPool`].cpuMs),
      },
    };
  };
  rows.push({ users, resources, repeats, plan: summary('plan'), apply: summary('apply') });
  await server.close();
  await rm(dir, { recursive: true, force: true });
}

const real = SERVERS.includes('bao') ? await benchRealServer(SIZES) : undefined;

const f = (ms) => `${(ms / 1000).toFixed(2)} s`;
if (rows.length > 0) printServeRows();
if (real) printRealServerRows(real);
console.log(`CLI start-up (lockstep --version, median of 5): ${f(startupMs)}, included in every wall time`);

/** The table against `serve`, with its three floors, and the CPU time of each side. */
function printServeRows() {
  console.log(`lockstep bench: LDAP users + ${GROUPS} groups against lockstep serve (in memory), concurrency ${CONCURRENCY}, medians of ${rows.map((r) => `${r.repeats} runs (${r.users} users)`).join(', ')}`);
  // Three floors: Node's http client in this process, next to the server (client and server share
  // one core), and from a process of its own, as the CLI runs (start-up excluded); and lockstep's
  // own transport from a process of its own. Each ratio is the median of the runs' ratios (see
  // summary), so it may differ a little from the two medians beside it divided.
  console.log('command  users   resources  wall      floor     ratio  own floor  ratio  pool floor  ratio  req/resource  peak RSS');
  for (const r of rows) {
    for (const name of ['plan', 'apply']) {
      const m = r[name];
      console.log(
        `${name.padEnd(5)}    ${String(r.users).padEnd(7)} ${String(r.resources).padEnd(10)} ${f(m.wallMs).padEnd(9)} ${f(m.floor).padEnd(9)} ${m.ratio.toFixed(2).padEnd(6)} ${f(m.floorOwn).padEnd(10)} ${m.ratioOwn.toFixed(2).padEnd(6)} ${f(m.floorPool).padEnd(11)} ${m.ratioPool.toFixed(2).padEnd(6)} ${(m.requests / r.resources).toFixed(3).padEnd(13)} ${(m.maxRssKb / 1024).toFixed(0)} MB`,
      );
    }
  }
  console.log(
    `own-process ratio, lowest and highest of the runs: ${rows.flatMap((r) => ['plan', 'apply'].map((n) => `${n} ${r.users} ${r[n].ratioOwnRange.map((x) => x.toFixed(2)).join('-')}`)).join(', ')}`,
  );
  // Where the time goes: the CLI (or the own-process floor) and the server run side by side, and
  // when both are busy the wall time follows their CPU time summed over the machine's cores.
  console.log(`\nCPU time (medians), client and server, on ${availableParallelism()} cores:`);
  console.log('command  users   lockstep  its server  own floor  its server  pool floor');
  for (const r of rows) {
    for (const name of ['plan', 'apply']) {
      const c = r[name].cpu;
      console.log(`${name.padEnd(5)}    ${String(r.users).padEnd(7)} ${f(c.cli).padEnd(9)} ${f(c.cliServer).padEnd(11)} ${f(c.floor).padEnd(10)} ${f(c.floorServer).padEnd(11)} ${f(c.pool)}`);
    }
  }
  if (rows.length > 1) {
    const [a, b] = [rows[0], rows[rows.length - 1]];
    const growth = (x, y) => ((y.wallMs / b.resources) / (x.wallMs / a.resources)).toFixed(2);
    console.log(`per-resource cost, ${b.users} vs ${a.users} users: plan x${growth(a.plan, b.plan)}, apply x${growth(a.apply, b.apply)} (1.00 = linear)`);
  }
}
