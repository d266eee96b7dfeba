/** Lenient readers for key configuration fields; each throws a `config` KeyBackendError. */
import { KeyBackendError, type KeyBackendType } from './errors.js';

export class FieldReader {
  constructor(
    readonly backend: KeyBackendType,
    private readonly fields: object,
  ) {}

  private raw(name: string): unknown {
    const v = (this.fields as Record<string, unknown>)[name];
    return v === null ? undefined : v;
  }

  /** A non-empty trimmed string, or undefined. */
  str(name: string): string | undefined {
    const v = this.raw(name);
    if (v === undefined) return undefined;
    if (typeof v !== 'string' && typeof v !== 'number') throw this.invalid(name, 'must be a string');
    const s = String(v).trim();
    return s === '' ? undefined : s;
  }

  /** A secret string, kept exactly as given (no trim), or undefined when empty. */
  secret(name: string): string | undefined {
    const v = this.raw(name);
    if (v === undefined || v === '') return undefined;
    if (typeof v !== 'string') throw new KeyBackendError('config', this.backend, `${name} must be a string`);
    return v;
  }

  required(name: string): string {
    const v = this.str(name);
    if (v === undefined) throw new KeyBackendError('config', this.backend, `${name} is required`);
    return v;
  }

  bool(name: string, fallback = false): boolean {
    const v = this.raw(name);
    if (v === undefined || v === '') return fallback;
    if (typeof v === 'boolean') return v;
    if (typeof v === 'string' && /^(true|false|1|0)$/i.test(v.trim())) return /^(true|1)$/i.test(v.trim());
    throw this.invalid(name, 'must be a boolean');
  }

  int(name: string): number | undefined {
    const v = this.raw(name);
    if (v === undefined || v === '') return undefined;
    const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*-?\d+\s*$/.test(v) ? Number(v) : NaN;
    if (!Number.isSafeInteger(n)) throw this.invalid(name, 'must be an integer');
    return n;
  }

  /** An integer from a fixed list (key_bits: 2048, 3072, 4096). */
  oneOf(name: string, allowed: readonly number[]): number | undefined {
    const n = this.int(name);
    if (n === undefined || n === 0) return undefined;
    if (!allowed.includes(n)) throw this.invalid(name, `must be one of ${allowed.join(', ')}`);
    return n;
  }

  private invalid(name: string, rule: string): KeyBackendError {
    // The value is not echoed: the reader does not know which fields are secret.
    return new KeyBackendError('config', this.backend, `${name} ${rule}`);
  }
}

/** The spec's RSA `key_bits` values. */
export const RSA_KEY_BITS = [2048, 3072, 4096] as const;
