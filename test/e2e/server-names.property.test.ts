import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { parseAllDocuments } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import type { OutputSink } from '../../src/commands/output.js';
import { MountPath } from '../../src/core/mount-path.js';
import { segmentProblem } from '../../src/core/path-segment.js';
import { goToLower } from '../../src/values/index.js';
import { startRequestRecorder, type RequestRecorder } from '../support/request-recorder.js';
import { startTestServer, type TestCluster } from '../support/server.js';

// Issue 25.1, "bytes in, bytes out": names read from the server are kept as the exact text it
// sent, a name whose bytes that text cannot carry (U+FFFD, a lone surrogate) is never acted on,
// and every write goes to a name that was declared or listed, byte for byte. Generated mount
// paths of one segment or more, and names on the server made with raw requests from any
// characters (lone surrogates, U+FFFD, bytes that are not UTF-8, "..", "%", "/", mixed case),
// go through plan, apply with prune, plan again and export → plan against `serve`, through a
// relay that records every request line as sent.

const RUNS = Number(process.env['LOCKSTEP_PROPERTY_RUNS'] ?? 15);

let cluster: TestCluster;
let recorder: RequestRecorder;
let dir: string;

beforeAll(async () => {
  cluster = await startTestServer();
  recorder = await startRequestRecorder(cluster.baseUrl);
  dir = await mkdtemp(path.join(tmpdir(), 'lockstep-server-names-'));
  process.env['SERVICE_ADDR'] = recorder.baseUrl;
  process.env['SERVICE_TOKEN'] = cluster.token;
});
afterAll(async () => {
  await recorder.close();
  await cluster.server.close();
  await rm(dir, { recursive: true, force: true });
});

async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const sink: OutputSink = {
    out: (t) => void (out += t.endsWith('\n') ? t : `${t}\n`),
    err: (t) => void (err += t.endsWith('\n') ? t : `${t}\n`),
    color: false,
    interactive: false,
    prompt: () => Promise.resolve(''),
  };
  const code = await main(args, sink);
  return { code, out, err };
}

/** Text as bytes the way a Go client would send it: UTF-8, a lone surrogate as its 3-byte form (WTF-8). */
function wtf8(text: string): number[] {
  const bytes: number[] = [];
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (cp >= 0xd800 && cp <= 0xdfff) bytes.push(0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f));
    else bytes.push(...Buffer.from(ch, 'utf8'));
  }
  return bytes;
}

/** A name's bytes as one percent-encoded segment (every byte but unreserved ASCII escaped). */
function encodeBytes(bytes: readonly number[]): string {
  return bytes.map((b) => (/[A-Za-z0-9_~-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`)).join('');
}

/** A raw request with the target exactly as given (fetch would normalise `%2e%2e`). */
function send(method: string, target: string, body?: unknown): Promise<{ status: number; text: string }> {
  const url = new URL(cluster.baseUrl);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, method, path: `/v1/${target}`, headers: { 'X-Vault-Token': cluster.token, 'Content-Type': 'application/json' } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** The group names the server lists, as the exact strings of its JSON. */
async function listedGroups(mountTarget: string): Promise<string[]> {
  const res = await send('GET', `auth/${mountTarget}/groups?list=true`);
  if (res.status === 404) return [];
  return ((JSON.parse(res.text) as { data: { keys: string[] } }).data.keys ?? []).slice().sort();
}

/** Strict UTF-8 of a request target's path, each segment percent-decoded once; undefined when the bytes are not UTF-8. */
function decodedTarget(target: string): string[] | undefined {
  const segments = target.split('?')[0]!.replace(/^\/v1\//, '').split('/');
  try {
    return segments.map((s) => new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(s.replace(/%([0-9A-Fa-f]{2})|(.)/gs, (_, hex: string | undefined, ch: string | undefined) => (hex ? String.fromCharCode(parseInt(hex, 16)) : ch!)), 'latin1')));
  } catch {
    return undefined;
  }
}

const hostileUnit = fc.oneof(
  fc.constantFrom('a', 'B', 'z', 'Σ', 'İ', '%', '/', '.', '..', '?', '#', ' ', '\uFFFD', '\uD800', '\uDFFF', '\uDBFF', 'é', '€'),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
);
/** Names someone made on the server behind lockstep's back: any text, sent as its (WTF-8) bytes, or raw bytes that are not UTF-8. */
const serverName = fc.oneof(
  fc.string({ unit: hostileUnit, minLength: 1, maxLength: 5 }).map((text) => wtf8(text)),
  fc.tuple(fc.constantFrom('a', 'Q', 'x'), fc.constantFrom(0xff, 0xc3, 0x80, 0xed)).map(([head, byte]) => [...Buffer.from(head), byte]),
);

/** A name a manifest may declare (the validation rules), in any case. */
const declaredName = fc
  .string({ minLength: 1, maxLength: 6, unit: fc.constantFrom(...'abXY09 ?#%&=+é€ΣİΑ-._'.split('')) })
  .filter((s) => segmentProblem(s) === undefined && s.trim() === s && !s.includes(','));

/** A mount path of one to three segments (never starting with "z": the stray mount's). */
const mountPath = fc
  .array(fc.string({ minLength: 1, maxLength: 5, unit: fc.constantFrom(...'abXY09-_.%?é€'.split('')) }), { minLength: 1, maxLength: 3 })
  .map((segments) => segments.join('/'))
  .filter((text) => MountPath.parse(text).ok);

const yamlString = (s: string): string => JSON.stringify(s);

describe('issue 25.1: bytes in, bytes out', () => {
  it('property: generated mount paths and server names through plan, apply --prune, plan, export → plan against serve', async () => {
    await fc.assert(
      fc.asyncProperty(mountPath, fc.boolean(), fc.array(serverName, { maxLength: 6 }), fc.array(declaredName, { maxLength: 4 }), async (mountText, caseSensitive, names, declaredRaw) => {
        const mount = MountPath.of(mountText);
        const mountTarget = mount.segments.map((s) => encodeBytes(wtf8(s))).join('/');
        // A second LDAP mount whose path is not UTF-8: listed as "zz\ufffd/", never exported or touched.
        const strayTarget = 'zz%FF';
        try {
          expect((await send('POST', `sys/auth/${mountTarget}`, { type: 'ldap' })).status).toBe(204);
          expect((await send('POST', `sys/auth/${strayTarget}`, { type: 'ldap' })).status).toBe(204);
          await send('POST', `auth/${mountTarget}/config`, { case_sensitive_names: caseSensitive });
          // Made behind lockstep's back; the server refuses some (not UTF-8, "..", control characters).
          for (const bytes of names) await send('POST', `auth/${mountTarget}/groups/${encodeBytes(bytes)}`, { policies: 'p' });
          const before = await listedGroups(mountTarget);

          const canonical = (n: string): string => (caseSensitive ? n : goToLower(n));
          const declared = [...new Map(declaredRaw.map((n) => [canonical(n), n])).values()];
          const declaredCanonical = new Set(declared.map(canonical));
          const file = path.join(dir, 'ldap.yaml');
          await writeFile(
            file,
            // The manifest says how the server keys names (case_sensitive_names), as it must for declared names in mixed case.
            ['apiVersion: lockstep/v1', 'kind: LdapAuth', `mount: ${yamlString(mountText)}`, 'prune: true', `config: { case_sensitive_names: ${caseSensitive} }`, 'groups:', ...declared.map((g) => `  ${yamlString(g)}: { policies: [dev] }`), declared.length === 0 ? '  {}' : '', ''].join('\n'),
          );

          const plan = await cli(['plan', file, '--format', 'json']);
          expect(plan.code, plan.err).toBe(0);

          recorder.requests.length = 0;
          const apply = await cli(['apply', file, '--auto-approve', '--allow-destructive']);
          expect(apply.code, apply.err + apply.out).toBe(0);
          const groupsPrefix = ['auth', ...mount.segments, 'groups'];
          for (const w of recorder.requests.filter((r) => r.method !== 'GET' && r.method !== 'LIST')) {
            const segments = decodedTarget(w.target);
            expect(segments, `${w.method} ${w.target}: bytes that are not UTF-8`).toBeDefined();
            const name = segments!.at(-1)!;
            expect(segments!.slice(0, -1), `${w.method} ${w.target}`).toEqual(groupsPrefix);
            expect(segmentProblem(name), `${w.method} ${w.target}`).toBeUndefined();
            // Declared (as the server keys it) or listed, byte for byte.
            expect(declaredCanonical.has(name) || before.includes(name), `${w.method} ${w.target}: neither declared nor listed`).toBe(true);
          }

          // Names lockstep cannot address are still there; the others are exactly the declared ones.
          const after = await listedGroups(mountTarget);
          const unaddressable = before.filter((n) => segmentProblem(n) !== undefined);
          expect(after.filter((n) => segmentProblem(n) !== undefined)).toEqual(unaddressable);
          expect(after.filter((n) => segmentProblem(n) === undefined)).toEqual([...declaredCanonical].sort());

          const again = await cli(['plan', file, '--detailed-exitcode']);
          expect(again.code, again.out + again.err).toBe(0);

          const out = path.join(dir, 'export');
          await rm(out, { recursive: true, force: true });
          const exported = await cli(['export', '--out', out]);
          expect(exported.code, exported.err).toBe(0);
          expect(exported.err).toMatch(/zz\\ufffd\/|zz\uFFFD\//);
          const docs = (await Promise.all((await readdir(out)).map((f) => readFile(path.join(out, f), 'utf8')))).flatMap((t) => parseAllDocuments(t).map((d) => d.toJS() as Record<string, unknown>));
          expect(docs.filter((d) => d['kind'] === 'LdapAuth').map((d) => d['mount'])).toEqual([mountText]);
          const replanned = await cli(['plan', out, '--detailed-exitcode']);
          expect(replanned.code, replanned.out + replanned.err).toBe(0);
          // The stray mount was never touched.
          expect(JSON.parse((await send('GET', 'sys/auth')).text)).toHaveProperty(['data', 'zz\uFFFD/', 'type'], 'ldap');
        } finally {
          await send('DELETE', `sys/auth/${mountTarget}`);
          await send('DELETE', `sys/auth/${strayTarget}`);
        }
      }),
      { numRuns: RUNS },
    );
  }, 300_000);
});
