/**
 * Key-pair generation for allow_generate_key: EC on `curve` for the ECDSA mechanisms, RSA of
 * `key_bits` for the RSA ones. Keys are token objects, private, sensitive and not extractable,
 * labelled with key_label, with a random 16-byte CKA_ID shared by both halves (how lockstep
 * finds the public half). CKA_SIGN/CKA_VERIFY follow the usages; RSA keys also get
 * decrypt/encrypt and unwrap/wrap when the usages ask for them.
 */
import { randomBytes } from 'node:crypto';
import type { PKCS11, Template } from 'pkcs11js';
import type { CurveName } from '../curves.js';
import {
  CKA_CLASS, CKA_DECRYPT, CKA_EC_PARAMS, CKA_ENCRYPT, CKA_EXTRACTABLE, CKA_ID, CKA_LABEL,
  CKA_MODULUS_BITS, CKA_PRIVATE, CKA_PUBLIC_EXPONENT, CKA_SENSITIVE, CKA_SIGN, CKA_TOKEN,
  CKA_UNWRAP, CKA_VERIFY, CKA_WRAP, CKM_EC_KEY_PAIR_GEN, CKM_RSA_PKCS_KEY_PAIR_GEN,
  CKO_PRIVATE_KEY, CKO_PUBLIC_KEY,
} from './constants.js';
import { CURVE_PARAMS } from './ec.js';
import { pkcs11Error } from './errors.js';

type Handle = Buffer;

export type KeySpec = { family: 'EC'; curve: CurveName } | { family: 'RSA'; bits: number };

export async function generateKeyPair(
  lib: PKCS11,
  session: Handle,
  spec: KeySpec,
  label: string,
  usages: string[],
): Promise<Handle> {
  const id = randomBytes(16);
  const has = (u: string): boolean => usages.includes(u);
  const rsa = spec.family === 'RSA';
  const common: Template = [
    { type: CKA_TOKEN, value: true },
    { type: CKA_LABEL, value: label },
    { type: CKA_ID, value: id },
  ];
  const publicTemplate: Template = [
    ...common,
    { type: CKA_CLASS, value: CKO_PUBLIC_KEY },
    { type: CKA_VERIFY, value: has('verify') || has('sign') },
    ...(rsa
      ? [
          { type: CKA_MODULUS_BITS, value: spec.bits },
          { type: CKA_PUBLIC_EXPONENT, value: Buffer.from([1, 0, 1]) },
          { type: CKA_ENCRYPT, value: has('encrypt') },
          { type: CKA_WRAP, value: has('wrap') },
        ]
      : [{ type: CKA_EC_PARAMS, value: CURVE_PARAMS[spec.curve] }]),
  ];
  const privateTemplate: Template = [
    ...common,
    { type: CKA_CLASS, value: CKO_PRIVATE_KEY },
    { type: CKA_PRIVATE, value: true },
    { type: CKA_SENSITIVE, value: true },
    { type: CKA_EXTRACTABLE, value: false },
    { type: CKA_SIGN, value: has('sign') },
    ...(rsa
      ? [
          { type: CKA_DECRYPT, value: has('decrypt') },
          { type: CKA_UNWRAP, value: has('unwrap') },
        ]
      : []),
  ];
  const mechanism = { mechanism: rsa ? CKM_RSA_PKCS_KEY_PAIR_GEN : CKM_EC_KEY_PAIR_GEN };
  try {
    const pair = await lib.C_GenerateKeyPairAsync(session, mechanism, publicTemplate, privateTemplate);
    return pair.privateKey;
  } catch (err) {
    throw pkcs11Error(err, `generating ${rsa ? `an RSA ${spec.bits}` : `an EC ${spec.curve}`} key "${label}"`);
  }
}
