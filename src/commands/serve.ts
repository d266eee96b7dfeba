import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import { startServer, type RunningServer, type ServerOptions } from '../server/index.js';

export interface ServeFlags {
  port: number;
  data?: string;
  clusters: string[];
  token?: string;
  host: string;
}

/** `lockstep serve`: runs the embedded server until SIGINT or SIGTERM. */
export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('run the embedded secrets-service emulator (one or more clusters)')
    .option('--port <n>', 'port of the first cluster; the others follow it', parsePort, 8200)
    .option('--data <dir>', 'persist state under this directory (in memory otherwise)')
    .option('--clusters <names>', 'comma-separated cluster names', parseNames, ['default'])
    .option('--token <token>', 'root token of every cluster (random otherwise)')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .action(async (flags: ServeFlags) => {
      const server = await startServing(flags, (line) => process.stdout.write(line + '\n'));
      await untilSignal(['SIGINT', 'SIGTERM']);
      await server.close();
    });
}

/** Starts the clusters and prints, for each, its name, base URL and root token. */
export async function startServing(flags: ServeFlags, print: (line: string) => void): Promise<RunningServer> {
  const options: ServerOptions = {
    clusters: flags.clusters,
    port: flags.port,
    host: flags.host,
    dataDir: flags.data,
    rootToken: flags.token,
    log: (line) => process.stderr.write(line + '\n'),
  };
  const server = await startServer(options);
  for (const c of server.clusters) print(`cluster ${c.name}: ${c.baseUrl} root token: ${c.rootToken}`);
  return server;
}

function untilSignal(signals: NodeJS.Signals[]): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      for (const s of signals) process.off(s, stop);
      resolve();
    };
    for (const s of signals) process.on(s, stop);
  });
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new InvalidArgumentError('not a port number');
  return port;
}

function parseNames(value: string): string[] {
  const names = value
    .split(',')
    .map((n) => n.trim())
    .filter((n) => n !== '');
  if (names.length === 0) throw new InvalidArgumentError('at least one cluster name is needed');
  return names;
}
