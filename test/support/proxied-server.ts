import { startAnswerProxy, type AnswerProxy } from './answer-proxy.js';
import { runCli, type CliResult } from './cli.js';
import { useForFile } from './file-scoped.js';
import { startTestServer, type TestCluster } from './server.js';

/** The emulator behind an answer proxy, shared by the tests of one file: lockstep talks to the proxy. */
export interface ProxiedServer {
  readonly cluster: TestCluster;
  readonly proxy: AnswerProxy;
  /** The built CLI against the proxy, with the cluster's token. */
  cli: (args: string[]) => Promise<CliResult>;
}

/** Starts both before the file's tests and closes them after; `env` is added to every CLI run (the manifests' secrets). */
export function useProxiedServer(env: Record<string, string>): ProxiedServer {
  const started = useForFile(
    async () => {
      const cluster = await startTestServer();
      try {
        return { cluster, proxy: await startAnswerProxy(cluster.baseUrl) };
      } catch (err) {
        await cluster.server.close();
        throw err;
      }
    },
    async ({ cluster, proxy }) => {
      await proxy.close();
      await cluster.server.close();
    },
  );
  return {
    get cluster() {
      return started().cluster;
    },
    get proxy() {
      return started().proxy;
    },
    cli: (args) => runCli(args, { env: { SERVICE_ADDR: started().proxy.baseUrl, SERVICE_TOKEN: started().cluster.token, ...env } }),
  };
}
