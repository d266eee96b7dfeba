import { Escapes } from './decoded-views.js';

/**
 * Where a short secret stands alone (redaction.ts: SHORT_SECRET_LENGTH): no letter or digit
 * touches either end, the end of an escape (`\n`, `%3D`, `\u003c`, `&lt;`) counting as none.
 * Inside an escape a secret never starts: the `n` of `\n` and the `3D` of `%3D` are the escape's,
 * and the decoded view that undoes it reads what it stands for. The escapes are the ones the
 * decoders undo (decoded-views.ts: Escapes), so the redactor and the check read them alike.
 */

/**
 * The secrets of an alternation (longest first), each where its end is not touched by a letter
 * or digit: the engine tries the next shorter secret where a longer one is touched. Where each
 * starts is judged in code (standsAloneFrom), which the look-behind of a pattern could not do
 * by the escapes' own reading.
 */
export function standingAlone(alternation: string): RegExp {
  return new RegExp(`(?:${alternation})(?![\\p{L}\\p{N}])`, 'gu');
}

/** Does one of the pattern's secrets stand alone somewhere in `text`? */
export function aloneIn(text: string, pattern: RegExp): boolean {
  return nextAlone(text, pattern, 0, lazyEscapes(text)) !== null;
}

/**
 * `text` with each of the pattern's secrets that stands alone replaced by `by`, again until none
 * is left: a replacement changes what its neighbours touch (in "1-1-", the secret "1-" at the
 * end stands alone, and once it is replaced the one before it does too). `by` holds no secret
 * standing alone ("(sensitive)": a short secret cannot start or end inside it), so this ends.
 */
export function replaceAlone(text: string, pattern: RegExp, by: string): string {
  for (let before = text, after = replaceOnce(text, pattern, by); ; before = after, after = replaceOnce(after, pattern, by)) {
    if (after === before) return after;
  }
}

function replaceOnce(text: string, pattern: RegExp, by: string): string {
  const escapes = lazyEscapes(text);
  let out = '';
  let done = 0;
  for (let found = nextAlone(text, pattern, 0, escapes); found !== null; found = nextAlone(text, pattern, found[1], escapes)) {
    out += text.slice(done, found[0]) + by;
    done = found[1];
  }
  return done === 0 ? text : out + text.slice(done);
}

/** Start and end of the first secret standing alone at or after `from`, or null. */
function nextAlone(text: string, pattern: RegExp, from: number, escapes: () => Escapes): readonly [number, number] | null {
  pattern.lastIndex = from;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    if (standsAloneFrom(text, match.index, escapes)) return [match.index, match.index + match[0].length];
    // On by one code point: a secret inside this one may stand alone.
    pattern.lastIndex = match.index + (text.codePointAt(match.index)! > 0xffff ? 2 : 1);
  }
  return null;
}

const ASCII_LETTER_OR_DIGIT = /[A-Za-z0-9]/;
/** A letter or digit ends the text (read from its last two UTF-16 units: one code point). */
const ENDS_IN_LETTER_OR_DIGIT = /[\p{L}\p{N}]$/u;

/** Does a secret found at `offset` stand alone at its start? */
function standsAloneFrom(text: string, offset: number, escapes: () => Escapes): boolean {
  if (offset === 0) return true;
  switch (escapes().at(offset)) {
    case 'inside':
      return false;
    case 'end':
      return true;
    case 'outside': {
      const code = text.charCodeAt(offset - 1);
      if (code < 0x80) return !ASCII_LETTER_OR_DIGIT.test(text[offset - 1]!);
      return !ENDS_IN_LETTER_OR_DIGIT.test(text.slice(Math.max(0, offset - 2), offset));
    }
  }
}

/** A text's escapes, read only once a secret is found in it (most texts hold none). */
function lazyEscapes(text: string): () => Escapes {
  let escapes: Escapes | undefined;
  return () => (escapes ??= new Escapes(text));
}
