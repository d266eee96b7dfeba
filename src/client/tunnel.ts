import * as net from 'node:net';
import { codedError } from './errors.js';
import { badResponse, CLOSED_CODE } from './http1-response.js';

/** Code of the error when the proxy answers CONNECT with anything but 2xx. Not retried. */
export const PROXY_REFUSED_CODE = 'LOCKSTEP_PROXY_REFUSED';

export interface TunnelProxy {
  host: string;
  port: number;
  /** `Proxy-Authorization` value (a secret: sent, never shown). */
  authorization?: string;
}

const MAX_REPLY_BYTES = 16 * 1024;

/**
 * A connection to `authority` (host:port) through an HTTP proxy: connects to the proxy, asks it
 * with CONNECT, and resolves with the socket once the proxy answers 2xx. Whatever runs over the
 * socket then (TLS) goes end to end: the proxy sees only encrypted bytes. Rejects with the
 * socket's error, PROXY_REFUSED_CODE (the message gives the proxy's status line), or `timeout`.
 */
export function openTunnel(proxy: TunnelProxy, authority: string, timeoutMs: number, timeout: () => Error): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: proxy.host, port: proxy.port });
    socket.setNoDelay(true);
    let reply = Buffer.alloc(0);
    const settle = (err?: Error): void => {
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('error', settle);
      socket.off('close', onClose);
      if (err) {
        socket.destroy();
        reject(err);
      } else {
        resolve(socket);
      }
    };
    const onClose = (): void => settle(codedError('the proxy closed the connection before answering CONNECT', CLOSED_CODE));
    const onData = (chunk: Buffer): void => {
      reply = Buffer.concat([reply, chunk]);
      const end = reply.indexOf('\r\n\r\n');
      if (end < 0) {
        if (reply.length > MAX_REPLY_BYTES) settle(badResponse("the proxy's answer to CONNECT is too large"));
        return;
      }
      // Nothing may follow the proxy's answer before the server speaks (TLS is ours to start).
      if (end + 4 !== reply.length) return settle(badResponse('the proxy sent bytes after its answer to CONNECT'));
      const statusLine = reply.toString('latin1', 0, reply.indexOf('\r\n'));
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1];
      if (status === undefined) return settle(badResponse("the proxy's answer to CONNECT is not HTTP"));
      if (!status.startsWith('2')) {
        // The status line only: a proxy's text is not trusted to be free of what it was sent.
        return settle(codedError(`the proxy refused the tunnel: ${status}`, PROXY_REFUSED_CODE));
      }
      settle();
    };
    const timer = setTimeout(() => settle(timeout()), timeoutMs);
    socket.on('data', onData);
    socket.on('error', settle);
    socket.on('close', onClose);
    const auth = proxy.authorization ? `Proxy-Authorization: ${proxy.authorization}\r\n` : '';
    socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n${auth}\r\n`, 'latin1');
  });
}
