import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import { wholeNumber } from './number-option.js';
import { readRelease } from '../values/index.js';
// Types only: the server (and every SDK it loads) is imported when `serve` runs, so the other
// commands do not pay seconds of start-up for it.
import type { RunningServer, ServerOptions } from '../server/index.js';

export interface ServeFlags {
  port: number;
  data?: string;
  clusters: string[];
  token?: string;
  host: string;
  /** `--restore [NAME=]FILE`, repeatable. */
  restore?: string[];
  /** `--kms-library NAME=PATH`, repeatable: kms_library stanzas for pkcs11 managed keys. */
  kmsLibrary?: Record<string, string>;
  /** Root key shares and threshold at a cluster's first start. */
  keyShares?: number;
  keyThreshold?: number;
  /** Writes each cluster's address, root token and key shares as JSON (mode 0600). */
  initOut?: string;
  /** A file --init-out wrote: its key shares open snapshots those clusters sealed. */
  restoreKeys?: string;
  /** Every answer this many ms after its request came: a rehearsal of a server far away. */
  latency?: number;
  /** 429 with Retry-After beyond this many requests in flight (per cluster). */
  rateLimit?: number;
  /** `--cluster-version NAME=VERSION`, repeatable: the release a cluster reports. */
  clusterVersion?: Record<string, string>;
}

/** `lockstep serve`: runs the embedded server until SIGINT or SIGTERM. */
export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('run the embedded secrets-service emulator (one or more clusters)')
    .option('--port <n>', 'port of the first cluster; the others follow it', wholeNumber('--port', { min: 0, max: 65535 }), 8200)
    .option('--data <dir>', 'persist state under this directory (in memory otherwise)')
    .option('--clusters <names>', 'comma-separated cluster names', parseNames, ['default'])
    .option('--token <token>', 'root token of every cluster (random otherwise)')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option(
      '--restore <[name=]file>',
      'start a cluster (the first, or the one named) from a snapshot file; replaces its --data state (repeatable)',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option('--restore-keys <file>', 'key shares that open snapshots other clusters sealed: a file --init-out wrote')
    .option(
      '--kms-library <name=path>',
      'a kms_library stanza: PKCS#11 library that pkcs11 managed keys name by NAME (repeatable)',
      parseKmsLibrary,
    )
    .option('--key-shares <n>', "root key shares made at a cluster's first start (default 1)", wholeNumber('--key-shares', KEY_SHARES))
    .option('--key-threshold <t>', 'shares that rebuild the root key (default 1 for one share, else a majority)', wholeNumber('--key-threshold', KEY_SHARES))
    .option('--init-out <file>', "write each cluster's address, root token and root key shares as JSON (mode 0600)")
    .option('--latency <ms>', 'answer every request this many milliseconds after it came: rehearse a server far away', parseLatency)
    .option(
      '--cluster-version <name=version>',
      'the release a cluster reports, e.g. east=1.21.1+ent (repeatable; default 1.21.0+ent): start again on the same --data with another to rehearse an upgrade',
      parseClusterVersion,
    )
    .option('--rate-limit <n>', 'answer 429 with Retry-After beyond this many requests in flight, per cluster (as a rate-limit quota does)', parseRateLimit)
    .action(async (flags: ServeFlags) => {
      const server = await startServing(flags, (line) => process.stdout.write(line + '\n'));
      await untilSignal(['SIGINT', 'SIGTERM']);
      await server.close();
    });
}

/** Starts the clusters and prints, for each, its name, base URL and root token. */
export async function startServing(flags: ServeFlags, print: (line: string) => void): Promise<RunningServer> {
  const { parseRestoreSpecs, readInitOutKeyShares, startServer } = await import('../server/index.js');
  const options: ServerOptions = {
    clusters: flags.clusters,
    port: flags.port,
    host: flags.host,
    dataDir: flags.data,
    rootToken: flags.token,
    log: (line) => process.stderr.write(line + '\n'),
    restore: flags.restore?.length ? parseRestoreSpecs(flags.restore, flags.clusters) : undefined,
    restoreKeys: flags.restoreKeys === undefined ? undefined : await readInitOutKeyShares(flags.restoreKeys),
    kmsLibraries: flags.kmsLibrary,
    keyShares: flags.keyShares,
    keyThreshold: flags.keyThreshold,
    initOut: flags.initOut,
    latencyMs: flags.latency,
    rateLimit: flags.rateLimit,
    clusterVersions: flags.clusterVersion,
  };
  const server = await startServer(options);
  for (const c of server.clusters) print(`cluster ${c.name}: ${c.baseUrl} root token: ${c.rootToken}`);
  // Like an initialisation: the root key shares are shown once, when they are made.
  for (const c of server.clusters.filter((x) => x.initialised)) {
    c.keyShares.forEach((share, i) => print(`cluster ${c.name}: key share ${i + 1} of ${c.keyShares.length}: ${share}`));
    print(`cluster ${c.name}: key threshold: ${c.keyThreshold}`);
  }
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

/** `NAME=PATH`, accumulated over repeated flags; a name given twice is an error. */
export function parseKmsLibrary(value: string, previous: Record<string, string> = {}): Record<string, string> {
  const eq = value.indexOf('=');
  const name = eq > 0 ? value.slice(0, eq).trim() : '';
  const path = eq > 0 ? value.slice(eq + 1).trim() : '';
  if (!/^[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(name) || path === '') {
    throw new InvalidArgumentError('expected NAME=PATH (NAME: letters, digits, "_", ".", "-")');
  }
  if (name in previous) throw new InvalidArgumentError(`kms_library "${name}" is given twice`);
  return { ...previous, [name]: path };
}

/** `NAME=VERSION`, accumulated over repeated flags: a release the service could report, one per cluster. */
export function parseClusterVersion(value: string, previous: Record<string, string> = {}): Record<string, string> {
  const eq = value.indexOf('=');
  const name = eq > 0 ? value.slice(0, eq).trim() : '';
  const version = eq > 0 ? value.slice(eq + 1).trim() : '';
  if (name === '' || version === '') throw new InvalidArgumentError('expected NAME=VERSION, e.g. east=1.21.1+ent');
  const read = readRelease(version);
  if (read.kind === 'refused') throw new InvalidArgumentError(`${version}: ${read.reason}`);
  if (name in previous) throw new InvalidArgumentError(`the release of cluster "${name}" is given twice`);
  return { ...previous, [name]: version };
}

/** Shamir's scheme over GF(2^8): at most 255 shares. */
const KEY_SHARES = { min: 1, max: 255 };
export const parseLatency = wholeNumber('--latency', { min: 0, max: 60_000 });
export const parseRateLimit = wholeNumber('--rate-limit', { min: 1, max: 1_000_000 });

function parseNames(value: string): string[] {
  const names = value
    .split(',')
    .map((n) => n.trim())
    .filter((n) => n !== '');
  if (names.length === 0) throw new InvalidArgumentError('at least one cluster name is needed');
  return names;
}
