import fc from 'fast-check';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../helpers.js';
import { ManualClock } from '../../support/manual-clock.js';
import { activationToken, DR, member, REFUSAL, type Member } from '../replication/support.js';

/**
 * #13.7: one canonical request path (namespace header + path, decoded once, cleaned) that the
 * route, the token check and the DR gate all decide on. Follows the real service: the API
 * handler (hashicorp/vault http/handler.go) puts the request through Go's ServeMux, which
 * redirects a path with `.`/`..`/empty segments to its cleaned form (301), and through
 * cleanhttp.PrintablePathCheckHandler (400 for non-printable characters); the logical path is
 * the decoded URL path relative to the request's namespace (http/logical.go,
 * buildLogicalRequestNoAuth: `ns.TrimmedPath(r.URL.Path[len("/v1/"):])`).
 */
let server: Awaited<ReturnType<typeof startTestServer>>;
let primary: Member;
let secondary: Member;

beforeAll(async () => {
  // A clock that stands still: sys/health's server_time_utc is then the same for the two
  // spellings of a request, whichever second each one is answered in.
  server = await startTestServer({ clusters: ['pri', 'sec'], clock: new ManualClock(Date.parse('2031-02-03T04:05:06Z')) });
  [primary, secondary] = server.clusters.map(member) as [Member, Member];
  expect((await primary.api.post(`${DR}/primary/enable`, {})).status).toBe(204);
  const token = await activationToken(primary, 'sec');
  expect((await secondary.api.post(`${DR}/secondary/enable`, { token })).status).toBe(204);
});
afterAll(() => server.close());

interface Answer {
  status: number;
  body: string;
  location: string | null;
}

/** Sends the request target byte for byte (fetch would resolve `..` and `%2e` itself). */
function send(port: number, method: string, target: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path: target, headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body: text, location: res.headers.location ?? null }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Answers without their request ids, which differ between two calls. */
function comparable(answer: Answer): Answer {
  return { ...answer, body: answer.body.replace(/"request_id":"[^"]*"/, '"request_id":""') };
}

describe('#13.7 one canonical request path', () => {
  it('#13.7: a namespace header cannot steer a request past the DR gate (the finding as given)', async () => {
    const res = await send(secondary.cluster.port, 'POST', `/v1/${DR}/secondary/pwn`, { 'X-Vault-Namespace': 'sys/auth', 'Content-Type': 'application/json' }, JSON.stringify({ type: 'ldap' }));
    expect(res.status).not.toBe(204);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body).errors[0]).toMatch(/namespace/);
  });

  it('#13.7: a header namespace that is not a namespace name is refused on any cluster, token or not', async () => {
    for (const header of ['sys/auth', 'sys', 'auth', 'a/../sys', 'a//b', '.', 'a/auth']) {
      for (const token of [primary.cluster.rootToken, undefined]) {
        const res = await send(primary.cluster.port, 'POST', '/v1/x', { 'X-Vault-Namespace': header, ...(token ? { 'X-Vault-Token': token } : {}) }, JSON.stringify({ type: 'ldap' }));
        expect(res.status, header).toBe(400);
      }
    }
    // Nothing was enabled by any of them.
    expect(Object.keys((await primary.api.get('sys/auth')).body.data)).toEqual(['token/']);
  });

  it('#13.7: a namespace (header or path prefix) in front of a DR secondary endpoint is gated', async () => {
    for (const [header, path] of [['team', `${DR}/secondary/pwn`], ['', `team/${DR}/secondary/pwn`], ['a/b', `c/${DR}/status`]] as const) {
      const res = await send(secondary.cluster.port, 'POST', `/v1/${path}`, header ? { 'X-Vault-Namespace': header } : {}, '{}');
      expect(res.status, `${header} ${path}`).toBe(400);
      expect(JSON.parse(res.body).errors).toEqual([REFUSAL]);
    }
  });

  it('#13.7: dot segments and empty segments are redirected to the cleaned path, as Go\'s ServeMux does (http/handler.go)', async () => {
    const res = await send(secondary.cluster.port, 'POST', `/v1/${DR}/secondary/../../../../sys/auth/x?a=1`, {}, JSON.stringify({ type: 'ldap' }));
    expect(res.status).toBe(301);
    expect(res.location).toBe('/v1/sys/auth/x?a=1');
    expect((await send(primary.cluster.port, 'GET', '/v1//sys//health')).location).toBe('/v1/sys/health');
    expect((await send(primary.cluster.port, 'GET', '/v1/sys/./health')).location).toBe('/v1/sys/health');
  });

  it('#13.7: encoded dot segments, encoded empty segments, bad escapes and non-printable characters are refused with 400', async () => {
    for (const target of [
      `/v1/${DR}/secondary/%2e%2e/%2E%2E/%2e%2e/%2e%2e/sys/auth/x`,
      `/v1/${DR}/secondary/..%2F..%2F..%2F..%2Fsys/auth/x`,
      `/v1/sys/auth/%2e`,
      `/v1/sys%2F%2Fauth/x`,
      `/v1/sys/auth/x%2F`,
      `/v1/sys/auth/%zz`,
      `/v1/sys/auth/%`,
      `/v1/sys/auth/a%00b`,
      `/v1/sys/auth/a%0Ab`,
      // Go's unicode.IsPrint refuses these too: a C1 control, the right-to-left override, a no-break space.
      `/v1/sys/auth/a%C2%9Bb`,
      `/v1/sys/auth/a%E2%80%AEb`,
      `/v1/sys/auth/a%C2%A0b`,
    ]) {
      for (const cluster of [primary, secondary]) {
        const res = await send(cluster.cluster.port, 'POST', target, { 'X-Vault-Token': cluster.cluster.rootToken }, JSON.stringify({ type: 'ldap' }));
        expect(res.status, `${cluster.name} ${target}`).toBe(400);
      }
    }
    expect(Object.keys((await primary.api.get('sys/auth')).body.data)).toEqual(['token/']);
  });

  it('#13.7: a non-printable character is refused as cleanhttp refuses it: 400 and no body (hashicorp/go-cleanhttp handlers.go)', async () => {
    for (const target of ['/v1/sys/auth/a%00b', '/v1/auth/ldap/groups/c1%C2%9B31m', '/v1/sys/health%C2%A0']) {
      const res = await send(primary.cluster.port, 'GET', target, { 'X-Vault-Token': primary.cluster.rootToken });
      expect({ status: res.status, body: res.body }, target).toEqual({ status: 400, body: '' });
    }
    // Printable non-ASCII is a name like any other.
    expect((await send(primary.cluster.port, 'GET', '/v1/auth/token/lookup/caf%C3%A9', { 'X-Vault-Token': primary.cluster.rootToken })).status).not.toBe(400);
  });
});

/** Canonical paths worth reaching: gated and open paths on a DR secondary, namespaced and not. */
const CANONICAL = [
  'sys/auth/pwn',
  'sys/auth',
  'sys/mounts',
  'sys/health',
  `${DR}/status`,
  `${DR}/secondary/pwn`,
  'auth/token/lookup-self',
  'team/sys/auth/pwn',
  'team/sys/auth',
  `team/${DR}/secondary/pwn`,
  'a/b/sys/mounts',
  'a/b/auth/token/lookup-self',
  'nothing/here',
];

/** One way to write a canonical path: part of its namespace in the header, the rest percent-encoded at random. */
const spelling = fc
  .record({
    path: fc.constantFrom(...CANONICAL),
    headerSegments: fc.nat({ max: 2 }),
    headerStyle: fc.constantFrom('plain', 'slashes', 'root'),
    encodeMask: fc.array(fc.boolean(), { minLength: 64, maxLength: 64 }),
    trailingSlash: fc.boolean(),
  })
  .map(({ path, headerSegments, headerStyle, encodeMask, trailingSlash }) => {
    const segments = path.split('/');
    const firstRoute = segments.findIndex((s) => s === 'sys' || s === 'auth');
    // Only namespace segments may move into the header.
    const inHeader = Math.min(headerSegments, Math.max(firstRoute, 0));
    const header = segments.slice(0, inHeader).join('/');
    const rest = segments.slice(inHeader).join('/');
    let i = 0;
    // Any character may be percent-encoded, "/" included (`%2F` decodes to a separator).
    const encoded = [...rest].map((ch) => (encodeMask[i++ % encodeMask.length] ? `%${ch.charCodeAt(0).toString(16).padStart(2, '0')}` : ch)).join('');
    const headers: Record<string, string> = {};
    if (header !== '') headers['X-Vault-Namespace'] = headerStyle === 'slashes' ? `/${header}/` : header;
    else if (headerStyle === 'root') headers['X-Vault-Namespace'] = 'root';
    return { canonical: path, target: `/v1/${encoded}${trailingSlash ? '/' : ''}`, headers, trailingSlash };
  });

describe('#13.7 property: the answer depends on the canonical path only', () => {
  it('#13.7: any spelling of a path (namespace header, path prefix, encodings) is answered as the plain path is, on a DR secondary and on its primary, with and without a token', async () => {
    await fc.assert(
      fc.asyncProperty(spelling, fc.constantFrom('GET', 'POST'), fc.boolean(), fc.boolean(), async (s, method, onSecondary, withToken) => {
        const m = onSecondary ? secondary : primary;
        // POST with a token on the primary would change state; keep every request side-effect free.
        const token: Record<string, string> = withToken && (method === 'GET' || onSecondary) ? { 'X-Vault-Token': m.cluster.rootToken } : {};
        const body = method === 'POST' ? '{"type":"nope"}' : undefined;
        const plain = await send(m.cluster.port, method, `/v1/${s.canonical}${s.trailingSlash ? '/' : ''}`, token, body);
        const spelled = await send(m.cluster.port, method, s.target, { ...token, ...s.headers }, body);
        expect(comparable(spelled), `${method} ${s.target} ${JSON.stringify(s.headers)}`).toEqual(comparable(plain));
        if (onSecondary && !s.canonical.startsWith('sys/') && !s.canonical.startsWith('auth/')) {
          expect(spelled.status).toBe(400); // every namespaced path is gated on a DR secondary
        }
      }),
      { numRuns: 150 },
    );
  });
});
