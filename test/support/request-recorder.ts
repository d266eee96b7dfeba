import { createConnection, createServer, type AddressInfo, type Server, type Socket } from 'node:net';

/** One request as it went over the wire: the method and the request target, exactly as sent. */
export interface WireRequest {
  method: string;
  target: string;
}

export interface RequestRecorder {
  /** Base URL to give lockstep instead of the server's (same path, the recorder's port). */
  baseUrl: string;
  requests: WireRequest[];
  close(): Promise<void>;
}

/**
 * A loopback TCP relay in front of a server that notes the request line of every HTTP/1.1
 * request passing through, bytes untouched. It reads the client's stream the way a server
 * does (head, then a Content-Length body), so what it records is what the server saw. It
 * serves tests only; lockstep sends no chunked request bodies.
 */
export async function startRequestRecorder(serverBaseUrl: string): Promise<RequestRecorder> {
  const upstream = new URL(serverBaseUrl);
  const requests: WireRequest[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    const remote = createConnection({ host: upstream.hostname, port: Number(upstream.port) });
    let pending = Buffer.alloc(0);
    let bodyLeft = 0;
    client.on('data', (chunk: Buffer) => {
      remote.write(chunk);
      pending = Buffer.concat([pending, chunk]);
      for (;;) {
        if (bodyLeft > 0) {
          const skip = Math.min(bodyLeft, pending.length);
          pending = pending.subarray(skip);
          bodyLeft -= skip;
          if (bodyLeft > 0) return;
        }
        const end = pending.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = pending.subarray(0, end).toString('latin1').split('\r\n');
        const [method = '', target = ''] = (head[0] ?? '').split(' ');
        requests.push({ method, target });
        const length = head.find((l) => /^content-length:/i.test(l));
        bodyLeft = length ? Number(length.split(':')[1]) : 0;
        pending = pending.subarray(end + 4);
      }
    });
    remote.on('data', (chunk: Buffer) => client.write(chunk));
    client.on('close', () => remote.destroy());
    remote.on('close', () => client.destroy());
    client.on('error', () => remote.destroy());
    remote.on('error', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}${upstream.pathname}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        // Keep-alive connections would hold close() open.
        for (const socket of sockets) socket.destroy();
      }),
  };
}

/** The request target's path as the service routes it: below the base path, each segment decoded once. */
export function decodedSegments(target: string, basePath = '/v1'): string[] {
  const path = target.split('?')[0]!;
  if (!path.startsWith(`${basePath}/`)) throw new Error(`request outside the base path: ${target}`);
  return path
    .slice(basePath.length + 1)
    .split('/')
    .map((s) => decodeURIComponent(s));
}
