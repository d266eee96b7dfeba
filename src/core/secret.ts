import { inspect } from 'node:util';
import { REDACTED, RedactionSet } from './redaction.js';

export { REDACTED };

/**
 * A secret value resolved from a `${env:...}` or `${file:...}` reference (or a literal allowed
 * by --allow-plaintext-secrets). Its text is reachable only through reveal(), which only the
 * code that sends a request calls; JSON.stringify, String(), template literals and
 * console/inspect all give "(sensitive)", so an accidental leak prints nothing secret.
 */
export class Secret {
  readonly #value: string;
  /** Where it came from, e.g. `env:LDAP_BINDPASS`; safe to show. */
  readonly origin: string;

  constructor(value: string, origin: string) {
    this.#value = value;
    this.origin = origin;
  }

  reveal(): string {
    return this.#value;
  }

  toJSON(): string {
    return REDACTED;
  }

  toString(): string {
    return REDACTED;
  }

  [inspect.custom](): string {
    return REDACTED;
  }
}

export function isSecret(v: unknown): v is Secret {
  return v instanceof Secret;
}

/**
 * `value` with every Secret replaced by its text, for a request body only. Copies only the
 * arrays and objects on the way to a Secret and never changes `value`; a value without
 * secrets (most request bodies) comes back as it is, so treat the result as read-only.
 */
export function revealDeep<T>(value: T): unknown {
  if (value instanceof Secret) return value.reveal();
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((item: unknown, i) => {
      const revealed = revealDeep(item);
      if (revealed !== item) (copy ??= [...value])[i] = revealed;
    });
    return copy ?? value;
  }
  const fields = value as Record<string, unknown>;
  let copy: Record<string, unknown> | undefined;
  for (const key of Object.keys(fields)) {
    const revealed = revealDeep(fields[key]);
    if (revealed !== fields[key]) (copy ??= { ...fields })[key] = revealed;
  }
  return copy ?? value;
}

/** Collects the texts of every Secret in a value (used to scrub error messages). */
export function collectSecretTexts(value: unknown, into: Set<string> = new Set()): Set<string> {
  if (value instanceof Secret) {
    if (value.reveal().length > 0) into.add(value.reveal());
  } else if (Array.isArray(value)) {
    for (const v of value) collectSecretTexts(v, into);
  } else if (value !== null && typeof value === 'object') {
    for (const v of Object.values(value)) collectSecretTexts(v, into);
  }
  return into;
}

/** Replaces every occurrence of the given texts, in every form, by "(sensitive)" (see RedactionSet). */
export function scrub(message: string, secrets: Iterable<string> | RedactionSet): string {
  return (secrets instanceof RedactionSet ? secrets : new RedactionSet(secrets)).redact(message);
}
