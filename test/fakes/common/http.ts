/**
 * HTTP plumbing the cloud fakes share: a loopback listener, whole request bodies, JSON answers
 * and a prompt stop. What each fake answers stays in its own folder (see its SPEC.md).
 */
import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import type { Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';

type AnyServer = HttpServer | HttpsServer;

/** Listens on an OS-chosen port of 127.0.0.1; resolves with the port. */
export async function listenOnLoopback(server: AnyServer): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** Closes the server, dropping kept-alive connections so that it does not wait for clients. */
export function closeServer(server: AnyServer): Promise<void> {
  return new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}

export function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** A request's JSON object body; an empty body is `{}`. Throws (SyntaxError) on malformed JSON. */
export function parseJsonBody(body: Buffer): Record<string, unknown> {
  return body.length > 0 ? (JSON.parse(body.toString('utf8')) as Record<string, unknown>) : {};
}

/** Answers `body` as JSON; `headers` carry the fake's own content-type (each cloud spells it its way). */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string>): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...headers, 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
