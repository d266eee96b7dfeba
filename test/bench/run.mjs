// `npm run bench`: plan and apply of 1,000 and 10,000 LDAP users plus 1,000 groups against the
// embedded server, each next to a floor measured in the same run against the same server: the
// same number of plain keep-alive GETs (for plan) and POSTs (for apply) at the same concurrency.
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';

const { startServer } = await import(new URL('../../dist/server/index.js', import.meta.url).href);
const CONCURRENCY = 16;
const GROUPS = 1000;
const SIZES = (process.env.BENCH_SIZES ?? '1000,10000').split(',').map(Number);
const TOKEN = 'bench-root-token';

function manifests(users) {
  const groups = Array.from({ length: GROUPS }, (_, i) => `  g${i}: { policies: [p${i % 50}, shared] }`).join('\n');
  const userLines = Array.from({ length: users }, (_, i) => `  u${i}: { policies: [own${i % 100}], groups: [g${i % GROUPS}, g${(i * 7) % GROUPS}] }`).join('\n');
  return `apiVersion: lockstep/v1
kind: LdapAuth
config:
  url: ldap://ldap.example.com
  userdn: ou=people,dc=example,dc=com
  userattr: uid
  token_ttl: 1h
groups:
${groups}
---
apiVersion: lockstep/v1
kind: LdapAuth
users:
${userLines}
`;
}

function measureCli(args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [new URL('./measure-cli.mjs', import.meta.url).pathname, ...args], {
      env: { ...process.env, ...env, NO_COLOR: '1' },
      stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
    });
    let report = '';
    let stderr = '';
    child.stdio[3].on('data', (d) => (report += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', () => {
      try {
        resolve(JSON.parse(report));
      } catch {
        reject(new Error(`CLI failed: ${stderr}`));
      }
    });
  });
}

/** The floor: `count` plain keep-alive requests at CONCURRENCY, no parsing beyond draining. */
async function floor(baseUrl, method, paths, body) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const url = new URL(baseUrl);
  let next = 0;
  const one = (p) =>
    new Promise((resolve, reject) => {
      const payload = body ? JSON.stringify(body(p)) : undefined;
      const req = http.request(
        { agent, host: url.hostname, port: url.port, method, path: `${url.pathname}/${p}`, headers: { 'X-Vault-Token': TOKEN, ...(payload ? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) } : {}) } },
        (res) => {
          res.resume();
          res.on('end', resolve);
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < paths.length) await one(paths[next++]);
    }),
  );
  agent.destroy();
  return performance.now() - t0;
}

/** The request body that writes the object at `p` as the manifests declare it. */
function bodyOf(p) {
  const i = Number(p.slice(p.lastIndexOf('/') + 2));
  return p.includes('/users/')
    ? { policies: `own${i % 100}`, groups: [`g${i % GROUPS}`, `g${(i * 7) % GROUPS}`].join(',') }
    : { policies: `p${i % 50},shared` };
}

function objectPaths(users) {
  return [
    ...Array.from({ length: GROUPS }, (_, i) => `auth/ldap/groups/g${i}`),
    ...Array.from({ length: users }, (_, i) => `auth/ldap/users/u${i}`),
  ];
}

// The fixed part of every command: loading the CLI's modules (`--version` does nothing else).
// Median of five, so the reader can tell start-up from per-object cost.
const startups = [];
for (let i = 0; i < 5; i++) startups.push((await measureCli(['--version'], {})).wallMs);
const startupMs = startups.sort((a, b) => a - b)[2];

const rows = [];
for (const users of SIZES) {
  const dir = await mkdtemp(path.join(tmpdir(), 'lockstep-bench-'));
  const file = path.join(dir, 'ldap.yaml');
  await writeFile(file, manifests(users));
  const server = await startServer({ port: 0, rootToken: TOKEN });
  const baseUrl = server.clusters[0].baseUrl;
  const env = { SERVICE_ADDR: baseUrl, SERVICE_TOKEN: TOKEN };
  const resources = GROUPS + users + 2; // + mount + config
  const count = () => server.stats?.().requests ?? NaN;

  let before = count();
  const apply = await measureCli(['apply', file, '--auto-approve', '--concurrency', String(CONCURRENCY)], env);
  const applyRequests = count() - before;
  if (apply.code !== 0) throw new Error(`apply exited ${apply.code}`);
  // The floor re-writes exactly what the manifests hold, so the state stays the applied one.
  const applyFloor = await floor(baseUrl, 'POST', objectPaths(users), bodyOf);

  before = count();
  const plan = await measureCli(['plan', file, '--detailed-exitcode', '--concurrency', String(CONCURRENCY)], env);
  const planRequests = count() - before;
  if (plan.code !== 0) throw new Error(`plan after apply exited ${plan.code} (expected no changes)`);
  const planFloor = await floor(baseUrl, 'GET', objectPaths(users));

  rows.push({ users, groups: GROUPS, resources, apply, applyFloor, applyRequests, plan, planFloor, planRequests });
  await server.close();
  await rm(dir, { recursive: true, force: true });
}

const f = (ms) => `${(ms / 1000).toFixed(2)} s`;
console.log(`lockstep bench: LDAP users + ${GROUPS} groups against lockstep serve (in memory), concurrency ${CONCURRENCY}`);
console.log('command  users   resources  wall      floor     ratio  req/resource  peak RSS');
for (const r of rows) {
  for (const [name, m, fl, req] of [
    ['plan ', r.plan, r.planFloor, r.planRequests],
    ['apply', r.apply, r.applyFloor, r.applyRequests],
  ]) {
    console.log(
      `${name}    ${String(r.users).padEnd(7)} ${String(r.resources).padEnd(10)} ${f(m.wallMs).padEnd(9)} ${f(fl).padEnd(9)} ${(m.wallMs / fl).toFixed(2).padEnd(6)} ${(req / r.resources).toFixed(3).padEnd(13)} ${(m.maxRssKb / 1024).toFixed(0)} MB`,
    );
  }
}
console.log(`CLI start-up (lockstep --version, median of 5): ${f(startupMs)}, included in every wall time above`);
if (rows.length > 1) {
  const [a, b] = [rows[0], rows[rows.length - 1]];
  const growth = (x, y) => ((y.wallMs / b.resources) / (x.wallMs / a.resources)).toFixed(2);
  console.log(`per-resource cost, ${b.users} vs ${a.users} users: plan x${growth(a.plan, b.plan)}, apply x${growth(a.apply, b.apply)} (1.00 = linear)`);
}
