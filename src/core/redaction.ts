import { escapeHtml, escapeMarkdown } from './text-escape.js';

/** How every secret renders, in every format. */
export const REDACTED = '(sensitive)';

/**
 * Secrets shorter than this are redacted only where they stand alone (no letter or digit touches
 * either end): a one-character bindpass must not turn every "p" of every message into
 * "(sensitive)", and a short PIN is still caught wherever it is printed as a value.
 */
const SHORT_SECRET_LENGTH = 8;

/**
 * The one redaction set of a run: every secret text known to it (cluster tokens, every value
 * that reaches a secret field, key shares, operation tokens). Whatever lockstep prints or
 * writes passes through redact(), which replaces each secret in the forms a message can carry
 * it in: as it is, JSON-escaped (up to three levels: an echoed body inside a JSON message), as Go's
 * encoder escapes it (a server echoing a request), percent-encoded, and HTML- or
 * Markdown-escaped (the pull-request comment).
 *
 * Texts can be added while a run goes on (an operation token made during an apply); the
 * matcher is rebuilt lazily, once per change of the set.
 */
export class RedactionSet {
  readonly #texts = new Set<string>();
  #matcher: RegExp | null | undefined;

  constructor(texts: Iterable<string> = []) {
    for (const t of texts) this.add(t);
  }

  /** Adds one secret text. Empty and blank texts reveal nothing and would garble everything. */
  add(text: string): this {
    if (text.trim() === '' || this.#texts.has(text)) return this;
    this.#texts.add(text);
    this.#matcher = undefined;
    return this;
  }

  addAll(texts: Iterable<string>): this {
    for (const t of texts) this.add(t);
    return this;
  }

  get size(): number {
    return this.#texts.size;
  }

  has(text: string): boolean {
    return this.#texts.has(text);
  }

  /** `text` with every secret, in every form, replaced by "(sensitive)". */
  redact(text: string): string {
    const matcher = this.#compile();
    return matcher ? text.replace(matcher, REDACTED) : text;
  }

  /** A copy of a JSON-like value with every string redacted (objects and arrays copied only when needed). */
  redactValue<T>(value: T): T {
    if (typeof value === 'string') return this.redact(value) as T;
    if (value === null || typeof value !== 'object' || this.#texts.size === 0) return value;
    if (Array.isArray(value)) {
      let copy: unknown[] | undefined;
      value.forEach((item: unknown, i) => {
        const r = this.redactValue(item);
        if (r !== item) (copy ??= [...value])[i] = r;
      });
      return (copy ?? value) as T;
    }
    if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null) return value;
    const fields = value as Record<string, unknown>;
    let copy: Record<string, unknown> | undefined;
    for (const key of Object.keys(fields)) {
      const r = this.redactValue(fields[key]);
      if (r !== fields[key]) (copy ??= { ...fields })[key] = r;
    }
    return (copy ?? value) as T;
  }

  #compile(): RegExp | null {
    if (this.#matcher !== undefined) return this.#matcher;
    const long = new Set<string>();
    const short = new Set<string>();
    for (const text of this.#texts) {
      for (const form of formsOf(text)) (text.length < SHORT_SECRET_LENGTH ? short : long).add(form);
    }
    // Longest first: a secret that contains another must not be left half-printed.
    const alternation = (forms: Set<string>): string =>
      [...forms]
        .sort((a, b) => b.length - a.length)
        .map(escapeRegExp)
        .join('|');
    const parts: string[] = [];
    if (long.size > 0) parts.push(`(?:${alternation(long)})`);
    if (short.size > 0) parts.push(`(?<![\\p{L}\\p{N}])(?:${alternation(short)})(?![\\p{L}\\p{N}])`);
    this.#matcher = parts.length > 0 ? new RegExp(parts.join('|'), 'gu') : null;
    return this.#matcher;
  }
}

/** The forms a secret can be printed in. */
export function formsOf(text: string): Set<string> {
  const json = jsonEscaped(text);
  const forms = new Set<string>([
    text,
    json,
    // An echoed request body inside an error inside a JSON document: up to three levels deep.
    jsonEscaped(json),
    jsonEscaped(jsonEscaped(json)),
    goJson(json),
    encodeURIComponent(text),
    encodeURIComponent(text).replace(/%20/g, '+'),
    escapeHtml(text),
    escapeMarkdown(text),
  ]);
  forms.delete('');
  return forms;
}

function jsonEscaped(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

/** Go's encoding/json also escapes <, >, & and the two JavaScript line separators. */
function goJson(json: string): string {
  return json.replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
