import type { Server as HttpServer } from 'node:http';
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import { Duplex } from 'node:stream';
import { HeadRewriter } from './head-rewriter.js';

/**
 * A TCP server in front of the HTTP server so that the literal LIST method works: Node's HTTP
 * parser rejects it. Each connection is wrapped in a Duplex whose incoming bytes go through
 * HeadRewriter, then handed to the HTTP server ('connection' accepts any Duplex). The wrapper
 * exposes the socket's addresses and timeouts, so keep-alive and req.socket.remoteAddress
 * behave as on a plain socket.
 */
export class ListFront {
  private readonly net: NetServer;
  private readonly sockets = new Set<Socket>();

  constructor(http: HttpServer) {
    this.net = createNetServer({ noDelay: true }, (socket) => {
      socket.setNoDelay(true); // small keep-alive responses must not wait for Nagle
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
      http.emit('connection', new RewritingSocket(socket));
    });
  }

  listen(port: number, host: string): Promise<number> {
    return new Promise((resolve, reject) => {
      this.net.once('error', reject);
      this.net.listen(port, host, () => {
        this.net.off('error', reject);
        const address = this.net.address();
        resolve(typeof address === 'object' && address ? address.port : port);
      });
    });
  }

  /** Stops accepting and drops every open connection. */
  close(): Promise<void> {
    return new Promise((resolve) => {
      this.net.close(() => resolve());
      for (const socket of this.sockets) socket.destroy();
    });
  }
}

class RewritingSocket extends Duplex {
  private readonly rewriter = new HeadRewriter();

  constructor(private readonly socket: Socket) {
    super({ allowHalfOpen: true });
    socket.on('data', (chunk: Buffer) => {
      let parts: Buffer[];
      try {
        parts = this.rewriter.feed(chunk);
      } catch {
        // Whatever one connection sent, it ends that connection, never the server (a throw
        // here is an uncaught exception in a socket listener: the whole process would exit).
        socket.destroy();
        return;
      }
      for (const part of parts) {
        if (!this.push(part)) socket.pause();
      }
    });
    socket.on('end', () => this.push(null));
    socket.on('error', (err) => this.destroy(err));
    socket.on('close', () => this.destroy());
    socket.on('timeout', () => this.emit('timeout'));
  }

  override _read(): void {
    this.socket.resume();
  }

  override _write(chunk: Buffer, encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    if (this.socket.write(chunk, encoding)) callback();
    else this.socket.once('drain', () => callback());
  }

  override _writev(chunks: Array<{ chunk: Buffer; encoding: BufferEncoding }>, callback: (error?: Error | null) => void): void {
    this.socket.cork();
    let flowing = true;
    for (const { chunk, encoding } of chunks) flowing = this.socket.write(chunk, encoding);
    this.socket.uncork();
    if (flowing) callback();
    else this.socket.once('drain', () => callback());
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.socket.end(() => callback());
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.socket.destroy(error ?? undefined);
    callback(error);
  }

  /** What Node's HTTP server calls after an answer with `Connection: close`: no more reading. */
  destroySoon(): void {
    if (this.writable) this.end();
    if (this.writableFinished) this.destroy();
    else this.once('finish', () => this.destroy());
  }

  get remoteAddress(): string | undefined {
    return this.socket.remoteAddress;
  }
  get remotePort(): number | undefined {
    return this.socket.remotePort;
  }
  get remoteFamily(): string | undefined {
    return this.socket.remoteFamily;
  }
  get localAddress(): string | undefined {
    return this.socket.localAddress;
  }
  get localPort(): number | undefined {
    return this.socket.localPort;
  }

  setTimeout(ms: number, callback?: () => void): this {
    this.socket.setTimeout(ms);
    if (callback) this.once('timeout', callback);
    return this;
  }
  setNoDelay(noDelay?: boolean): this {
    this.socket.setNoDelay(noDelay);
    return this;
  }
  setKeepAlive(enable?: boolean, delay?: number): this {
    this.socket.setKeepAlive(enable, delay);
    return this;
  }
  ref(): this {
    this.socket.ref();
    return this;
  }
  unref(): this {
    this.socket.unref();
    return this;
  }
}
