import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * What the embedded server writes to disk is sealed, as a real server's storage is encrypted
 * behind its barrier: the values it holds (bind passwords, cloud credentials, HSM PINs) never
 * lie in a file in clear. AES-256-GCM, a random 96-bit nonce per sealed item:
 *
 *   0x02 | nonce (12 bytes) | ciphertext | tag (16 bytes)
 *
 * Every item is sealed for one place, named by its additional authenticated data (AAD): a store
 * record for its place in its log, a snapshot's entries for its header. Moved elsewhere (records
 * swapped, a header rewritten), it no longer opens, as the real barrier binds each entry to its
 * storage path (hashicorp/vault vault/barrier_aes_gcm.go: the path is the AEAD's AAD).
 * Version 0x01 (earlier versions) was sealed without AAD; it is recognised, not opened.
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

  /** Seals `plain` for the place `aad` names. */
  seal(plain: Buffer, aad: Buffer): Buffer {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#key, nonce);
    cipher.setAAD(aad);
    const body = Buffer.concat([cipher.update(plain), cipher.final()]);
    return Buffer.concat([VERSION, nonce, body, cipher.getAuthTag()]);
  }

  /**
   * The plain bytes, or undefined when `sealed` was not sealed with this key for the place `aad`
   * names (or was altered).
   */
  open(sealed: Buffer, aad: Buffer): Buffer | undefined {
    if (Barrier.formatOf(sealed) !== 'bound' || sealed.length < 1 + NONCE_BYTES + TAG_BYTES) return undefined;
    const nonce = sealed.subarray(1, 1 + NONCE_BYTES);
    const tag = sealed.subarray(sealed.length - TAG_BYTES);
    const decipher = createDecipheriv('aes-256-gcm', this.#key, nonce);
    decipher.setAAD(aad);
    decipher.setAuthTag(tag);
    try {
      return Buffer.concat([decipher.update(sealed.subarray(1 + NONCE_BYTES, sealed.length - TAG_BYTES)), decipher.final()]);
    } catch {
      return undefined;
    }
  }

  /**
   * What wrote `data`: this version ('bound': sealed with AAD), an earlier one that sealed
   * without AAD ('unbound'), or one that wrote JSON in clear ('clear', starts with `{`).
   */
  static formatOf(data: Buffer): 'bound' | 'unbound' | 'clear' | 'unknown' {
    switch (data[0]) {
      case VERSION[0]:
        return 'bound';
      case 0x01:
        return 'unbound';
      case 0x7b:
        return 'clear';
      default:
        return 'unknown';
    }
  }
}

const VERSION = Buffer.from([0x02]);
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
