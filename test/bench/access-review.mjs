// `npm run bench:access-review`: what the access review adds to a plan, against a directory of
// BENCH_DIR_USERS users (default 10,000) in BENCH_DIR_GROUPS groups (default 1,000), loaded
// into the test slapd (test/support/slapd.ts) as generated LDIF, and `lockstep serve` holding
// an LDAP method mapping every group. Two plans: one changes one group's policies (a change of
// mappings alone: the review reads the changed group's members only, affected-users.ts), the
// other the config's token_policies (every login changes: the review enumerates every user and
// resolves each one's groups as the login does). Each repetition runs each plan with
// `--access-review off` (the plan's own LDAP part) and with `require`; a row per plan gives
// medians, the ratio of the medians and the median of each repetition's own ratio: the issue's
// target is at most 2 (the review adds at most the time of the plan's LDAP part again). The directory is written with slapadd before slapd starts
// (ldapadd takes minutes for 10,000 users); BENCH_DIR_INDEXED=1 indexes the attributes the
// review's searches filter on (uid and cn for equality and substrings, the size limit's split
// being by prefix; member, uniqueMember, memberUid), as a production directory does: without,
// every search reads every entry under its base.
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';
import { measureProcess, median, preparePolicies, TOKEN } from './workload.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const USERS = Number(process.env.BENCH_DIR_USERS ?? 10_000);
const GROUPS = Number(process.env.BENCH_DIR_GROUPS ?? 1_000);
const REPEATS = Number(process.env.BENCH_REPEATS ?? 5);
const INDEXED = process.env.BENCH_DIR_INDEXED === '1';
// BENCH_RTT=<ms>: both servers that far away: serve's latency for the service, and a proxy in
// front of slapd that holds every chunk for half the round trip each way.
const RTT = Number(process.env.BENCH_RTT ?? 0);

// The test directory's helper is TypeScript: bundled next to dist/ so that its imports resolve.
const helper = path.join(ROOT, 'dist', 'bench-support', 'slapd.mjs');
await build({ input: path.join(ROOT, 'test/support/slapd.ts'), output: { file: helper, format: 'esm' }, platform: 'node', external: [/^[^./]/], logLevel: 'silent' });
const { startSlapd, ldapSettingsFor } = await import(helper);
const { startServer } = await import(new URL('../../dist/server/index.js', import.meta.url).href);

const suffix = 'dc=example,dc=com';
/** User i is in groups i mod GROUPS and 7i mod GROUPS: about 2 × USERS / GROUPS members a group. */
function directoryLdif() {
  const out = [`dn: ou=bench,${suffix}\nobjectClass: organizationalUnit\nou: bench\n`, `dn: ou=bench-groups,${suffix}\nobjectClass: organizationalUnit\nou: bench-groups\n`];
  for (let i = 0; i < USERS; i++) out.push(`dn: uid=b${i},ou=bench,${suffix}\nobjectClass: inetOrgPerson\nuid: b${i}\ncn: Bench ${i}\nsn: ${i}\n`);
  const members = Array.from({ length: GROUPS }, () => []);
  for (let i = 0; i < USERS; i++) for (const g of new Set([i % GROUPS, (i * 7) % GROUPS])) members[g].push(i);
  members.forEach((list, g) => {
    const lines = [`dn: cn=bg${g},ou=bench-groups,${suffix}`, 'objectClass: groupOfNames', `cn: bg${g}`];
    for (const i of list.length > 0 ? list : [0]) lines.push(`member: uid=b${i},ou=bench,${suffix}`);
    out.push(lines.join('\n') + '\n');
  });
  return out.join('\n') + '\n';
}

async function writePolicy(baseUrl, name) {
  const res = await fetch(`${baseUrl}/sys/policies/acl/${name}`, { method: 'PUT', headers: { 'X-Vault-Token': TOKEN }, body: JSON.stringify({ policy: `path "secret/${name}/*" { capabilities = ["read"] }` }) });
  if (!res.ok) throw new Error(`writing policy ${name}: ${res.status}`);
}

/** slapd's CPU time so far (user and system, from /proc), in ms. */
function slapdCpuMs() {
  const fields = readFileSync(`/proc/${slapd.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  // utime and stime: the 14th and 15th fields of stat, in clock ticks (100 a second on Linux).
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** `changed`: 'group' adds a policy to one group, 'token_policies' one to every login. */
function manifest(changed) {
  const s = ldapSettingsFor({ url: slapd.url, suffix });
  const groups = Array.from({ length: GROUPS }, (_, g) => `  bg${g}: { policies: [p${g % 50}${g === 0 && changed === 'group' ? ', reviewed' : ''}] }`).join('\n');
  return `apiVersion: lockstep/v1
kind: LdapAuth
mount: bench
config:
  url: ${directory?.url ?? s.url}
  binddn: ${s.binddn}
  bindpass: \${env:LDAP_BINDPASS}
  userdn: ou=bench,${suffix}
  userattr: uid
  groupdn: ou=bench-groups,${suffix}
  token_policies: [${changed === 'token_policies' ? 'reviewed' : ''}]
groups:
${groups}
`;
}

const loadStarted = performance.now();
// No size limit of its own: slapd's default (500 a search) applies to the service account.
const slapd = await startSlapd({ offlineLdif: directoryLdif(), indexes: INDEXED ? ['objectClass eq', 'uid eq,sub', 'cn eq,sub', 'member,uniqueMember,memberUid eq'] : [] });
const loadMs = performance.now() - loadStarted;
const server = await startServer({ port: 0, rootToken: TOKEN, ...(RTT > 0 ? { latencyMs: RTT } : {}) });
const directory = RTT > 0 ? await delayingProxy(slapd.url, RTT / 2) : undefined;
const dir = await mkdtemp(path.join(tmpdir(), 'lockstep-bench-access-'));
try {
  // The policies the manifests name exist, as on a healthy server: else each name is a located
  // warning whose position costs a parse of the whole file, in both plans alike.
  await preparePolicies(server.clusters[0].baseUrl);
  await writePolicy(server.clusters[0].baseUrl, 'reviewed');
  const env = { SERVICE_ADDR: server.clusters[0].baseUrl, SERVICE_TOKEN: TOKEN, LDAP_BINDPASS: ldapSettingsFor(slapd).bindpass };
  const before = path.join(dir, 'before.yaml');
  const plans = [
    { label: 'plan of one group changed (the review reads its members only)', file: path.join(dir, 'group.yaml'), changed: 'group' },
    { label: 'plan of token_policies changed (the review reads every user)', file: path.join(dir, 'token-policies.yaml'), changed: 'token_policies' },
  ];
  await writeFile(before, manifest(undefined));
  for (const plan of plans) await writeFile(plan.file, manifest(plan.changed));
  const applied = await measureProcess('./measure-cli.mjs', ['apply', before, '--auto-approve', '--access-review', 'off'], { ...env, BENCH_CPU_PROF: '' });
  if (applied.code !== 0) throw new Error(`apply exited ${applied.code}: ${applied.stderr}`);

  // BENCH_CLI_B=<path to another build's dist/cli.js>: that build runs too, interleaved with
  // this one in every repetition (an A/B that meets the same machine; one row each).
  const variants = [{ name: 'this build', env: {} }, ...(process.env.BENCH_CLI_B ? [{ name: 'BENCH_CLI_B', env: { BENCH_CLI: process.env.BENCH_CLI_B } }] : [])];
  // runs[plan][variant]: one { off, on } per repetition.
  const runs = plans.map(() => variants.map(() => []));
  for (let rep = 0; rep < REPEATS; rep++) {
    for (const [p, plan] of plans.entries()) {
      for (const [v, variant] of variants.entries()) {
        const off = await measureProcess('./measure-cli.mjs', ['plan', plan.file, '--access-review', 'off'], { ...env, ...variant.env, BENCH_CPU_PROF: '' });
        const slapdCpu0 = slapdCpuMs();
        // BENCH_CPU_PROF=<dir>: the reviewed plan writes a V8 CPU profile there (measure-cli.mjs).
        const on = await measureProcess('./measure-cli.mjs', ['plan', plan.file, '--access-review', 'require', '--format', 'json'], { ...env, ...variant.env, BENCH_COUNT_LDAP: '1' });
        on.slapdCpuMs = slapdCpuMs() - slapdCpu0;
        if (off.code !== 0 || on.code !== 0) throw new Error(`plan exited ${off.code} / ${on.code}: ${on.stderr}`);
        runs[p][v].push({ off, on });
      }
    }
  }
  const f = (ms) => `${(ms / 1000).toFixed(2)} s`;
  const n = (x) => x.toLocaleString('en-US');
  console.log(`lockstep bench: the access review, ${n(USERS)} directory users in ${n(GROUPS)} groups (slapd${INDEXED ? ', uid, cn and member attributes indexed' : ', no indexes'}, loaded in ${f(loadMs)})${RTT > 0 ? `, ${RTT} ms away` : ''}, serve; medians of ${REPEATS} runs`);
  for (const [p, plan] of plans.entries()) {
    console.log(`| ${plan.label} | users | groups | wall, review off | wall, review on | review adds | ratio | ratio per run (range) | CPU off / on | slapd CPU | searches (size-limited) | entries | peak RSS |`);
    console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|');
    for (const [v, variant] of variants.entries()) {
      const m = (pick) => median(runs[p][v].map(pick));
      const off = m((r) => r.off.wallMs);
      const on = m((r) => r.on.wallMs);
      const rss = Math.max(...runs[p][v].map((r) => r.on.maxRssKb));
      // Each repetition's own ratio (its off and on plans run back to back), then their median,
      // as the main bench does: the medians of the two columns may come from different minutes
      // of a machine whose speed drifts.
      const perRun = runs[p][v].map((r) => r.on.wallMs / r.off.wallMs);
      const paired = `${median(perRun).toFixed(2)} (${Math.min(...perRun).toFixed(2)}-${Math.max(...perRun).toFixed(2)})`;
      const { ldap } = runs[p][v][0].on;
      const label = variants.length > 1 ? `${variant.name}: off / require` : '--access-review off / require';
      console.log(
        `| ${label} | ${n(USERS)} | ${n(GROUPS)} | ${f(off)} | ${f(on)} | ${f(on - off)} | ${(on / off).toFixed(2)} | ${paired} | ${f(m((r) => r.off.cpuMs))} / ${f(m((r) => r.on.cpuMs))} | ${f(m((r) => r.on.slapdCpuMs))} | ${n(ldap.searches)} (${n(ldap.sizeLimited)}) | ${n(ldap.entries)} | ${Math.round(rss / 1024)} MB |`,
      );
    }
  }
} finally {
  await server.close();
  await directory?.close();
  await slapd.stop();
  await rm(dir, { recursive: true, force: true });
}

/** A TCP proxy to `url`'s host and port that holds every chunk for `holdMs`, each way. */
async function delayingProxy(url, holdMs) {
  const { createServer, connect } = await import('node:net');
  const target = new URL(url);
  const sockets = new Set();
  const pipe = (from, to) => {
    sockets.add(from);
    from.on('data', (chunk) => setTimeout(() => to.write(chunk), holdMs));
    from.on('end', () => setTimeout(() => to.end(), holdMs));
    from.on('error', () => to.destroy());
    from.on('close', () => sockets.delete(from));
  };
  const proxy = createServer((client) => {
    const upstream = connect(Number(target.port), target.hostname);
    pipe(client, upstream);
    pipe(upstream, client);
  });
  await new Promise((listening) => proxy.listen(0, '127.0.0.1', listening));
  return {
    url: `ldap://127.0.0.1:${proxy.address().port}`,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((closed) => proxy.close(closed));
    },
  };
}
