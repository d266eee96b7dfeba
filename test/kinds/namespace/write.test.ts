import { describe, expect, test } from 'vitest';
import { namespaceAddress } from '../../../src/core/namespace-path.js';
import type { Change } from '../../../src/core/plan.js';
import type { ApiResponse, ClusterClient, HttpMethod, RequestPath, RequestOptions } from '../../../src/client/types.js';
import { applyNamespaceChange, metadataPatch } from '../../../src/kinds/namespace/write.js';
import type { ApplyContext } from '../../../src/kinds/kind.js';
import { change } from '../../core/builders.js';

/** A client that records what it is asked and answers 204. */
function recordingClient(): { client: ClusterClient; calls: Array<[string, string, unknown]> } {
  const calls: Array<[string, string, unknown]> = [];
  const shown = (p: RequestPath): string => (typeof p === 'string' ? p : p.segments.join('/'));
  const answer: ApiResponse = { status: 204, data: null, auth: null, warnings: [], body: null };
  const client = {
    cluster: 'east',
    baseUrl: 'http://east/v1',
    requestCount: 0,
    concurrency: 1,
    request: async (method: HttpMethod, path: RequestPath, opts?: RequestOptions) => (calls.push([method, shown(path), opts?.body]), answer),
    read: async () => null,
    write: async (path: RequestPath, body: unknown) => (calls.push(['POST', shown(path), body]), answer),
    delete: async (path: RequestPath) => void calls.push(['DELETE', shown(path), undefined]),
  } satisfies ClusterClient;
  return { client, calls };
}

const address = namespaceAddress('east', 'team-a/apps');
const desired = { address, resourceType: 'namespace', attrs: { custom_metadata: { owner: 'ops', tier: 'gold' } }, writeOnly: {}, sensitiveFields: [], dependsOn: [] };

async function apply(c: Change): Promise<Array<[string, string, unknown]>> {
  const { client, calls } = recordingClient();
  await applyNamespaceChange(c, desired, { client, clients: { get: () => client }, run: new Map(), redaction: undefined as never } satisfies ApplyContext);
  return calls;
}

describe('applyNamespaceChange', () => {
  test('a create is a POST inside the parent with the metadata', async () => {
    expect(await apply(change({ address, action: 'create', resourceType: 'namespace' }))).toEqual([
      ['POST', 'team-a/sys/namespaces/apps', { custom_metadata: { owner: 'ops', tier: 'gold' } }],
    ]);
  });

  test('an update is a merge patch: the keys wanted, null for each key only the server has', async () => {
    const before = { custom_metadata: { owner: 'dev', old: 'x' } };
    expect(await apply(change({ address, action: 'update', resourceType: 'namespace', before }))).toEqual([
      ['PATCH', 'team-a/sys/namespaces/apps', { custom_metadata: { old: null, owner: 'ops', tier: 'gold' } }],
    ]);
    expect(metadataPatch({ a: '1' }, {})).toEqual({ a: null });
    expect(metadataPatch(null, { a: '1' })).toEqual({ a: '1' });
  });

  test('a delete is a DELETE of the namespace', async () => {
    expect(await apply(change({ address, action: 'delete', resourceType: 'namespace' }))).toEqual([['DELETE', 'team-a/sys/namespaces/apps', undefined]]);
  });
});
