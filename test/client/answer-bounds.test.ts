// Answers bounded before they are read: a Content-Length over the body cap is refused as soon as
// the headers arrive, never waited for (a hostile server declaring 2 GB and sending nothing
// held a request for two request timeouts). The exchanges here have an hour-long timeout: a
// refusal that waited for it would fail the test by the test runner's own limit.
import * as net from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import { codedError } from '../../src/client/errors.js';
import { BAD_RESPONSE_CODE, createTransport, MAX_BODY_BYTES, TIMEOUT_CODE, type Transport } from '../../src/client/transport.js';
import type { OutputSink } from '../../src/commands/output.js';

const servers: net.Server[] = [];
const sockets: Socket[] = [];
const transports: Transport[] = [];
afterEach(async () => {
  for (const t of transports.splice(0)) t.close();
  for (const s of sockets.splice(0)) s.destroy();
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

/** A server that answers every request with these headers and then nothing, holding the connection. */
async function declaringServer(headers: string): Promise<number> {
  const server = net.createServer((socket) => {
    sockets.push(socket);
    socket.on('error', () => {});
    socket.once('data', () => socket.write(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n${headers}\r\n`));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

const HOUR = 3_600_000;
const overTheCap = fc.oneof(fc.integer({ min: MAX_BODY_BYTES + 1, max: 2 ** 32 }), fc.integer({ min: 2 ** 32, max: Number.MAX_SAFE_INTEGER }), fc.constant(2 ** 31));

describe('a declared Content-Length over the cap', () => {
  it('generated lengths: the transport refuses at the headers, naming the length and the limit', async () => {
    await fc.assert(
      fc.asyncProperty(overTheCap, async (length) => {
        const port = await declaringServer(`Content-Length: ${length}\r\n`);
        const transport = createTransport(new URL(`http://127.0.0.1:${port}/v1`), { connectTimeoutMs: HOUR, maxConnections: 1, trust: { insecureSkipVerify: false } });
        transports.push(transport);
        const err = (await transport
          .send({ method: 'GET', path: '/v1/x', headers: [], body: undefined, reusable: true, timeoutMs: HOUR, timedOut: () => codedError('timed out', TIMEOUT_CODE) })
          .catch((e: unknown) => e)) as Error & { code?: string };
        expect(err.code).toBe(BAD_RESPONSE_CODE);
        expect(err.message).toBe(
          `the answer declares a body of ${length.toLocaleString('en-US')} bytes (Content-Length), more than the 268,435,456 bytes (256 MiB) lockstep reads of an answer`,
        );
      }),
      { numRuns: 20 },
    );
  });

  it('generated lengths, through the CLI: plan fails at once naming the cluster, its address and the limit', async () => {
    const token = 'hvs.CANARY-answer-bounds-4f1e';
    await fc.assert(
      fc.asyncProperty(overTheCap, fc.constantFrom('plan', 'export'), async (length, command) => {
        const port = await declaringServer(`Content-Length: ${length}\r\n`);
        const base = `http://127.0.0.1:${port}/v1`;
        const lines: string[] = [];
        const sink: OutputSink = { out: (t) => lines.push(t), err: (t) => lines.push(t), color: false, interactive: false, prompt: async () => '' };
        process.env['SERVICE_ADDR'] = base;
        process.env['SERVICE_TOKEN'] = token;
        try {
          const args = command === 'plan' ? ['plan', 'examples/ldap/ldap-auth.yaml'] : ['export'];
          process.env['LDAP_BINDPASS'] = 'bind-pass-answer-bounds';
          const code = await main(args, sink);
          expect(code).toBe(1);
        } finally {
          delete process.env['SERVICE_ADDR'];
          delete process.env['SERVICE_TOKEN'];
          delete process.env['LDAP_BINDPASS'];
        }
        const error = lines.find((l) => l.startsWith('error: '));
        expect(error).toMatch(
          new RegExp(
            `^error: (?:reading live state failed: |export of [A-Za-z]+ from default failed: )?cannot reach default at ${base.replaceAll('.', '\\.')}: the answer declares a body of ${length.toLocaleString('en-US')} bytes \\(Content-Length\\), more than the 268,435,456 bytes \\(256 MiB\\) lockstep reads of an answer \\((?:GET|LIST) [^)]+\\)$`,
          ),
        );
        expect(lines.join('\n')).not.toContain('CANARY');
      }),
      { numRuns: 6 },
    );
  });

  it('a length within the cap is read as usual', async () => {
    const port = await declaringServer('Content-Length: 2\r\n\r\n{}');
    const transport = createTransport(new URL(`http://127.0.0.1:${port}/v1`), { connectTimeoutMs: HOUR, maxConnections: 1, trust: { insecureSkipVerify: false } });
    transports.push(transport);
    const res = await transport.send({ method: 'GET', path: '/v1/x', headers: [], body: undefined, reusable: true, timeoutMs: HOUR, timedOut: () => codedError('timed out', TIMEOUT_CODE) });
    expect(res.text).toBe('{}');
  });
});
