import { expect } from 'vitest';
import { closeClients, TOKEN } from '../../client/support.js';
import { useForFile } from '../../support/file-scoped.js';
import { startRequestRecorder, type RequestRecorder } from '../../support/request-recorder.js';
import { startTestServer, type TestCluster } from '../../support/server.js';

/**
 * The emulator for one file's tests, with namespace `team-a` and auth mounts enabled at
 * `mounts` (`[ns/]sys/auth/<mount>` paths, all `ldap`: the one method type it enables), and a
 * recorder in front of it that notes each request. Clients of test/client/support are closed after.
 */
export function useRecordedEmulator(mounts: readonly string[] = []): () => { cluster: TestCluster; recorder: RequestRecorder } {
  return useForFile(
    async () => {
      const cluster = await startTestServer(TOKEN);
      expect((await cluster.raw('POST', 'sys/namespaces/team-a')).status).toBeLessThan(300);
      for (const path of mounts) expect((await cluster.raw('POST', path, { type: 'ldap' })).status).toBe(204);
      return { cluster, recorder: await startRequestRecorder(cluster.baseUrl) };
    },
    async ({ cluster, recorder }) => {
      closeClients();
      await recorder.close();
      await cluster.server.close();
    },
  );
}
