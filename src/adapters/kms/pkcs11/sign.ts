/** One signature with a private key found on the token, checked against its public key. */
import type { PKCS11 } from 'pkcs11js';
import { KeyBackendError } from '../errors.js';
import { digest, digestInfo, hashInfo, type HashAlgorithm } from '../hash.js';
import { assertSignatureVerifies } from '../verify.js';
import { CKF_SIGN, CK_PARAMS_RSA_PSS } from './constants.js';
import { pkcs11Error } from './errors.js';
import { publicKeyOf, type PrivateKeyInfo } from './keys.js';
import { describeMechanism, mechanismFamily, signingMechanism, type KeyFamily } from './mechanisms.js';
import type { ResolvedSlot } from './token.js';

type Handle = Buffer;

/** The key must be of the family the configured mechanism implies, and may sign. */
export function assertKeyFits(key: PrivateKeyInfo, mechanism: number): KeyFamily {
  if (key.family === 'other') {
    throw new KeyBackendError('unsupported', 'pkcs11', 'the key is neither an EC nor an RSA key');
  }
  const wanted = mechanismFamily(mechanism);
  if (wanted !== undefined && wanted !== key.family) {
    throw new KeyBackendError('spec', 'pkcs11', `the key is an ${key.family} key but mechanism ${describeMechanism(mechanism)} needs an ${wanted} key`);
  }
  if (!key.canSign) {
    throw new KeyBackendError('usage', 'pkcs11', 'the key may not sign (CKA_SIGN is false)');
  }
  return key.family;
}

/** The token must offer the raw mechanism for signing. */
export function assertTokenSigns(lib: PKCS11, slot: ResolvedSlot, mechanism: number): void {
  let flags: number;
  try {
    flags = lib.C_GetMechanismInfo(slot.handle, mechanism).flags;
  } catch (err) {
    throw pkcs11Error(err, `token "${slot.tokenLabel}" does not offer ${describeMechanism(mechanism)}`, 'unsupported');
  }
  if ((flags & CKF_SIGN) === 0) {
    throw new KeyBackendError('unsupported', 'pkcs11', `token "${slot.tokenLabel}" cannot sign with ${describeMechanism(mechanism)}`);
  }
}

export interface SignRequest {
  data: Buffer;
  hash: HashAlgorithm;
  usePss: boolean;
}

export async function signAndVerify(
  lib: PKCS11,
  slot: ResolvedSlot,
  session: Handle,
  key: PrivateKeyInfo,
  family: KeyFamily,
  req: SignRequest,
): Promise<void> {
  const pss = family === 'RSA' && req.usePss;
  const mech = signingMechanism(family, req.hash, pss, hashInfo(req.hash).length);
  assertTokenSigns(lib, slot, mech.mechanism);
  const hashed = digest(req.hash, req.data);
  const input = family === 'RSA' && !pss ? digestInfo(req.hash, hashed) : hashed;
  const what = `signing with ${describeMechanism(mech.mechanism)} over ${req.hash}`;
  let signature: Buffer;
  try {
    const parameter = 'params' in mech ? { type: CK_PARAMS_RSA_PSS, ...mech.params } : undefined;
    lib.C_SignInit(session, { mechanism: mech.mechanism, parameter }, key.handle);
    signature = await lib.C_SignAsync(session, input, Buffer.alloc(1024));
  } catch (err) {
    // A token that rejects the PSS parameters of a hash (SoftHSM: any SHA-3) answers
    // CKR_ARGUMENTS_BAD or CKR_MECHANISM_PARAM_INVALID: the combination is unsupported.
    const unsupported = /CKR_(ARGUMENTS_BAD|MECHANISM_PARAM_INVALID|MECHANISM_INVALID)/.test(String((err as Error)?.message));
    throw pkcs11Error(err, what, unsupported ? 'unsupported' : undefined);
  }
  const { key: publicKey } = publicKeyOf(lib, session, key);
  assertSignatureVerifies('pkcs11', what, publicKey, {
    data: req.data,
    hash: req.hash,
    scheme: family === 'EC' ? { kind: 'ecdsa', encoding: 'ieee-p1363' } : pss ? { kind: 'rsa-pss' } : { kind: 'rsa-pkcs1' },
    signature,
  });
}
