// What the bench sends and how it measures, shared by the runners and the floor that runs in its
// own process: the object paths, the bodies that write them as the manifests declare them, the
// floor itself, and the runner of a measured process.
import { spawn } from 'node:child_process';
import http from 'node:http';

export const CONCURRENCY = 16;
export const GROUPS = 1000;
export const TOKEN = 'bench-root-token';
/** The LDAP method's config the manifests declare, and the floors' mounts are given. */
// A directory address that refuses at once: an apply's access review (which reads the directory
// when a plan changes who gets which policy) fails fast and says so, as with a directory down.
export const LDAP_CONFIG = { url: 'ldap://127.0.0.1:1', userdn: 'ou=people,dc=example,dc=com', userattr: 'uid', token_ttl: '1h' };

/** The CPU time this process has used so far, in ms (the embedded server's, as it runs here). */
const ownCpuMs = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};

/**
 * Runs a script of this folder (the CLI's `measure-cli.mjs`, a floor) as its own process;
 * resolves with the JSON it reports on fd 3, its stderr, and `serverCpuMs`: the CPU time the
 * server spent meanwhile, read by `serverCpu` (by default this process's, where the embedded
 * server runs).
 */
export function measureProcess(script, args, env = {}, serverCpu = ownCpuMs) {
  return new Promise((resolve, reject) => {
    const cpu0 = serverCpu();
    const child = spawn(process.execPath, [new URL(script, import.meta.url).pathname, ...args], {
      env: { ...process.env, ...env, NO_COLOR: '1' },
      stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
    });
    let report = '';
    let stderr = '';
    child.stdio[3].on('data', (d) => (report += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', () => {
      const serverCpuMs = serverCpu() - cpu0;
      try {
        resolve({ ...JSON.parse(report), stderr, serverCpuMs });
      } catch {
        reject(new Error(`${script} ${args.join(' ')} failed: ${stderr}`));
      }
    });
  });
}

/**
 * The requests the CLI sent, from the summary it prints on stderr (`concurrency: default: fixed
 * at 16 (...), 2,003 requests`): every attempt, retries included. NaN when it printed none.
 */
export function requestsReported(stderr) {
  const m = /^concurrency: .*, ([\d,]+) requests?$/m.exec(stderr);
  return m ? Number(m[1].replaceAll(',', '')) : NaN;
}

/** The middle value (the upper one of an even count). */
export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** The floor: `count` plain keep-alive requests at CONCURRENCY, no parsing beyond draining. */
export async function floor(baseUrl, method, paths, body) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const url = new URL(baseUrl);
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
  const ms = await timed(paths, one);
  agent.destroy();
  return ms;
}

/**
 * The same requests through lockstep's transport (src/client/transport.ts, on undici), the same
 * concurrency, no parsing beyond reading each whole answer: what lockstep's requests cost before
 * any of lockstep's own work. Resolves with the requests' wall time.
 */
export async function floorPool(baseUrl, method, paths, body) {
  const { createTransport } = await import(new URL('../../dist/client/transport.js', import.meta.url).href);
  const url = new URL(baseUrl);
  const transport = createTransport(url, { connectTimeoutMs: 10_000, maxConnections: CONCURRENCY, trust: { insecureSkipVerify: false } });
  const timedOut = () => new Error('timed out');
  const one = (p) => {
    const payload = body ? JSON.stringify(body(p)) : undefined;
    const headers = ['x-vault-token', TOKEN];
    if (payload) headers.push('content-type', 'application/json');
    return transport.send({ method, path: `${url.pathname}/${p}`, headers, body: payload, reusable: true, timeoutMs: 30_000, timedOut });
  };
  const ms = await timed(paths, one);
  transport.close();
  return ms;
}

/** Sends `one` for every path, CONCURRENCY at a time; resolves with the wall time it took. */
async function timed(paths, one) {
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < paths.length) await one(paths[next++]);
    }),
  );
  return performance.now() - t0;
}

/** The request body that writes the object at `p` as the manifests declare it. */
export function bodyOf(p) {
  const i = Number(p.slice(p.lastIndexOf('/') + 2));
  return p.includes('/users/')
    ? { policies: `own${i % 100}`, groups: [`g${i % GROUPS}`, `g${(i * 7) % GROUPS}`].join(',') }
    : { policies: `p${i % 50},shared` };
}

/** The objects the manifests declare, under the LDAP method mounted at `mount`. */
export function objectPaths(users, mount = 'ldap') {
  return [
    ...Array.from({ length: GROUPS }, (_, i) => `auth/${mount}/groups/g${i}`),
    ...Array.from({ length: users }, (_, i) => `auth/${mount}/users/u${i}`),
  ];
}

/**
 * Mounts a new LDAP method at `auth/<mount>` with the manifests' config and nothing else: POSTs
 * there create objects, as apply's do (creating costs the server more than re-writing what
 * exists). The config is written first, as apply writes it: the real server reads the method's
 * config on every read and write of a user or group (builtin/credential/ldap/path_users.go,
 * path_groups.go; without one stored it builds the defaults instead), so a floor on a method
 * without one would cost it something else.
 */
export async function freshMount(baseUrl, mount) {
  for (const [what, body] of [
    [`sys/auth/${mount}`, { type: 'ldap' }],
    [`auth/${mount}/config`, LDAP_CONFIG],
  ]) {
    const res = await fetch(`${baseUrl}/${what}`, { method: 'POST', headers: { 'X-Vault-Token': TOKEN }, body: JSON.stringify(body) });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`writing ${what}: ${res.status}`);
  }
  return mount;
}


/** The policies the manifests name (p0-p49, shared, own0-own99). */
export const POLICY_NAMES = [...Array.from({ length: 50 }, (_, i) => `p${i}`), 'shared', ...Array.from({ length: 100 }, (_, i) => `own${i}`)];

/**
 * Writes the policies the manifests name, as a healthy server holds them: a plan naming policies
 * that exist nowhere prints a located warning for each (engine/policies.ts), which is the
 * unusual path, not the drift check this bench measures.
 */
export async function preparePolicies(baseUrl) {
  // BENCH_MISSING_POLICIES=own99,p3: policies left out, so that a plan warns where they are named.
  const missing = new Set((process.env.BENCH_MISSING_POLICIES ?? '').split(',').filter(Boolean));
  for (const name of POLICY_NAMES.filter((n) => !missing.has(n))) {
    const res = await fetch(`${baseUrl}/sys/policies/acl/${name}`, { method: 'PUT', headers: { 'X-Vault-Token': TOKEN }, body: JSON.stringify({ policy: `path "secret/${name}/*" { capabilities = ["read"] }` }) });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`writing policy ${name}: ${res.status}`);
  }
}
