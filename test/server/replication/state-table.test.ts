import { describe, expect, it } from 'vitest';
import { newActivationSecret, readActivationToken, signActivationToken, verifyActivationToken } from '../../../src/server/replication/activation-token.js';
import { initialState, type DrState } from '../../../src/server/replication/dr-state.js';
import { drGate } from '../../../src/server/replication/gate.js';
import { decodeWithOtp, encodeWithOtp, newOtp } from '../../../src/server/replication/otp.js';
import { Aes256Gcm, CipherSuite, DhkemX25519HkdfSha256, HkdfSha256 } from '@hpke/core';
import { newKeyPair, open, parsePublicKey, seal } from '../../../src/server/replication/sealed-box.js';
import * as t from '../../../src/server/replication/transitions.js';

/** The pure parts: the state table, the secondary gate, token formats. */
const keys = { root_key: 'ab'.repeat(32), key_threshold: 1 };
const joined = { cluster_id: 'set-1', secondary_id: 'west', primary_cluster_addr: 'https://east:8201', credential: 'c', root_key: 'cd'.repeat(32), key_threshold: 2 };
const link = { api_addr: 'http://127.0.0.1:1', cluster_addr: 'https://east:8201', ca_pem: [], credential: 'c' };

function refusal(f: () => unknown): string {
  try {
    f();
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('expected a refusal');
}

describe('the DR state table', () => {
  const disabled = initialState(keys);

  it('enables a primary only from disabled, each time with a new cluster id', () => {
    const p1 = t.enablePrimary(disabled, '');
    const p2 = t.enablePrimary(t.disablePrimary(p1), '');
    expect(p1.mode).toBe('primary');
    expect(p2.cluster_id).not.toBe(p1.cluster_id);
    expect(refusal(() => t.enablePrimary(p1, ''))).toBe('cannot enable DR primary: DR replication is already enabled on this cluster (its DR mode is primary)');
  });

  it('demotes a primary into a secondary of no primary that keeps its cluster id and data', () => {
    const p = t.enablePrimary(disabled, 'https://lb:8201');
    const s = t.demote(p);
    expect(s).toMatchObject({ mode: 'secondary', cluster_id: p.cluster_id, primary: null, secondary_id: '', has_data: true });
    expect(refusal(() => t.demote(s))).toBe('this cluster is not a DR primary (its DR mode is secondary)');
    const again = t.promote(s, '');
    expect(again.cluster_id).toBe(p.cluster_id);
    expect(again.secondaries).toEqual([]);
  });

  it('enables a secondary only from disabled, taking the set keys; its operation tokens go with the wipe', () => {
    const withToken = t.withOperationToken(disabled, 'digest');
    const s = t.enableSecondary(withToken, joined, link);
    expect(s).toMatchObject({ mode: 'secondary', cluster_id: 'set-1', secondary_id: 'west', has_data: false, operation_tokens: [] });
    expect(s.keys).toEqual({ root_key: joined.root_key, key_threshold: 2 });
    expect(refusal(() => t.enableSecondary(s, joined, link))).toMatch(/^cannot enable DR secondary: .*its DR mode is secondary/);
    expect(refusal(() => t.enableSecondary(t.enablePrimary(disabled, ''), joined, link))).toMatch(/its DR mode is primary/);
  });

  it('re-points a secondary only within its set, keeping its data flag and tokens', () => {
    const s: DrState = { ...t.enableSecondary(disabled, joined, link), has_data: true, operation_tokens: ['d'] };
    const moved = t.repoint(s, { ...joined, secondary_id: 'west-2' }, { ...link, api_addr: 'http://127.0.0.1:2' });
    expect(moved).toMatchObject({ secondary_id: 'west-2', has_data: true, operation_tokens: ['d'] });
    expect(refusal(() => t.repoint(s, { ...joined, cluster_id: 'other' }, link))).toMatch(/another replication set/);
    expect(t.forgetPrimary(s).primary).toBeNull();
    expect(refusal(() => t.forgetPrimary(disabled))).toMatch(/not a DR secondary/);
  });

  it('keeps one pending token per id and refuses one for a registered secondary', () => {
    let p = t.enablePrimary(disabled, '');
    p = t.withPending(p, { id: 'west', secret_digest: 'a', expires_at_ms: 1 });
    p = t.withPending(p, { id: 'west', secret_digest: 'b', expires_at_ms: 2 });
    expect(p.pending).toEqual([{ id: 'west', secret_digest: 'b', expires_at_ms: 2 }]);
    p = t.withRegistered(p, { id: 'west', credential_digest: 'c', api_address: '', activated_at_ms: 0 });
    expect(p.pending).toEqual([]);
    expect(refusal(() => t.withPending(p, { id: 'west', secret_digest: 'x', expires_at_ms: 3 }))).toBe('a secondary with id "west" is already registered; revoke it first');
    expect(t.withoutSecondary(p, 'west').secondaries).toEqual([]);
  });
});

describe('the DR secondary gate', () => {
  it('serves only DR secondary endpoints, the status, health and the replication stream on a secondary', () => {
    for (const path of ['sys/health', 'sys/replication/dr/status', 'sys/replication/dr/secondary/promote', 'sys/replication/dr/emulator/stream']) {
      expect(drGate('secondary', path)).toBe('open');
    }
    for (const path of ['sys/auth', 'auth/ldap/config', 'sys/replication/dr/primary/demote', 'ns1/sys/replication/dr/status', 'sys/healthy']) {
      expect(drGate('secondary', path)).toBe('refuse');
    }
    expect(drGate('primary', 'sys/auth')).toBe('normal');
    expect(drGate('disabled', 'sys/replication/dr/secondary/enable')).toBe('normal');
  });
});

describe('token formats', () => {
  it('encodes an operation token with an OTP of the same length, reversibly', () => {
    const otp = newOtp();
    expect(otp).toMatch(/^[0-9A-Za-z]{28}$/);
    const token = 'hvs.' + 'x'.repeat(24);
    const encoded = encodeWithOtp(token, otp);
    expect(encoded).not.toContain('=');
    expect(decodeWithOtp(encoded, otp)).toBe(token);
    expect(() => encodeWithOtp('short', otp)).toThrow(/differ in length/);
  });

  it('signs activation tokens; anyone reads them, only the primary verifies them', () => {
    const claims = { addr: 'http://127.0.0.1:8200', cluster_addr: 'x', cid: 'set', id: 'west', iat: 1, exp: 2, jti: newActivationSecret() };
    const key = 'ab'.repeat(32);
    const token = signActivationToken(claims, key);
    expect(token.split('.')).toHaveLength(3);
    expect(readActivationToken(token)).toEqual(claims);
    expect(verifyActivationToken(token, key)).toEqual(claims);
    expect(verifyActivationToken(token, 'cd'.repeat(32))).toBeUndefined();
    const [h, , s] = token.split('.');
    const tampered = `${h}.${Buffer.from(JSON.stringify({ ...claims, id: 'south' })).toString('base64url')}.${s}`;
    expect(verifyActivationToken(tampered, key)).toBeUndefined();
  });

  it('seals a text to a generated public key; only that key pair opens it', async () => {
    const pair = await newKeyPair();
    const other = await newKeyPair();
    const sealed = await seal((await parsePublicKey(pair.public_key))!, 'the token');
    expect(await open(pair, sealed)).toBe('the token');
    expect(await open(other, sealed)).toBeUndefined();
    expect(await open(pair, sealed.slice(0, -4) + 'AAAA')).toBeUndefined();
    expect(await parsePublicKey('not a key')).toBeUndefined();
    expect(await parsePublicKey(Buffer.alloc(31).toString('base64'))).toBeUndefined();
  });

  it('#15.3: the sealed box is HPKE base mode (X25519, HKDF-SHA256, AES-256-GCM) bound to the recipient key and its purpose', async () => {
    const pair = await newKeyPair();
    const sealed = Buffer.from(await seal((await parsePublicKey(pair.public_key))!, 'the token'), 'base64');
    const suite = new CipherSuite({ kem: new DhkemX25519HkdfSha256(), kdf: new HkdfSha256(), aead: new Aes256Gcm() });
    const recipientKey = await suite.kem.deserializePrivateKey(Uint8Array.from(Buffer.from(pair.private_key, 'base64')));
    const enc = Uint8Array.from(sealed.subarray(0, 32));
    const ct = Uint8Array.from(sealed.subarray(32));
    const info = new TextEncoder().encode('lockstep dr activation token, sealed to secondary_public_key');
    expect(new TextDecoder().decode(await suite.open({ recipientKey, enc, info }, ct))).toBe('the token');
    // Another purpose (info) does not open it: a box made for something else is not a token.
    await expect(suite.open({ recipientKey, enc, info: new TextEncoder().encode('something else') }, ct)).rejects.toThrow();
    // A box sealed by the library to this key opens only with the purpose's info.
    const foreign = await suite.seal({ recipientPublicKey: (await parsePublicKey(pair.public_key))!, info: new TextEncoder().encode('other') }, new TextEncoder().encode('x'));
    expect(await open(pair, Buffer.concat([Buffer.from(foreign.enc), Buffer.from(foreign.ct)]).toString('base64'))).toBeUndefined();
  });
});
