import { isApiError } from '../../client/errors.js';
import type { ClusterClient } from '../../client/types.js';
import type { JsonObject } from '../../core/json.js';
import { record } from '../../core/json-shape.js';
import { checkLiveAnswer } from '../../core/live-shape.js';
import type { Secret } from '../../core/secret.js';
import { ATTEMPT_PATH, drPath, UPDATE_PATH } from './addresses.js';
import { isUncertain } from './outcome.js';
import { decodeOperationToken } from './otp.js';
import type { DrRunStore } from './run-store.js';

const DELETE_PATH = drPath('secondary/operation-token/delete');

/**
 * Generates a DR operation token on a secondary from root key shares (spec: authentication
 * item 6): start an attempt (the service returns a one-time password), give shares with the
 * attempt's nonce until it completes, decode `encoded_token` with the OTP.
 *
 * An attempt already in progress is cancelled first: only one may run at a time and one left
 * behind is almost always from an interrupted run (cancelling only clears its progress; it
 * issues nothing). Any failure after the start cancels the attempt again; no request is retried
 * (a lost answer to the last `update` would have issued a token lockstep never saw).
 */
export async function generateOperationToken(client: ClusterClient, shares: readonly Secret[], store: DrRunStore): Promise<Secret> {
  const cluster = client.cluster;
  if (shares.length === 0) throw new Error(`no key shares to generate a DR operation token on ${cluster}`);
  const current = attemptOf(client, 'GET', ATTEMPT_PATH, await client.request('GET', ATTEMPT_PATH));
  if (current['started'] === true) await client.request('DELETE', ATTEMPT_PATH);

  const startAnswer = await client.request('POST', ATTEMPT_PATH, { body: {} });
  try {
    const started = attemptOf(client, 'POST', ATTEMPT_PATH, startAnswer);
    const otp = text(started['otp']);
    store.remember(otp);
    const nonce = text(started['nonce']);
    if (otp === '' || nonce === '') throw new Error(`${cluster} started an operation-token attempt without a one-time password or nonce`);
    let answer: JsonObject = started;
    for (const share of shares) {
      answer = attemptOf(client, 'POST', UPDATE_PATH, await client.request('POST', UPDATE_PATH, { body: { key: share, nonce } }));
      if (answer['complete'] === true) break;
    }
    if (answer['complete'] !== true) {
      const required = typeof answer['required'] === 'number' ? answer['required'] : '?';
      throw new Error(`${shares.length} key share${shares.length === 1 ? '' : 's'} given, ${required} required to generate a DR operation token on ${cluster}`);
    }
    const encoded = text(answer['encoded_token']);
    store.remember(encoded);
    if (encoded === '') throw new Error(`${cluster} completed the operation-token attempt without an encoded token`);
    const token = decodeOperationToken(encoded, otp);
    return store.secret(token, `generated:${cluster}`);
  } catch (err) {
    await client.request('DELETE', ATTEMPT_PATH).catch(() => undefined);
    throw err;
  }
}

/**
 * Revokes a DR operation token. After an uncertain first attempt (the answer was lost) a second
 * one tells: a token already deleted is refused as invalid, which means done.
 */
export async function deleteOperationToken(client: ClusterClient, token: Secret): Promise<void> {
  try {
    await client.write(DELETE_PATH, { dr_operation_token: token });
  } catch (err) {
    if (!isUncertain(err)) throw err;
    try {
      await client.write(DELETE_PATH, { dr_operation_token: token });
    } catch (again) {
      if (isApiError(again) && (again.status === 400 || again.status === 403)) return;
      throw again;
    }
  }
}

/**
 * An operation-token attempt's answer (no envelope: the whole body), its shape checked so a
 * number where the one-time password belongs is named as such, not taken for a missing one.
 */
const ATTEMPT_SHAPE = record({
  started: 'bool',
  nonce: 'text',
  otp: 'text',
  otp_length: 'integer',
  progress: 'integer',
  required: 'integer',
  complete: 'bool',
  encoded_token: 'text',
  encoded_root_token: 'text',
  pgp_fingerprint: 'text',
});

function attemptOf(client: ClusterClient, method: 'GET' | 'POST', path: string, res: { data: JsonObject | null }): JsonObject {
  // A shape error names the field and the kind of value only: the answer carries an encoded token.
  return checkLiveAnswer({ cluster: client.cluster, method, path }, res.data ?? {}, ATTEMPT_SHAPE);
}

function text(v: JsonObject[string] | undefined): string {
  return typeof v === 'string' ? v : '';
}
