// Runs one lockstep command in this process and reports wall time, CPU time and peak memory (maxRSS)
// on file descriptor 3 as JSON, so the bench runner measures the CLI alone.
import { writeSync } from 'node:fs';
import { threadCpu } from './thread-cpu.mjs';

// Timed from before the CLI's modules load: start-up is part of what a user waits for.
const t0 = performance.now();
const cpu0 = process.cpuUsage();
// BENCH_COUNT_LDAP=1: the LDAP requests the run sent, counted where ldapts sends them (steadier
// than times on a shared machine); only where the command loads ldapts anyway.
// BENCH_CPU_PROF=<dir>: a V8 CPU profile of the run written there (open it in Chrome's DevTools).
const profiler = process.env.BENCH_CPU_PROF ? await startProfile() : undefined;
const ldap = process.env.BENCH_COUNT_LDAP === '1' ? await countLdapRequests() : undefined;
// BENCH_CLI: another build's dist/cli.js (one-row.mjs, for an A/B).
const cli = await import(process.env.BENCH_CLI ? new URL(`file://${process.env.BENCH_CLI}`).href : new URL('../../dist/cli.js', import.meta.url).href);
const { main } = cli;
// What the CLI's entry sets before any command runs (V8's budget), when this build has it.
cli.tuneV8ForShortRun?.(cli.nodeFlags());
let outBytes = 0;
const output = {
  out: (t) => (outBytes += t.length),
  err: (t) => process.stderr.write(t.endsWith('\n') ? t : t + '\n'),
  color: false,
  interactive: false,
  prompt: async () => '',
};
const code = await main(process.argv.slice(2), output);
const wallMs = performance.now() - t0;
const cpu = process.cpuUsage(cpu0);
await profiler?.stop();
// CPU time of every thread of the process (the garbage collector's helpers included).
const cpuMs = (cpu.user + cpu.system) / 1000;
writeSync(3, JSON.stringify({ code, wallMs, cpuMs, maxRssKb: process.resourceUsage().maxRSS, outBytes, threads: threadCpu(), ...(ldap ? { ldap } : {}) }) + '\n');
process.exitCode = code;

/** Searches sent (each page one), entries they returned, and those that ended at a size limit. */
async function countLdapRequests() {
  const { Client, SearchRequest } = await import('ldapts');
  const counts = { searches: 0, entries: 0, sizeLimited: 0 };
  const send = Client.prototype._send;
  Client.prototype._send = async function (message) {
    const result = await send.call(this, message);
    if (message instanceof SearchRequest) {
      counts.searches++;
      counts.entries += result?.searchEntries?.length ?? 0;
      if (result?.status === 4) counts.sizeLimited++;
    }
    return result;
  };
  return counts;
}

/** The inspector's CPU profiler, started now; `stop` writes the profile to BENCH_CPU_PROF. */
async function startProfile() {
  const { Session } = await import('node:inspector/promises');
  const { mkdirSync, writeFileSync } = await import('node:fs');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  return {
    async stop() {
      const { profile } = await session.post('Profiler.stop');
      mkdirSync(process.env.BENCH_CPU_PROF, { recursive: true });
      writeFileSync(`${process.env.BENCH_CPU_PROF}/lockstep-${process.pid}.cpuprofile`, JSON.stringify(profile));
      session.disconnect();
    },
  };
}
