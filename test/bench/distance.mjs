// `npm run bench:distance`: plan and apply of 10,000 LDAP users plus 1,000 groups against
// `lockstep serve --latency MS` at several distances (BENCH_LATENCIES, default 0,5,20,50 ms),
// with the default flags (`--concurrency auto`), with `--concurrency 16` (the fixed number of
// before), and with the default flags against `serve --rate-limit 64`. Each configuration runs
// BENCH_REPEATS times (default 3), the three interleaved so that they meet the same machine;
// the table gives medians. Per row: wall time, requests the server received, those it refused
// (429), the most requests the CLI had in flight (from its stderr summary), and the floor
// N·RTT/C: N requests, one latency each, C at a time, C being that peak.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GROUPS, measureProcess, median, TOKEN } from './workload.mjs';
import { manifests } from './manifests.mjs';

const { startServer } = await import(new URL('../../dist/server/index.js', import.meta.url).href);
const USERS = Number(process.env.BENCH_USERS ?? 10_000);
const LATENCIES = (process.env.BENCH_LATENCIES ?? '0,5,20,50').split(',').map(Number);
const REPEATS = Number(process.env.BENCH_REPEATS ?? 3);
const RATE_LIMIT = 64;
const VARIANTS = (process.env.BENCH_VARIANTS ?? 'default,c16,limit64').split(',');

/** `concurrency: default: auto settled at 112 (peak 128 in flight, ...)` → { limit, peak }. */
function concurrencyOf(stderr) {
  const m = /concurrency: \S+: (?:auto settled|fixed) at (\d+) \(peak (\d+) in flight/.exec(stderr);
  return m ? { limit: Number(m[1]), peak: Number(m[2]) } : { limit: NaN, peak: NaN };
}

const dir = await mkdtemp(path.join(tmpdir(), 'lockstep-bench-distance-'));
const rows = [];
for (const latencyMs of LATENCIES) {
  // One server per configuration of the server: a plain one, and one with the quota.
  const plain = await startServer({ port: 0, rootToken: TOKEN, latencyMs });
  const limited = await startServer({ port: 0, rootToken: TOKEN, latencyMs, rateLimit: RATE_LIMIT });
  const variants = {
    default: { server: plain, flags: [] },
    c16: { server: plain, flags: ['--concurrency', '16'] },
    limit64: { server: limited, flags: [] },
  };
  const results = Object.fromEntries(VARIANTS.map((v) => [v, { apply: [], plan: [] }]));
  for (let rep = 0; rep < REPEATS; rep++) {
    for (const name of VARIANTS) {
      const { server, flags } = variants[name];
      const env = { SERVICE_ADDR: server.clusters[0].baseUrl, SERVICE_TOKEN: TOKEN };
      const file = path.join(dir, `ldap-${latencyMs}-${name}-${rep}.yaml`);
      await writeFile(file, manifests(USERS, `d${latencyMs}-${name}-${rep}`));
      for (const [command, args] of [
        // --verbose: the peak in flight comes from the concurrency summary, printed only when asked.
        ['apply', ['apply', file, '--auto-approve', '--verbose']],
        ['plan', ['plan', file, '--detailed-exitcode', '--verbose']],
      ]) {
        const before = server.stats();
        const run = await measureProcess('./measure-cli.mjs', [...args, ...flags], env);
        if (run.code !== 0) throw new Error(`${command} (${name}, ${latencyMs} ms) exited ${run.code}: ${run.stderr}`);
        const after = server.stats();
        results[name][command].push({
          wallMs: run.wallMs,
          requests: after.requests - before.requests,
          refused: after.refused - before.refused,
          maxRssKb: run.maxRssKb,
          ...concurrencyOf(run.stderr),
        });
      }
    }
  }
  for (const name of VARIANTS) {
    for (const command of ['plan', 'apply']) {
      const runs = results[name][command];
      const med = (pick) => median(runs.map(pick));
      const requests = med((r) => r.requests);
      const peak = med((r) => r.peak);
      rows.push({
        latencyMs,
        name,
        command,
        wallMs: med((r) => r.wallMs),
        requests,
        refused: med((r) => r.refused),
        peak,
        limit: med((r) => r.limit),
        floorMs: (requests * latencyMs) / peak,
        maxRssKb: Math.max(...runs.map((r) => r.maxRssKb)),
      });
    }
  }
  await plain.close();
  await limited.close();
}
await rm(dir, { recursive: true, force: true });

const label = { default: 'default (auto)', c16: '--concurrency 16', limit64: `default, --rate-limit ${RATE_LIMIT}` };
const s = (ms) => `${(ms / 1000).toFixed(2)} s`;
console.log(`lockstep bench at a distance: ${USERS.toLocaleString('en-US')} LDAP users + ${GROUPS.toLocaleString('en-US')} groups, serve --latency MS, medians of ${REPEATS} runs`);
console.log('| latency | flags | command | wall | requests | refused (429) | peak in flight | settled at | floor N·RTT/peak | wall / floor | peak RSS |');
console.log('|---|---|---|---|---|---|---|---|---|---|---|');
for (const r of rows) {
  const ratio = r.latencyMs === 0 ? '–' : (r.wallMs / r.floorMs).toFixed(2);
  console.log(
    `| ${r.latencyMs} ms | ${label[r.name]} | ${r.command} | ${s(r.wallMs)} | ${r.requests.toLocaleString('en-US')} | ${r.refused} | ${r.peak} | ${r.limit} | ${s(r.floorMs)} | ${ratio} | ${(r.maxRssKb / 1024).toFixed(0)} MB |`,
  );
}
console.log('\nSpeed-up of the default over --concurrency 16, and the quota run against N·RTT/64:');
for (const latencyMs of LATENCIES) {
  for (const command of ['plan', 'apply']) {
    const get = (name) => rows.find((r) => r.latencyMs === latencyMs && r.name === name && r.command === command);
    const [auto, c16, limited] = [get('default'), get('c16'), get('limit64')];
    const parts = [];
    if (auto && c16) parts.push(`default ${(c16.wallMs / auto.wallMs).toFixed(2)}x faster than --concurrency 16`);
    if (limited && latencyMs > 0) {
      const floor64 = (limited.requests * latencyMs) / RATE_LIMIT;
      parts.push(`against --rate-limit ${RATE_LIMIT}: ${((100 * limited.refused) / limited.requests).toFixed(2)}% refused, ${(limited.wallMs / floor64).toFixed(2)}x N·RTT/${RATE_LIMIT} (${s(floor64)})`);
    }
    console.log(`${String(latencyMs).padStart(3)} ms ${command.padEnd(5)}: ${parts.join('; ')}`);
  }
}
