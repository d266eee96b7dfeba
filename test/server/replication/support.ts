import { expect } from 'vitest';
import type { RunningCluster } from '../../../src/server/index.js';
import { decodeWithOtp } from '../../../src/server/replication/otp.js';
import { apiClient, type ApiClient } from '../helpers.js';

export const DR = 'sys/replication/dr';
export const REFUSAL = 'path disabled in replication DR secondary mode';

export interface Member {
  name: string;
  cluster: RunningCluster;
  /** With the cluster's root token. */
  api: ApiClient;
  /** Without any token. */
  anon: ApiClient;
}

export function member(cluster: RunningCluster): Member {
  return { name: cluster.name, cluster, api: apiClient(cluster), anon: apiClient(cluster, null) };
}

/** Polls until `check` returns a value (not undefined), or fails after `ms`. */
export async function waitFor<T>(what: string, check: () => Promise<T | undefined>, ms = 5_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export async function status(m: Member): Promise<any> {
  const res = await m.anon.get(`${DR}/status`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

export async function expectNoContent(res: { status: number; body: any }): Promise<void> {
  expect(res.status, JSON.stringify(res.body)).toBe(204);
}

/** A wrapped activation token from `primary` for secondary `id` (secrets: callers record them). */
export async function activationToken(primary: Member, id: string, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await primary.api.post(`${DR}/primary/secondary-token`, { id, ...extra });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const token = res.body.wrap_info?.token ?? res.body.data?.token;
  expect(typeof token).toBe('string');
  return token;
}

/** The secondary follows the primary and holds exactly its data (same merkle root, in stream-wals). */
export async function inSync(primary: Member, secondary: Member, ms = 5_000): Promise<void> {
  await waitFor(
    `${secondary.name} in sync with ${primary.name}`,
    async () => {
      const [p, s] = await Promise.all([status(primary), status(secondary)]);
      return s.state === 'stream-wals' && s.connection_state === 'ready' && s.merkle_root === p.merkle_root ? true : undefined;
    },
    ms,
  );
}

/** Generates a DR operation token on `m` from key shares with the OTP round trip. */
export async function operationToken(m: Member, shares: readonly string[], secrets?: Set<string>): Promise<string> {
  const started = await m.anon.post(`${DR}/secondary/generate-operation-token/attempt`, {});
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const { otp, nonce } = started.body;
  secrets?.add(otp);
  let answer: any = started.body;
  for (const key of shares) {
    const res = await m.anon.post(`${DR}/secondary/generate-operation-token/update`, { key, nonce });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    answer = res.body;
    if (answer.complete) break;
  }
  expect(answer.complete).toBe(true);
  secrets?.add(answer.encoded_token);
  const token = decodeWithOtp(answer.encoded_token, otp);
  secrets?.add(token);
  return token;
}

/** No log line holds any of the secrets. */
export function expectNoSecretsIn(logs: readonly string[], secrets: Iterable<string>): void {
  for (const secret of secrets) {
    if (secret.length < 8) continue;
    const leaking = logs.filter((line) => line.includes(secret));
    expect(leaking, `a log line holds a secret`).toEqual([]);
  }
}
