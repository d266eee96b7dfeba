import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/client/errors.js';
import type { ApiResponse, ClusterClient } from '../../src/client/types.js';
import { classifyUnserved, isUnservedAnswer, servesFeature, UnservedPathError } from '../../src/kinds/feature.js';
import { listNames, readShaped } from '../../src/kinds/live-read.js';
import { record } from '../../src/core/json-shape.js';

/** A client whose every request gets `status` with `errors` (accepted when the caller accepts the status). */
function answering(status: number, errors: unknown[]): ClusterClient {
  const res: ApiResponse = { status, data: null, auth: null, warnings: [], body: { errors } as ApiResponse['body'] };
  return {
    cluster: 'east',
    request: (method: string, path: string, opts?: { okStatuses?: number[] }) => {
      if (opts?.okStatuses?.includes(status)) return Promise.resolve(res);
      return Promise.reject(new ApiError({ cluster: 'east', method, url: `http://x/v1/${path}`, status, errors: errors as string[], message: 'refused' }));
    },
  } as unknown as ClusterClient;
}

// The request framework's answer for a path no backend route matches (sdk/framework/backend.go
// HandleRequest: logical.ErrUnsupportedPath, a 404; request handling wraps it with
// go-multierror): what OpenBao answers for sys/managed-keys/..., sys/replication/dr/status and
// sys/storage/raft/snapshot-auto/config.
const WRAPPED = '1 error occurred:\n\t* unsupported path\n\n';

describe('"this server does not serve this path"', () => {
  it('is a 404 saying "unsupported path", bare or wrapped; not a missing object, an unmounted path or another status', () => {
    expect(isUnservedAnswer(404, [WRAPPED])).toBe(true);
    expect(isUnservedAnswer(404, ['unsupported path'])).toBe(true);
    expect(isUnservedAnswer(404, [])).toBe(false); // a missing object, or an empty LIST
    expect(isUnservedAnswer(404, ['no handler for route "auth/ldap/config". route entry not found.'])).toBe(false); // no mount yet
    expect(isUnservedAnswer(405, ['1 error occurred:\n\t* unsupported operation\n\n'])).toBe(false);
    expect(isUnservedAnswer(400, [WRAPPED])).toBe(false);
    expect(isUnservedAnswer(404, ['the unsupported path of a value'])).toBe(false);
  });

  it('is classified by the live reads, for GET and LIST alike, naming cluster, method and path', async () => {
    const client = answering(404, [WRAPPED]);
    await expect(readShaped(client, 'sys/storage/raft/snapshot-auto/config/hourly', record({}, []))).rejects.toMatchObject({
      name: 'UnservedPathError',
      cluster: 'east',
      method: 'GET',
      path: 'sys/storage/raft/snapshot-auto/config/hourly',
    });
    await expect(listNames(client, 'sys/managed-keys/pkcs11')).rejects.toBeInstanceOf(UnservedPathError);
  });

  it('leaves a plain 404 what it was: nothing there', async () => {
    const client = answering(404, []);
    expect(await readShaped(client, 'sys/managed-keys/pkcs11/k', record({}, []))).toBeNull();
    expect(await listNames(client, 'sys/managed-keys/pkcs11')).toEqual([]);
  });

  it('is classified from a thrown answer too (a read that accepts no 404: the DR status)', () => {
    const refused = new ApiError({ cluster: 'east', method: 'GET', url: 'u', status: 404, errors: [WRAPPED], message: 'm' });
    expect(classifyUnserved(refused, 'GET', 'sys/replication/dr/status')).toBeInstanceOf(UnservedPathError);
    const other = new ApiError({ cluster: 'east', method: 'GET', url: 'u', status: 500, errors: [], message: 'm' });
    expect(classifyUnserved(other, 'GET', 'sys/replication/dr/status')).toBe(other);
  });

  it("is what a feature's probe asks; any other answer (or none) leaves the kind's reads to tell", async () => {
    const feature = { name: 'managed keys', probe: { method: 'LIST' as const, path: 'sys/managed-keys/pkcs11' } };
    expect(await servesFeature(answering(404, [WRAPPED]), feature)).toBe(false);
    expect(await servesFeature(answering(404, []), feature)).toBe(true);
    expect(await servesFeature(answering(403, ['permission denied']), feature)).toBe(true);
    expect(await servesFeature(answering(404, [WRAPPED]), { name: 'the LDAP auth method' })).toBe(true);
  });
});
