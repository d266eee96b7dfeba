/** Shared pieces of the snapshot-auto tests. */
import type { RunningCluster } from '../../../src/server/index.js';
import { pollUntil } from '../../support/wait.js';
import { apiClient, type ApiResponse } from '../helpers.js';

export const CONFIG = 'sys/storage/raft/snapshot-auto/config';
export const STATUS = 'sys/storage/raft/snapshot-auto/status';

/** Polls until `check` returns a value other than undefined/false, or fails after timeoutMs. */
export function waitFor<T>(what: string, check: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = 15_000): Promise<T> {
  return pollUntil(what, check, { timeoutMs, intervalMs: 100 });
}

/** An API client that also keeps the text of every response (canary checks). */
export function recordingClient(cluster: RunningCluster, responses: string[], token?: string | null) {
  const api = apiClient(cluster, token);
  const record = async (res: Promise<ApiResponse>): Promise<ApiResponse> => {
    const r = await res;
    responses.push(JSON.stringify(r.body ?? null));
    return r;
  };
  return {
    get: (path: string) => record(api.get(path)),
    list: (path: string) => record(api.list(path)),
    post: (path: string, body: unknown = {}) => record(api.post(path, body)),
    delete: (path: string) => record(api.delete(path)),
  };
}

export type RecordingClient = ReturnType<typeof recordingClient>;

/** Fails the test naming the place where a canary shows up. */
export function expectNoCanary(label: string, texts: readonly string[], canaries: readonly string[]): void {
  for (const text of texts) {
    for (const canary of canaries) {
      if (text.includes(canary)) throw new Error(`${label} leaks a secret: ${text.slice(0, 500)}`);
    }
  }
}

/** The URLs of snapshots a server logged as written, in order. */
export function writtenUrls(logs: readonly string[], name: string): string[] {
  const re = new RegExp(`snapshot-auto ${name}: wrote (\\S+) \\(`);
  return logs.map((l) => re.exec(l)?.[1]).filter((u): u is string => u !== undefined);
}
