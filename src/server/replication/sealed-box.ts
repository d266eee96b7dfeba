import { Aes256Gcm, CipherSuite, DhkemX25519HkdfSha256, HkdfSha256 } from '@hpke/core';

/**
 * Encryption of an activation token to a secondary's public key (`secondary_public_key`), so the
 * token needs no response wrapping: HPKE (RFC 9180) base mode, DHKEM(X25519, HKDF-SHA256),
 * HKDF-SHA256, AES-256-GCM, through the `@hpke/core` library. HPKE's key schedule binds the
 * recipient's public key and the encapsulated key; the info names the purpose, so a box made for
 * anything else does not open as a token.
 * Sealed text: base64 of the encapsulated key (32) | ciphertext with its tag.
 * Keys travel and are kept as base64 of their raw 32 bytes.
 */

const suite = new CipherSuite({ kem: new DhkemX25519HkdfSha256(), kdf: new HkdfSha256(), aead: new Aes256Gcm() });
const INFO = new TextEncoder().encode('lockstep dr activation token, sealed to secondary_public_key');
const ENC_BYTES = 32;
const TAG_BYTES = 16;
/** PKCS#8 DER of an X25519 private key (how earlier versions kept it): a 16-byte prefix, then the raw key. */
const PKCS8_X25519_BYTES = 48;

export interface KeyPair {
  public_key: string;
  private_key: string;
}

/** A public key as `parsePublicKey` gives it: ready for `seal`. */
export type PublicKey = CryptoKey;

export async function newKeyPair(): Promise<KeyPair> {
  const pair = await suite.kem.generateKeyPair();
  return {
    public_key: Buffer.from(await suite.kem.serializePublicKey(pair.publicKey)).toString('base64'),
    private_key: Buffer.from(await suite.kem.serializePrivateKey(pair.privateKey)).toString('base64'),
  };
}

/** The key of a base64 raw X25519 public key; undefined when it is not one. */
export async function parsePublicKey(text: string): Promise<PublicKey | undefined> {
  const raw = Buffer.from(text.trim(), 'base64');
  if (raw.length !== 32 || raw.toString('base64') !== text.trim()) return undefined;
  try {
    return await suite.kem.deserializePublicKey(Uint8Array.from(raw));
  } catch {
    return undefined;
  }
}

export async function seal(publicKey: PublicKey, plaintext: string): Promise<string> {
  const { ct, enc } = await suite.seal({ recipientPublicKey: publicKey, info: INFO }, new TextEncoder().encode(plaintext));
  return Buffer.concat([Buffer.from(enc), Buffer.from(ct)]).toString('base64');
}

/** The plaintext, or undefined when the text was not sealed to this key pair. */
export async function open(pair: KeyPair, sealed: string): Promise<string | undefined> {
  const bytes = Buffer.from(sealed.trim(), 'base64');
  if (bytes.length < ENC_BYTES + TAG_BYTES + 1) return undefined;
  try {
    const recipientKey = await suite.kem.deserializePrivateKey(rawPrivateKey(pair.private_key));
    const plain = await suite.open(
      { recipientKey, enc: Uint8Array.from(bytes.subarray(0, ENC_BYTES)), info: INFO },
      Uint8Array.from(bytes.subarray(ENC_BYTES)),
    );
    return new TextDecoder('utf-8', { fatal: true }).decode(plain);
  } catch {
    return undefined;
  }
}

function rawPrivateKey(text: string): Uint8Array {
  const bytes = Buffer.from(text, 'base64');
  return Uint8Array.from(bytes.length === PKCS8_X25519_BYTES ? bytes.subarray(PKCS8_X25519_BYTES - 32) : bytes);
}
