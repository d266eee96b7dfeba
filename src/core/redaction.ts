import { decodedViews, mapEncodedLines, mayHoldEncoded } from './decoded-views.js';
import { aloneIn, replaceAlone, standingAlone } from './standing-alone.js';
import { escapeHtml, escapeMarkdown } from './text-escape.js';

/** How every secret renders, in every format. */
export const REDACTED = '(sensitive)';

/**
 * The one threshold between short and long secrets. Secrets shorter than this are redacted only
 * where they stand alone (no letter or digit touches either end, the end of an escape such as
 * `\n`, `%3D` or `\u003c` counting as no letter: standing-alone.ts): a one-character bindpass
 * must not turn every "p" of every message into "(sensitive)", and a short PIN is still caught
 * wherever it is printed as a value. Secrets of this length or longer are also found in any
 * letter case (a server that upper-cases what it echoes).
 */
export const SHORT_SECRET_LENGTH = 8;

/**
 * The one redaction set of a run: every secret text known to it (cluster tokens, every value
 * that reaches a secret field, key shares, operation tokens). Whatever lockstep prints or
 * writes passes through redact(), which works in three steps:
 *
 * 1. Each secret is replaced where it stands, in the forms a message usually carries it in (as
 *    it is, JSON-, Go-, percent-, HTML- or Markdown-escaped: formsOf), so the message around
 *    it still reads.
 * 2. Each line that could hold an encoded text (a backslash, percent sign, ampersand, or a run
 *    that may be base64 or hex: mayHoldEncoded) is also read decoded, every escape undone and
 *    every run decoded, nested (decoded-views.ts). Where a decoded view still holds a secret,
 *    the words that hold it are replaced, or the whole line when no single word does. No
 *    combination of encodings is listed: whatever decodes to a secret is a secret.
 * 3. Each line a replacement was made in is asked again what reveals() asks, and replaced whole
 *    if it still reveals a secret, so redact()'s output never fails the check the tests make.
 *
 * Texts can be added while a run goes on (an operation token made during an apply); the
 * matchers are rebuilt lazily, once per change of the set.
 */
export class RedactionSet {
  readonly #texts = new Set<string>();
  #matchers: Matchers | null | undefined;

  constructor(texts: Iterable<string> = []) {
    for (const t of texts) this.add(t);
  }

  /** Adds one secret text. Empty and blank texts reveal nothing and would garble everything. */
  add(text: string): this {
    if (text.trim() === '' || this.#texts.has(text)) return this;
    this.#texts.add(text);
    this.#matchers = undefined;
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
    const matchers = this.#compile();
    // Shorter than every form a secret is looked for in: no match where it stands, and no
    // decoded view either (decoding never lengthens a text).
    if (!matchers || text.length < matchers.shortestForm) return text;
    let replaced = matchers.longInPlace ? text.replace(matchers.longInPlace, REDACTED) : text;
    if (matchers.shortInPlace) replaced = replaceAlone(replaced, matchers.shortInPlace, REDACTED);
    const redacted = mapEncodedLines(replaced, (line) => redactDecoded(line, matchers));
    return redacted === text ? text : withoutRevealingLines(redacted, matchers);
  }

  /** Does `text` hold a secret of the set, as it is or in any decoded view (what redact() removes)? */
  reveals(text: string): boolean {
    const matchers = this.#compile();
    if (!matchers) return false;
    return text.split('\n').some((line) => lineReveals(line, matchers));
  }

  /**
   * Does a JSON-like value hold a secret of the set, as JSON.stringify would write it out: in any
   * key, text, number or `toJSON()` form (an Address), each read as reveals() reads a text. Each
   * distinct text is read once: a saved plan of 10,000 objects repeats its field names, actions
   * and values (reveals() over its 8 MB of JSON took 0.4 s).
   */
  revealedIn(value: unknown): boolean {
    const matchers = this.#compile();
    if (!matchers) return false;
    const read = new Set<string>();
    const reveals = (text: string): boolean => {
      if (text.length < matchers.shortestForm || read.has(text)) return false;
      read.add(text);
      return text.split('\n').some((line) => lineReveals(line, matchers));
    };
    const walk = (v: unknown): boolean => {
      if (typeof v === 'string') return reveals(v);
      if (typeof v === 'number' || typeof v === 'boolean') return reveals(String(v));
      if (v === null || typeof v !== 'object') return false;
      const json = (v as { toJSON?: unknown }).toJSON;
      if (typeof json === 'function') return walk(json.call(v));
      if (Array.isArray(v)) return v.some(walk);
      return Object.entries(v).some(([key, item]) => item !== undefined && (reveals(key) || walk(item)));
    };
    return walk(value);
  }

  /**
   * A copy of a JSON-like value with every string redacted (objects and arrays copied only when
   * needed). Each distinct string is redacted once: a plan repeats its field names, actions and
   * policy names in every change.
   */
  redactValue<T>(value: T): T {
    const matchers = this.#compile();
    if (!matchers) return value;
    return this.#redactTree(value, new Map(), matchers.shortestForm) as T;
  }

  #redactTree(value: unknown, done: Map<string, string>, shortest: number): unknown {
    if (typeof value === 'string') {
      // Most of a plan's texts (names, actions, an access review's ten thousand users) are shorter than any secret.
      if (value.length < shortest) return value;
      let redacted = done.get(value);
      if (redacted === undefined) done.set(value, (redacted = this.redact(value)));
      return redacted;
    }
    if (value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) {
      const items = value as readonly unknown[];
      let copy: unknown[] | undefined;
      for (let i = 0; i < items.length; i++) {
        const r = this.#redactTree(items[i], done, shortest);
        if (r !== items[i]) (copy ??= [...items])[i] = r;
      }
      return copy ?? items;
    }
    if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null) return value;
    const fields = value as Record<string, unknown>;
    let copy: Record<string, unknown> | undefined;
    for (const key of Object.keys(fields)) {
      const r = this.#redactTree(fields[key], done, shortest);
      if (r !== fields[key]) (copy ??= { ...fields })[key] = r;
    }
    return copy ?? value;
  }

  #compile(): Matchers | null {
    if (this.#matchers !== undefined) return this.#matchers;
    const long = new Set<string>();
    const short = new Set<string>();
    for (const text of this.#texts) {
      const isShort = text.length < SHORT_SECRET_LENGTH;
      for (const form of formsOf(text)) (isShort ? short : long).add(form);
      // Case-folded matching misses where upper-casing changes the length (ß to SS): these forms do not.
      if (!isShort) for (const folded of [text.toUpperCase(), text.toLowerCase()]) long.add(folded);
    }
    if (long.size + short.size === 0) return (this.#matchers = null);
    const shortTexts = [...this.#texts].filter((t) => t.length < SHORT_SECRET_LENGTH);
    const longTexts = [...this.#texts].filter((t) => t.length >= SHORT_SECRET_LENGTH).flatMap((t) => [t, t.toUpperCase(), t.toLowerCase()]);
    this.#matchers = {
      shortestForm: Math.min(...[...long, ...short, ...longTexts, ...shortTexts].map(codePointCount)),
      longInPlace: long.size > 0 ? new RegExp(alternation(long), 'giu') : null,
      shortInPlace: short.size > 0 ? standingAlone(alternation(short)) : null,
      longInView: longTexts.length > 0 ? new RegExp(alternation(new Set(longTexts)), 'iu') : null,
      shortInView: shortTexts.length > 0 ? standingAlone(alternation(new Set(shortTexts))) : null,
    };
    return this.#matchers;
  }
}

interface Matchers {
  /**
   * The fewest code points of any form looked for: a text of fewer UTF-16 units holds none
   * (simple case folding, what `iu` matching uses, maps code points one to one).
   */
  shortestForm: number;
  /** Every form of every long secret, in any case, replaced where it stands. */
  longInPlace: RegExp | null;
  /** Every form of every short secret, where it stands alone. */
  shortInPlace: RegExp | null;
  /** The long secrets as they are, in any case, in a decoded view. */
  longInView: RegExp | null;
  /** The short secrets as they are, standing alone, in a decoded view. */
  shortInView: RegExp | null;
}

function codePointCount(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

function holdsSecret(text: string, m: Matchers): boolean {
  return (m.longInView?.test(text) ?? false) || (m.shortInView !== null && aloneIn(text, m.shortInView));
}

/** Does a line hold a secret, as it is or in a decoded view? The one question redact() and reveals() ask. */
function lineReveals(line: string, m: Matchers): boolean {
  return holdsSecret(line, m) || (mayHoldEncoded(line) && decodedViews(line).some((v) => holdsSecret(v, m)));
}

/**
 * `text` with each line that holds a redaction and still reveals a secret replaced whole (its
 * indentation kept). A replacement changes what its neighbours touch: the `n` of the `\n`
 * before a short secret "n", or the second "-1" of "-1-1", stands alone once the secret next to
 * it is "(sensitive)". Only lines a replacement was made in are read again.
 */
function withoutRevealingLines(text: string, m: Matchers): string {
  let out = '';
  let done = 0;
  for (let at = text.indexOf(REDACTED); at >= 0; ) {
    const start = text.lastIndexOf('\n', at) + 1;
    const newline = text.indexOf('\n', at);
    const end = newline < 0 ? text.length : newline;
    const line = text.slice(start, end);
    if (lineReveals(line, m)) {
      out += `${text.slice(done, start)}${/^\s*/.exec(line)![0]}${REDACTED}`;
      done = end;
    }
    at = newline < 0 ? -1 : text.indexOf(REDACTED, end);
  }
  return done === 0 ? text : out + text.slice(done);
}

/**
 * A line with the words whose decoded views hold a secret replaced; the whole line (its
 * indentation kept) when the secret spans words once decoded. Words end at white space and
 * quotes, so a JSON string value is replaced inside its quotes.
 */
function redactDecoded(line: string, m: Matchers): string {
  const views = decodedViews(line);
  if (!views.some((v) => holdsSecret(v, m))) return line;
  const words = line.replace(/[^\s"'`<>]+/g, (word) => (mayHoldEncoded(word) && decodedViews(word).some((v) => holdsSecret(v, m)) ? REDACTED : word));
  if (!decodedViews(words).some((v) => holdsSecret(v, m))) return words;
  return `${/^\s*/.exec(line)![0]}${REDACTED}`;
}

/** Longest first: a secret that contains another must not be left half-printed. */
function alternation(forms: Set<string>): string {
  return [...forms]
    .sort((a, b) => b.length - a.length)
    .map(escapeRegExp)
    .join('|');
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
    // A text of several lines folded onto one, as YAML's folded scalars and parsers' messages
    // quote it (an HCL error quotes a key that spans lines joined by a space).
    ...(/[\r\n]/.test(text) ? foldedForms(text) : []),
  ]);
  forms.delete('');
  return forms;
}

/** `text`'s lines joined by one space, with and without the white space around each break, and joined with nothing. */
function foldedForms(text: string): string[] {
  return [text.replace(/\r?\n/g, ' '), text.replace(/[ \t]*\r?\n[ \t]*/g, ' '), text.replace(/\r?\n/g, '')];
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
