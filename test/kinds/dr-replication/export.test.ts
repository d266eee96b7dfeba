import { describe, expect, it } from 'vitest';
import type { ApiResponse, ClusterClient } from '../../../src/client/types.js';
import { TransportError } from '../../../src/client/errors.js';
import type { ClusterTarget } from '../../../src/core/cluster.js';
import type { JsonObject } from '../../../src/core/json.js';
import { exportDrReplication } from '../../../src/kinds/dr-replication/export.js';
import { EnvReference } from '../../../src/load/manifest-writer.js';

function statusClient(data: JsonObject | Error): ClusterClient {
  return {
    request: async (): Promise<ApiResponse> => {
      if (data instanceof Error) throw data;
      return { status: 200, data, auth: null, warnings: [], body: { data } };
    },
  } as unknown as ClusterClient;
}

const EAST = { name: 'east' } as ClusterTarget;

describe('exportDrReplication', () => {
  it('a DR primary gives its set, named after it, secondaries sorted, their operation tokens as references', async () => {
    const docs = await exportDrReplication(statusClient({ mode: 'primary', cluster_id: 'c1', state: 'running', known_secondaries: ['west', 'south'] }), EAST);
    expect(docs).toEqual([
      {
        apiVersion: 'lockstep/v1',
        kind: 'DrReplication',
        name: 'east',
        primary: 'east',
        secondaries: ['south', 'west'],
        operationTokens: { south: new EnvReference('SOUTH_DR_OPERATION_TOKEN'), west: new EnvReference('WEST_DR_OPERATION_TOKEN') },
      },
    ]);
  });

  it('a primary without secondaries gives a set of one', async () => {
    const docs = await exportDrReplication(statusClient({ mode: 'primary', cluster_id: 'c1', known_secondaries: [] }), EAST);
    expect(docs).toEqual([{ apiVersion: 'lockstep/v1', kind: 'DrReplication', name: 'east', primary: 'east' }]);
  });

  it.each([
    ['a secondary (its primary exports the set)', { mode: 'secondary', cluster_id: 'c1', state: 'stream-wals' }],
    ['a DR-disabled cluster', { mode: 'disabled' }],
  ])('%s gives nothing', async (_why, status) => {
    expect(await exportDrReplication(statusClient(status), EAST)).toEqual([]);
  });

  it('an unreachable cluster is an error, not an empty export', async () => {
    const down = new TransportError({ cluster: 'east', method: 'GET', url: 'http://x/v1/sys/replication/dr/status', code: 'ECONNREFUSED', attempts: 1, message: 'cannot reach east: connection refused' });
    await expect(exportDrReplication(statusClient(down), EAST)).rejects.toThrow('cannot read the DR status: cannot reach east: connection refused');
  });
});
