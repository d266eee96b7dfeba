import * as http from 'node:http';
import * as https from 'node:https';
import type { Socket } from 'node:net';

/** What Node's ClientRequest gives an agent, and the two internals of it an agent uses. */
interface AgentRequest extends http.ClientRequest {
  onSocket(socket: Socket): void;
  reusedSocket: boolean;
}

// Node's Agent types leave out the two members every agent is built on.
interface AgentInternals {
  options: Record<string, unknown>;
  createConnection(options: Record<string, unknown>): Socket;
}

// A mixin's base must take `...args: any[]` (TypeScript's rule for mixin classes).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AgentClass = new (...args: any[]) => http.Agent;

/**
 * An Agent that keeps its idle sockets on a stack and hands the last one freed to the next
 * request, or connects a new one. Node's own Agent also queues requests per host and option set,
 * caps sockets, names a pool per option set and resets async context on every reuse; a client
 * here has one endpoint per agent and a limiter that already bounds requests in flight to the
 * socket count, so that bookkeeping bought nothing and cost about a fifth of the CPU it takes to
 * send a request (5 to 10% of a whole plan's; see the README's Benchmarks).
 *
 * It uses the interface proxy agents are built on: ClientRequest calls `addRequest`, the agent
 * gives the request a socket (`onSocket`), and the socket emits 'free' once its exchange ended
 * with the connection kept alive (ClientRequest itself destroys a socket the server closes, or
 * that errors while idle). Like Node's Agent, it honours the server's Keep-Alive timeout.
 */
function reusingSockets<Base extends AgentClass>(base: Base) {
  return class extends base {
    readonly #idle: Socket[] = [];
    readonly #all = new Set<Socket>();
    /** How long each socket may stay idle, from its last answer's Keep-Alive header. */
    readonly #idleMs = new WeakMap<Socket, number>();

    addRequest(req: AgentRequest, options: Record<string, unknown>): void {
      let socket = this.#idle.pop();
      while (socket?.destroyed) socket = this.#idle.pop();
      if (socket) {
        socket.setTimeout(0);
        socket.ref();
        req.reusedSocket = true;
      } else {
        socket = this.#connect(options);
      }
      const used = socket;
      req.once('response', (res: http.IncomingMessage) => this.#idleMs.set(used, idleMsOf(res.headers['keep-alive'])));
      req.onSocket(socket);
    }

    #connect(options: Record<string, unknown>): Socket {
      const self = this as unknown as AgentInternals;
      // The agent's options last, as Node's Agent does: they hold the TLS settings, and `path:
      // null`, without which the request's path would make net connect to a pipe of that name.
      const socket = self.createConnection({ ...options, ...self.options });
      this.#all.add(socket);
      socket.on('free', () => {
        const idleMs = this.#idleMs.get(socket) ?? Infinity;
        if (socket.destroyed || idleMs <= 0) {
          socket.destroy();
          return;
        }
        if (idleMs !== Infinity) socket.setTimeout(idleMs);
        // An idle socket must not keep the process alive.
        socket.unref();
        this.#idle.push(socket);
      });
      socket.on('timeout', () => {
        if (this.#idle.includes(socket)) socket.destroy();
      });
      socket.once('close', () => {
        this.#all.delete(socket);
        const i = this.#idle.indexOf(socket);
        if (i >= 0) this.#idle.splice(i, 1);
      });
      return socket;
    }

    override destroy(): void {
      for (const socket of this.#all) socket.destroy();
      this.#all.clear();
      this.#idle.length = 0;
    }
  };
}

/**
 * How long a socket may wait for its next request, from the server's `Keep-Alive: timeout=N`
 * (seconds): a second less than the server waits, as Node's Agent does, so that a request is
 * never sent on a connection the server is closing. Infinity without a hint; 0: do not keep it.
 */
export function idleMsOf(header: string | string[] | undefined): number {
  const text = Array.isArray(header) ? header[0] : header;
  const seconds = text === undefined ? undefined : /^timeout=(\d+)/.exec(text)?.[1];
  return seconds === undefined ? Infinity : Math.max(0, Number(seconds) * 1000 - 1000);
}

const HttpKeepAliveAgent = reusingSockets(http.Agent);
const HttpsKeepAliveAgent = reusingSockets(https.Agent);

/** A keep-alive agent for one endpoint; `tls` for https (its trust settings). */
export function createKeepAliveAgent(tls?: { ca?: string; rejectUnauthorized: boolean }): http.Agent {
  const keepAlive = { keepAlive: true };
  return tls ? new HttpsKeepAliveAgent({ ...keepAlive, ...tls }) : new HttpKeepAliveAgent(keepAlive);
}
