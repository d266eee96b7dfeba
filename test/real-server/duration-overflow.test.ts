import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRealServer, type RealServer } from '../support/real-server.js';
import { startTestServer, type TestCluster } from '../support/server.js';

// A duration at the edge of Go's int64 nanoseconds (go-secure-stdlib parseutil ParseDurationSecond:
// overflowMul for seconds and days, time.ParseDuration otherwise): serve answers a write of it
// as the real server does, status and message (src/values/duration.ts).

const INPUTS = [
  '9223372036',
  '9223372037',
  '-9223372037',
  '18446744074',
  '106751d',
  '106752d',
  '99999999999999999999d',
  '2562047h',
  '2562048h',
  '9223372036854775807ns',
  '9223372036854775808ns',
  '99999999999999999999',
  '99999999999999999999s',
  '-9223372036',
];

let bao: RealServer;
let serve: TestCluster;
beforeAll(async () => {
  [bao, serve] = await Promise.all([startRealServer(), startTestServer()]);
  for (const server of [bao, serve]) expect((await server.raw('POST', 'sys/auth/ldap', { type: 'ldap' })).status).toBe(204);
}, 60_000);
afterAll(async () => {
  await Promise.all([bao?.stop(), serve?.server.close()]);
});

describe('a duration at the edge of int64 nanoseconds, on serve as on the real server', () => {
  it.each(INPUTS)('token_ttl %j', async (input) => {
    const answers = await Promise.all(
      [bao, serve].map(async (server) => {
        const written = await server.raw('POST', 'auth/ldap/config', { token_ttl: input });
        const read = await server.raw('GET', 'auth/ldap/config');
        // Vault names the value in a conversion error, OpenBao does not (docs/real-server-differences.md): compared without it.
        const body = JSON.parse(JSON.stringify(written.body).replace(/error converting input .*? for field/g, 'error converting input for field')) as unknown;
        return { status: written.status, body, ttl: (read.body as { data: { token_ttl: number } }).data.token_ttl };
      }),
    );
    expect(answers[1]).toEqual(answers[0]);
  });
});
