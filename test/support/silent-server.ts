import net from 'node:net';

/** A TCP server on loopback that takes connections and never writes a byte (a directory or a server that does not answer). */
export interface SilentServer {
  port: number;
  /** Connections taken so far. */
  accepted(): number;
  /** Settles once the first connection is taken. */
  reached: Promise<void>;
  /** Settles once every connection taken so far has been closed by the other side (or by `close`). */
  allClosed(): Promise<void>;
  /** Destroys every connection and stops listening. */
  close(): Promise<void>;
}

export async function startSilentServer(): Promise<SilentServer> {
  const sockets = new Set<net.Socket>();
  const closings: Array<Promise<void>> = [];
  let reached: () => void = () => undefined;
  const firstConnection = new Promise<void>((resolve) => (reached = resolve));
  const server = net.createServer((socket) => {
    sockets.add(socket);
    closings.push(new Promise((closed) => socket.on('close', () => closed())));
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    // Read (and dropped): a paused socket would never see the other side's end.
    socket.resume();
    reached();
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  return {
    port: (server.address() as net.AddressInfo).port,
    accepted: () => closings.length,
    reached: firstConnection,
    allClosed: async () => {
      await Promise.all(closings);
    },
    close: () =>
      new Promise<void>((closed) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => closed());
      }),
  };
}
