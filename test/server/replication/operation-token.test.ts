import * as openpgp from 'openpgp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { decodeWithOtp } from '../../../src/server/replication/otp.js';
import { startTestServer } from '../helpers.js';
import { activationToken, DR, expectNoSecretsIn, inSync, member, operationToken, type Member } from './support.js';

/**
 * DR operation-token generation on a secondary: the attempt, shares with the nonce, the OTP
 * round trip or PGP encryption, one attempt at a time, cancellation, and the token's life.
 */
const ATTEMPT = `${DR}/secondary/generate-operation-token/attempt`;
const UPDATE = `${DR}/secondary/generate-operation-token/update`;

let server: Awaited<ReturnType<typeof startTestServer>>;
let east: Member;
let west: Member;
let shares: string[];
const secrets = new Set<string>();

beforeAll(async () => {
  server = await startTestServer({ clusters: ['east', 'west'], keyShares: 3, keyThreshold: 2 });
  [east, west] = server.clusters.map(member) as [Member, Member];
  shares = server.clusters[0]!.keyShares;
  for (const c of server.clusters) c.keyShares.forEach((s) => secrets.add(s));
  expect((await east.api.post(`${DR}/primary/enable`, {})).status).toBe(204);
  const token = await activationToken(east, 'west');
  secrets.add(token);
  expect((await west.api.post(`${DR}/secondary/enable`, { token })).status).toBe(204);
  await inSync(east, west);
});
afterAll(async () => {
  await server.close();
  expectNoSecretsIn(server.logs, secrets);
});
beforeEach(async () => {
  await west.anon.delete(ATTEMPT);
});

const base64 = (hex: string) => Buffer.from(hex, 'hex').toString('base64');

describe('DR operation-token generation', () => {
  it('shows no attempt before one starts (bare object, no envelope)', async () => {
    const res = await west.anon.get(ATTEMPT);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      started: false,
      nonce: '',
      progress: 0,
      required: 2,
      complete: false,
      encoded_token: '',
      encoded_root_token: '',
      pgp_fingerprint: '',
      otp: '', // #14: always present (vault/generate_root.go)
      otp_length: 28,
    });
  });

  it('issues a token after threshold shares: OTP given once, token = OTP XOR encoded', async () => {
    const start = await west.anon.post(ATTEMPT, {});
    expect(start.status).toBe(200);
    const { otp, nonce } = start.body;
    secrets.add(otp);
    expect(otp).toMatch(/^[0-9A-Za-z]{28}$/);
    expect(start.body).toMatchObject({ started: true, progress: 0, required: 2, complete: false, otp_length: 28, pgp_fingerprint: '' });
    expect(nonce).not.toBe('');

    const again = await west.anon.get(ATTEMPT);
    expect(again.body).toMatchObject({ started: true, nonce, progress: 0 });
    expect(again.body.otp).toBe(''); // #14: the generated one only in the answer that started it

    const first = await west.anon.post(UPDATE, { key: shares[0], nonce });
    expect(first.body).toMatchObject({ started: true, nonce, progress: 1, required: 2, complete: false, encoded_token: '' });
    const done = await west.anon.post(UPDATE, { key: base64(shares[2]!), nonce }); // base64 is accepted too
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ complete: true, progress: 2, required: 2, nonce });
    const encoded: string = done.body.encoded_token;
    secrets.add(encoded);
    expect(encoded).not.toMatch(/=/); // no padding
    expect(Buffer.from(encoded, 'base64')).toHaveLength(28);
    const token = decodeWithOtp(encoded, otp);
    secrets.add(token);
    expect(token).toMatch(/^hvs\.[0-9A-Za-z]{24}$/);

    // The attempt is over; the token authorises DR operations until it is deleted.
    expect((await west.anon.get(ATTEMPT)).body.started).toBe(false);
    expect((await west.anon.post(`${DR}/secondary/reindex`, { dr_operation_token: token })).status).toBe(204);
    expect((await west.anon.post(`${DR}/secondary/operation-token/delete`, { dr_operation_token: token })).status).toBe(204);
    const revoked = await west.anon.post(`${DR}/secondary/reindex`, { dr_operation_token: token });
    expect(revoked).toEqual({ status: 400, body: { errors: ['invalid DR operation token'] } });
    const twice = await west.anon.post(`${DR}/secondary/operation-token/delete`, { dr_operation_token: token });
    expect(twice.status).toBe(400);
  });

  it('refuses a second attempt while one is in progress', async () => {
    expect((await west.anon.post(ATTEMPT, {})).status).toBe(200);
    const second = await west.anon.post(ATTEMPT, {});
    expect(second.status).toBe(400);
    expect(second.body.errors[0]).toMatch(/already in progress/);
  });

  it('refuses a wrong nonce, a repeated share and a share that is no share', async () => {
    const { nonce } = (await west.anon.post(ATTEMPT, {})).body;
    const wrong = await west.anon.post(UPDATE, { key: shares[0], nonce: 'not-the-nonce' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors[0]).toMatch(/incorrect nonce/);
    expect((await west.anon.post(UPDATE, { key: shares[0], nonce })).body.progress).toBe(1);
    const repeated = await west.anon.post(UPDATE, { key: base64(shares[0]!), nonce });
    expect(repeated.status).toBe(400);
    expect(repeated.body.errors[0]).toMatch(/already been provided/);
    const junk = await west.anon.post(UPDATE, { key: 'not hex!', nonce });
    expect(junk.status).toBe(400);
    expect((await west.anon.get(ATTEMPT)).body.progress).toBe(1);
    expect((await west.anon.post(UPDATE, { key: shares[1] })).status).toBe(400); // nonce required
  });

  it('cancels an attempt (DELETE), clearing its progress; a new one gets a new nonce', async () => {
    const first = (await west.anon.post(ATTEMPT, {})).body.nonce;
    await west.anon.post(UPDATE, { key: shares[1], nonce: first });
    expect((await west.anon.delete(ATTEMPT)).status).toBe(204);
    expect((await west.anon.get(ATTEMPT)).body).toMatchObject({ started: false, progress: 0, nonce: '' });
    expect((await west.anon.post(UPDATE, { key: shares[2], nonce: first })).status).toBe(400);
    const second = await west.anon.post(ATTEMPT, {});
    expect(second.status).toBe(200);
    expect(second.body.nonce).not.toBe(first);
  });

  it('uses the set root key: the secondary\'s own initial shares no longer open it', async () => {
    const own = server.clusters[1]!.keyShares; // west's shares from its own initialisation
    const { nonce } = (await west.anon.post(ATTEMPT, {})).body;
    await west.anon.post(UPDATE, { key: own[0], nonce });
    const refused = await west.anon.post(UPDATE, { key: own[1], nonce });
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0]).toMatch(/do not rebuild the root key/);
    // The attempt stays, its progress cleared: the right shares still work.
    expect((await west.anon.get(ATTEMPT)).body).toMatchObject({ started: true, nonce, progress: 0 });
    await west.anon.post(UPDATE, { key: shares[0], nonce });
    expect((await west.anon.post(UPDATE, { key: shares[1], nonce })).body.complete).toBe(true);
  });

  it('encodes with an OTP given by the caller, which is then not returned', async () => {
    const otp = 'A'.repeat(14) + 'b'.repeat(14);
    const start = await west.anon.post(ATTEMPT, { otp });
    expect(start.status).toBe(200);
    expect(start.body.otp).toBe('');
    await west.anon.post(UPDATE, { key: shares[0], nonce: start.body.nonce });
    const done = await west.anon.post(UPDATE, { key: shares[1], nonce: start.body.nonce });
    secrets.add(done.body.encoded_token);
    const token = decodeWithOtp(done.body.encoded_token, otp);
    secrets.add(token);
    expect((await west.anon.post(`${DR}/secondary/operation-token/delete`, { dr_operation_token: token })).status).toBe(204);
    expect((await west.anon.post(ATTEMPT, { otp: 'short' })).status).toBe(400);
  });

  it('encrypts the token to a PGP key instead (round trip with openpgp)', async () => {
    const { privateKey, publicKey } = await openpgp.generateKey({ type: 'ecc', curve: 'curve25519Legacy', userIDs: [{ name: 'dr operator' }], format: 'object' });
    const pgpKey = Buffer.from(publicKey.write()).toString('base64');
    const start = await west.anon.post(ATTEMPT, { pgp_key: pgpKey });
    expect(start.status, JSON.stringify(start.body)).toBe(200);
    expect(start.body.otp).toBe('');
    expect(start.body.pgp_fingerprint).toBe(publicKey.getFingerprint());
    expect((await west.anon.get(ATTEMPT)).body.pgp_fingerprint).toBe(publicKey.getFingerprint());
    await west.anon.post(UPDATE, { key: shares[2], nonce: start.body.nonce });
    const done = await west.anon.post(UPDATE, { key: shares[0], nonce: start.body.nonce });
    expect(done.body.complete).toBe(true);
    secrets.add(done.body.encoded_token);
    const message = await openpgp.readMessage({ binaryMessage: new Uint8Array(Buffer.from(done.body.encoded_token, 'base64')) });
    const { data } = await openpgp.decrypt({ message, decryptionKeys: privateKey, format: 'binary' });
    const token = Buffer.from(data as Uint8Array).toString('utf8');
    secrets.add(token);
    expect(token).toMatch(/^hvs\./);
    expect((await west.anon.post(`${DR}/secondary/reindex`, { dr_operation_token: token })).status).toBe(204);
    await west.anon.post(`${DR}/secondary/operation-token/delete`, { dr_operation_token: token });
  });

  it('refuses a PGP key that is not one, and an OTP together with a PGP key', async () => {
    expect((await west.anon.post(ATTEMPT, { pgp_key: Buffer.from('nope').toString('base64') })).status).toBe(400);
    const both = await west.anon.post(ATTEMPT, { pgp_key: 'x', otp: 'y'.repeat(28) });
    expect(both.status).toBe(400);
    expect(both.body.errors[0]).toMatch(/only one of otp and pgp_key/);
    expect((await west.anon.get(ATTEMPT)).body.started).toBe(false);
  });

  it('refuses to start on a cluster that is not a DR secondary', async () => {
    const res = await east.anon.post(ATTEMPT, {});
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatch(/generated on a DR secondary/);
  });

  it('gives tokens that work with the support helper too (several in a row)', async () => {
    const a = await operationToken(west, shares, secrets);
    const b = await operationToken(west, [shares[2]!, shares[1]!], secrets);
    expect(a).not.toBe(b);
    for (const t of [a, b]) expect((await west.anon.post(`${DR}/secondary/operation-token/delete`, { dr_operation_token: t })).status).toBe(204);
  });
});
