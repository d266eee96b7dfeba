import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * What the embedded server writes to disk is sealed, as a real server's storage is encrypted
 * behind its barrier: the values it holds (bind passwords, cloud credentials, HSM PINs) never
 * lie in a file in clear. AES-256-GCM, a random 96-bit nonce per sealed item:
 *
 *   0x01 | nonce (12 bytes) | ciphertext | tag (16 bytes)
 *
 * The key is the cluster's storage key (cluster.json, mode 0600, beside the store): a copy of
 * the store alone reveals nothing, while the cluster opens it on start without an unseal step.
 */
export class Barrier {
  static readonly KEY_BYTES = 32;
  readonly #key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== Barrier.KEY_BYTES) throw new RangeError(`a barrier key is ${Barrier.KEY_BYTES} bytes, got ${key.length}`);
    this.#key = Buffer.from(key);
  }

  static newKey(): Buffer {
    return randomBytes(Barrier.KEY_BYTES);
  }

  seal(plain: Buffer): Buffer {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#key, nonce);
    const body = Buffer.concat([cipher.update(plain), cipher.final()]);
    return Buffer.concat([VERSION, nonce, body, cipher.getAuthTag()]);
  }

  /** The plain bytes, or undefined when `sealed` was not sealed with this key (or was altered). */
  open(sealed: Buffer): Buffer | undefined {
    if (!Barrier.isSealed(sealed) || sealed.length < 1 + NONCE_BYTES + TAG_BYTES) return undefined;
    const nonce = sealed.subarray(1, 1 + NONCE_BYTES);
    const tag = sealed.subarray(sealed.length - TAG_BYTES);
    const decipher = createDecipheriv('aes-256-gcm', this.#key, nonce);
    decipher.setAuthTag(tag);
    try {
      return Buffer.concat([decipher.update(sealed.subarray(1 + NONCE_BYTES, sealed.length - TAG_BYTES)), decipher.final()]);
    } catch {
      return undefined;
    }
  }

  /** Sealed data starts with the version byte; what earlier versions wrote in clear starts with `{`. */
  static isSealed(data: Buffer): boolean {
    return data.length > 0 && data[0] === VERSION[0];
  }
}

const VERSION = Buffer.from([0x01]);
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
