import { describe, expect, it } from 'vitest';
import type { ApiResponse, ClusterClient, HttpMethod } from '../../../src/client/types.js';
import type { JsonObject } from '../../../src/core/json.js';
import { Secret } from '../../../src/core/secret.js';
import { generateOperationToken } from '../../../src/kinds/dr-replication/operation-token.js';
import { DrRunStore } from '../../../src/kinds/dr-replication/run-store.js';

/** A secondary whose attempt answers are `answers` by `METHOD path` (the whole body, no envelope). */
function secondary(answers: Record<string, JsonObject>, seen: string[]): ClusterClient {
  const reply = (data: JsonObject | null): ApiResponse => ({ status: 200, data, auth: null, warnings: [], body: data });
  return {
    cluster: 'west',
    baseUrl: '',
    requestCount: 0,
    concurrency: 1,
    request: async (method: HttpMethod, path: string) => {
      seen.push(`${method} ${path}`);
      return reply(answers[`${method} ${path.split('/').pop()}`] ?? null);
    },
    read: async () => null,
    write: async () => reply(null),
    delete: async () => undefined,
  };
}

const SHARE = new Secret('ab'.repeat(16), 'test');

describe('generating a DR operation token', () => {
  it('#13.9: an attempt answer of the wrong shape is named by field, the attempt cancelled, no value shown', async () => {
    const seen: string[] = [];
    const client = secondary(
      {
        'GET attempt': { started: false },
        'POST attempt': { started: true, nonce: 'n-1', otp: 12345, required: '1' },
      },
      seen,
    );
    const error = await generateOperationToken(client, [SHARE], new DrRunStore()).catch((err: Error) => err);
    expect((error as Error).message).toBe(
      'west: POST sys/replication/dr/secondary/generate-operation-token/attempt: field "otp" is a number, expected a string; field "required" is a string, expected an integer',
    );
    expect(seen.at(-1)).toBe('DELETE sys/replication/dr/secondary/generate-operation-token/attempt');
  });

  it('#13.9: a status of the attempt that is not true or false is refused before anything starts', async () => {
    const seen: string[] = [];
    const client = secondary({ 'GET attempt': { started: 'yes' } }, seen);
    await expect(generateOperationToken(client, [SHARE], new DrRunStore())).rejects.toThrow(
      'west: GET sys/replication/dr/secondary/generate-operation-token/attempt: field "started" is a string, expected true or false',
    );
    expect(seen).toEqual(['GET sys/replication/dr/secondary/generate-operation-token/attempt']);
  });
});
