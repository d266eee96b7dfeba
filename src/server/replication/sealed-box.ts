import { createCipheriv, createDecipheriv, createPrivateKey, createPublicKey, diffieHellman, generateKeyPairSync, hkdfSync, randomBytes, type KeyObject } from 'node:crypto';

/**
 * Encryption of an activation token to a secondary's public key (`secondary_public_key`), so the
 * token needs no response wrapping: X25519 with an ephemeral key, HKDF-SHA256, AES-256-GCM.
 * Sealed text: base64 of ephemeral public key (32) | nonce (12) | ciphertext | tag (16).
 * Public keys travel as base64 of the raw 32 bytes; private keys are kept as PKCS#8 DER base64.
 */

const INFO = Buffer.from('lockstep dr activation token');
const X25519_SPKI_PREFIX = Buffer.from('302a300506032b656e032100', 'hex');

export interface KeyPair {
  public_key: string;
  private_key: string;
}

export function newKeyPair(): KeyPair {
  const { publicKey, privateKey } = generateKeyPairSync('x25519');
  return {
    public_key: rawPublicKey(publicKey).toString('base64'),
    private_key: privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64'),
  };
}

/** The key object of a base64 raw X25519 public key; undefined when it is not one. */
export function parsePublicKey(text: string): KeyObject | undefined {
  const raw = Buffer.from(text.trim(), 'base64');
  if (raw.length !== 32 || raw.toString('base64') !== text.trim()) return undefined;
  try {
    return createPublicKey({ key: Buffer.concat([X25519_SPKI_PREFIX, raw]), format: 'der', type: 'spki' });
  } catch {
    return undefined;
  }
}

export function seal(publicKey: KeyObject, plaintext: string): string {
  const ephemeral = generateKeyPairSync('x25519');
  const shared = diffieHellman({ privateKey: ephemeral.privateKey, publicKey });
  const ephemeralRaw = rawPublicKey(ephemeral.publicKey);
  const key = Buffer.from(hkdfSync('sha256', shared, ephemeralRaw, INFO, 32));
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return Buffer.concat([ephemeralRaw, nonce, body, cipher.getAuthTag()]).toString('base64');
}

/** The plaintext, or undefined when the text was not sealed to this key pair. */
export function open(pair: KeyPair, sealed: string): string | undefined {
  const bytes = Buffer.from(sealed.trim(), 'base64');
  if (bytes.length < 32 + 12 + 16 + 1) return undefined;
  const ephemeralRaw = bytes.subarray(0, 32);
  const publicKey = parsePublicKey(ephemeralRaw.toString('base64'));
  if (!publicKey) return undefined;
  try {
    const privateKey = createPrivateKey({ key: Buffer.from(pair.private_key, 'base64'), format: 'der', type: 'pkcs8' });
    const key = Buffer.from(hkdfSync('sha256', diffieHellman({ privateKey, publicKey }), ephemeralRaw, INFO, 32));
    const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(32, 44));
    decipher.setAuthTag(bytes.subarray(bytes.length - 16));
    return Buffer.concat([decipher.update(bytes.subarray(44, bytes.length - 16)), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}

function rawPublicKey(key: KeyObject): Buffer {
  return key.export({ format: 'der', type: 'spki' }).subarray(X25519_SPKI_PREFIX.length);
}
