import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TransportError } from '../../src/client/errors.js';
import { startServer as startEmulator } from '../../src/server/index.js';
import { envelope, json, startServer, type TestServer } from './server.js';
import { caught, client, closeClients } from './support.js';

let dir: string;
let cert: string;
let key: string;
let otherCert: string;
let server: TestServer;

/** A self-signed certificate for 127.0.0.1 (it is its own CA). */
function selfSigned(name: string, altNames = 'IP:127.0.0.1,DNS:localhost'): { cert: string; key: string } {
  const keyFile = join(dir, `${name}.key`);
  const certFile = join(dir, `${name}.pem`);
  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
      '-subj', `/CN=${name}`, '-addext', `subjectAltName=${altNames}`, '-keyout', keyFile, '-out', certFile],
    { stdio: 'ignore' },
  );
  return { cert: readFileSync(certFile, 'utf8'), key: readFileSync(keyFile, 'utf8') };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lockstep-tls-'));
  ({ cert, key } = selfSigned('lockstep-test'));
  otherCert = selfSigned('someone-else').cert;
  server = await startServer((_req, res) => json(res, 200, envelope({ tls: true })), { key, cert });
});

afterEach(() => closeClients());

afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('https', () => {
  it('trusts the server through caCert', async () => {
    const c = client(server.baseUrl, { caCert: cert });
    expect(await c.read('x')).toEqual({ tls: true });
    const before = server.connections;
    await Promise.all(Array.from({ length: 20 }, () => c.read('x')));
    // Kept alive: no more connections than requests in flight (the client's limiter allows 4).
    expect(server.connections - before).toBeLessThanOrEqual(4);
  });

  it('checks the certificate against the host name, sent by SNI', async () => {
    // A certificate for the name localhost only: right by name, wrong by address.
    const named = selfSigned('named', 'DNS:localhost');
    const other = await startServer((_req, res) => json(res, 200, envelope({ sni: true })), named);
    try {
      expect(await client(other.baseUrl.replace('127.0.0.1', 'localhost'), { caCert: named.cert }).read('x')).toEqual({ sni: true });
      const wrongName = await caught(() => client(other.baseUrl, { caCert: named.cert }).read('x'));
      expect(wrongName.message).toMatch(/TLS failure: .*127\.0\.0\.1.*not in the cert/);
    } finally {
      closeClients();
      await other.close();
    }
  });

  it('refuses an untrusted certificate with a clear TLS message, without retrying', async () => {
    for (const caCert of [undefined, otherCert]) {
      const c = client(server.baseUrl, { caCert });
      const err = await caught(() => c.read('x'));
      expect(err).toBeInstanceOf(TransportError);
      expect(err.message).toMatch(new RegExp(`^cannot reach east at ${server.baseUrl.replace(/[.]/g, '\\.')}: TLS failure: .*self.signed`));
      expect(err.message).toContain('caCert');
      expect((err as TransportError).attempts).toBe(1);
    }
  });

  it('an https:// address on the emulator\'s plain-HTTP port fails at once as TLS, not after connect timeouts', async () => {
    // The emulator's port answered a ClientHello with nothing (its LIST rewriter held the bytes
    // waiting for a line end), so the client waited 2 × 10 s. A connect timeout of ten minutes
    // here: the test would run into vitest's own limit rather than pass by waiting.
    const emulator = await startEmulator({ port: 0, rootToken: 'tls-mismatch' });
    try {
      const plainBase = emulator.clusters[0]!.baseUrl;
      const err = await caught(() => client(plainBase.replace('http://', 'https://'), { connectTimeoutMs: 600_000 }).read('sys/health'));
      expect(err).toBeInstanceOf(TransportError);
      expect(err.message).toMatch(/TLS failure: /);
      expect((err as TransportError).attempts).toBe(1);
    } finally {
      closeClients();
      await emulator.close();
    }
  });

  it('skips verification with insecureSkipVerify', async () => {
    expect(await client(server.baseUrl, { insecureSkipVerify: true }).read('x')).toEqual({ tls: true });
  });
});
