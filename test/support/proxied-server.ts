import { afterAll, beforeAll } from 'vitest';
import { startAnswerProxy, type AnswerProxy } from './answer-proxy.js';
import { runCli, type CliResult } from './cli.js';
import { startTestServer, type TestCluster } from './server.js';

/** The emulator behind an answer proxy, shared by the tests of one file: lockstep talks to the proxy. */
export interface ProxiedServer {
  readonly cluster: TestCluster;
  readonly proxy: AnswerProxy;
  /** The built CLI against the proxy, with the cluster's token. */
  cli(args: string[]): Promise<CliResult>;
}

/** Starts both before the file's tests and closes them after; `env` is added to every CLI run (the manifests' secrets). */
export function useProxiedServer(env: Record<string, string>): ProxiedServer {
  let cluster: TestCluster | undefined;
  let proxy: AnswerProxy | undefined;
  beforeAll(async () => {
    cluster = await startTestServer();
    proxy = await startAnswerProxy(cluster.baseUrl);
  });
  afterAll(async () => {
    await proxy?.close();
    await cluster?.server.close();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the emulator and its proxy start in beforeAll');
    return value;
  };
  return {
    get cluster() {
      return started(cluster);
    },
    get proxy() {
      return started(proxy);
    },
    cli: (args) => runCli(args, { env: { SERVICE_ADDR: started(proxy).baseUrl, SERVICE_TOKEN: started(cluster).token, ...env } }),
  };
}
