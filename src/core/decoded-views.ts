/**
 * The texts a line of output may carry a secret in once decoded. Redaction (redaction.ts) and
 * the tests' canary check both look at these, so a secret is caught in any nesting of the
 * encodings a server or a message may apply (a JSON-escaped body percent-encoded, base64 of a
 * body Python wrote with `\u00e4` escapes...) without listing the combinations.
 */

/** Escapes undone again and again (a body escaped inside an escaped message), at most this deep. */
const UNESCAPE_DEPTH = 4;
/** Base64 or hex inside base64 or hex (an encoded body inside an encoded envelope), at most this deep. */
const DECODE_DEPTH = 2;
/** A bound on the views of one line, whatever it holds (a line of nested escapes could branch without end). */
const MAX_VIEWS = 256;
/**
 * The shortest base64 or hex run decoded: 6 bytes in base64 (a six-digit PIN echoed alone), 4
 * in hex. A shorter secret is found in any body that holds it, not base64-encoded alone; runs
 * this short that are words ("PlanNote") are decoded to noise and dropped (readsAsText).
 */
const MIN_ENCODED_RUN = 8;

/** Classes of the characters the scan for candidates looks at (ASCII; anything else is none). */
const MARK = 1;
const UPPER = 2;
const LOWER = 4;
const DIGIT = 8;
const SYMBOL = 16;
const HEX_DIGIT = 32;
const CLASS_OF = new Uint8Array(128);
for (const c of '\\%&') CLASS_OF[c.charCodeAt(0)] = MARK;
for (const c of '+/_-') CLASS_OF[c.charCodeAt(0)] = SYMBOL;
for (let c = 0x30; c <= 0x39; c++) CLASS_OF[c] = DIGIT | HEX_DIGIT;
for (let c = 0x41; c <= 0x5a; c++) CLASS_OF[c] = UPPER | (c <= 0x46 ? HEX_DIGIT : 0);
for (let c = 0x61; c <= 0x7a; c++) CLASS_OF[c] = LOWER | (c <= 0x66 ? HEX_DIGIT : 0);

/**
 * The index of the first place in `text` from `from` on where a decoder could change it, or -1:
 * a backslash, percent sign or ampersand, or a run of the base64 alphabets long enough to hold
 * an encoded text that mixes upper case with anything else of the alphabet (base64 of text
 * does) or is all hex digits. A word ("reconciler") or a path (`auth/ldap/groups/group-12`)
 * is neither, so plain output never reaches the decoders. A loop over
 * character codes: every printed line passes here, and it is several times faster than a
 * regular expression with no literal to search for.
 */
function nextCandidate(text: string, from: number): number {
  let start = from;
  let seen = 0;
  let hex = true;
  for (let i = from; i <= text.length; i++) {
    const code = i < text.length ? text.charCodeAt(i) : 0x20;
    const cls = code < 128 ? CLASS_OF[code]! : 0;
    if (cls === MARK) return i;
    if (cls !== 0) {
      seen |= cls;
      hex &&= (cls & HEX_DIGIT) !== 0;
      continue;
    }
    if (i - start >= MIN_ENCODED_RUN && (hex || ((seen & UPPER) !== 0 && (seen & (LOWER | DIGIT | SYMBOL)) !== 0))) return start;
    start = i + 1;
    seen = 0;
    hex = true;
  }
  return -1;
}

/** False when no decoder could change `text`, as for nearly every line lockstep prints. */
export function mayHoldEncoded(text: string): boolean {
  return nextCandidate(text, 0) >= 0;
}

/** `text` with `change` applied to each line that may hold an encoded text (mayHoldEncoded); the others are not looked at twice. */
export function mapEncodedLines(text: string, change: (line: string) => string): string {
  let out = '';
  let done = 0;
  for (let at = nextCandidate(text, 0); at >= 0; ) {
    const start = text.lastIndexOf('\n', at) + 1;
    const newline = text.indexOf('\n', at);
    const end = newline < 0 ? text.length : newline;
    out += text.slice(done, start) + change(text.slice(start, end));
    done = end;
    at = newline < 0 ? -1 : nextCandidate(text, end);
  }
  return done === 0 ? text : out + text.slice(done);
}

/** Every decoded view of `text` (not `text` itself), each distinct. */
export function decodedViews(text: string): string[] {
  const views = new Set<string>();
  // Breadth first: each decoder alone on each view (undoing every escape at once would read a
  // literal "%00" inside a JSON-escaped secret as a byte), runs decoded a level deeper.
  const queue: Array<{ text: string; escapes: number; runs: number }> = [{ text, escapes: UNESCAPE_DEPTH, runs: DECODE_DEPTH }];
  for (let i = 0; i < queue.length && views.size < MAX_VIEWS; i++) {
    const view = queue[i]!;
    if (views.has(view.text)) continue;
    views.add(view.text);
    if (view.escapes > 0 && ESCAPE_MARK.test(view.text)) {
      for (const unescape of UNESCAPES) {
        const next = unescape(view.text);
        if (next !== view.text) queue.push({ text: next, escapes: view.escapes - 1, runs: view.runs });
      }
    }
    if (view.runs > 0) for (const decoded of decodedRuns(view.text)) queue.push({ text: decoded, escapes: UNESCAPE_DEPTH, runs: view.runs - 1 });
  }
  views.delete(text);
  return [...views];
}

// --- Escapes: backslash (JSON, JavaScript, Python, Go), percent, HTML entities -------------------

const ESCAPE_MARK = /[\\%&]/;
// \U0001f600 is a code point past U+FFFF (as Python's ascii() and Go's %+q write one); any other
// \U is \u upper-cased (\U00E4: an escaped body a server upper-cased), as is \X.
const BACKSLASH = /\\(u\{[0-9A-Fa-f]{1,6}\}|U00(?:10|0[1-9A-Fa-f])[0-9A-Fa-f]{4}|[uU][0-9A-Fa-f]{4}|[xX][0-9A-Fa-f]{2}|[0-7]{3}|["'\\/bfnrtv0])/g;
/**
 * Runs of byte escapes (`\xc3\xa4`, `\303\244`: Python's bytes, Ruby's and C's strings), and
 * the escaped backslashes before them (`\\x41` is no byte escape).
 */
const BYTE_RUN = /\\\\|((?:\\(?:[xX][0-9A-Fa-f]{2}|[0-3][0-7]{2}))+)/g;
const PERCENT_RUN = /(?:%[0-9A-Fa-f]{2})+/g;
const ENTITY = /&(?:#[xX]([0-9A-Fa-f]{1,6})|#([0-9]{1,7})|([A-Za-z][A-Za-z0-9]{1,7}));/g;
const SIMPLE_ESCAPES: Readonly<Record<string, string>> = { '"': '"', "'": "'", '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '0': '\0' };
/** The entities HTML escapers write (Python's html.escape, Go's html/template, he, lodash); numeric ones cover the rest. */
const NAMED_ENTITIES = new Map<string, string>(
  Object.entries({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", grave: '`', equals: '=', plus: '+', num: '#', excl: '!', dollar: '$', percnt: '%', lpar: '(', rpar: ')', ast: '*', commat: '@', lsqb: '[', rsqb: ']', lcub: '{', rcub: '}', verbar: '|', bsol: '\\', sol: '/', colon: ':', semi: ';', comma: ',', period: '.', quest: '?', lowbar: '_', Hat: '^', tilde: '~' }),
);
// HTML 4's Latin-1 entities name U+00A0 to U+00FF in order (what escapers that name letters, like &auml;, write).
'nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr deg plusmn sup2 sup3 acute micro para middot cedil sup1 ordm raquo frac14 frac12 frac34 iquest Agrave Aacute Acirc Atilde Auml Aring AElig Ccedil Egrave Eacute Ecirc Euml Igrave Iacute Icirc Iuml ETH Ntilde Ograve Oacute Ocirc Otilde Ouml times Oslash Ugrave Uacute Ucirc Uuml Yacute THORN szlig agrave aacute acirc atilde auml aring aelig ccedil egrave eacute ecirc euml igrave iacute icirc iuml eth ntilde ograve oacute ocirc otilde ouml divide oslash ugrave uacute ucirc uuml yacute thorn yuml'
  .split(' ')
  .forEach((name, i) => NAMED_ENTITIES.set(name, String.fromCharCode(0xa0 + i)));

/** Each undoes one layer of one kind of escape, where it is well formed (anything else kept as it is). */
const UNESCAPES: ReadonlyArray<(text: string) => string> = [
  (text) => (text.includes('\\') ? text.replace(BACKSLASH, (whole, esc: string) => backslashEscape(esc) ?? whole) : text),
  // The same escapes as the UTF-8 bytes of a text (the one above reads each as a code point, as JavaScript and Python's str do).
  (text) => (text.includes('\\') ? text.replace(BYTE_RUN, (whole, run?: string) => (run === undefined ? whole : (escapedUtf8(run) ?? whole))) : text),
  (text) => (text.includes('%') ? text.replace(PERCENT_RUN, percentDecoded) : text),
  (text) => (text.includes('&') ? text.replace(ENTITY, (whole, hex?: string, dec?: string, name?: string) => entity(hex, dec, name) ?? whole) : text),
];

function backslashEscape(esc: string): string | undefined {
  const simple = SIMPLE_ESCAPES[esc];
  if (simple !== undefined) return simple;
  switch (esc[0]) {
    case 'u':
    case 'U':
      // \u00e4 is one UTF-16 unit (a pair's halves come one after the other); \u{1F600} and \U0001f600 a code point.
      if (esc[1] === '{') return codePoint(parseInt(esc.slice(2, -1), 16));
      return esc.length === 9 ? codePoint(parseInt(esc.slice(1), 16)) : String.fromCharCode(parseInt(esc.slice(1), 16));
    case 'x':
    case 'X':
      return codePoint(parseInt(esc.slice(1), 16));
    default:
      return codePoint(parseInt(esc, 8));
  }
}

/**
 * A run of byte escapes as UTF-8 (bytes that are not UTF-8 as U+FFFD), or undefined when every
 * byte is ASCII: the code-point reading is the same then, and one view of it is enough.
 */
function escapedUtf8(run: string): string | undefined {
  const bytes = run
    .split('\\')
    .slice(1)
    .map((esc) => (esc[0] === 'x' || esc[0] === 'X' ? parseInt(esc.slice(1), 16) : parseInt(esc, 8)));
  return bytes.some((b) => b >= 0x80) ? Buffer.from(bytes).toString('utf8') : undefined;
}

/** Percent-encoded bytes as UTF-8 (bytes that are not UTF-8 as U+FFFD: decodeURIComponent would throw). */
function percentDecoded(run: string): string {
  const bytes = Buffer.from(run.replace(/%/g, ''), 'hex');
  return bytes.toString('utf8');
}

function entity(hex: string | undefined, dec: string | undefined, name: string | undefined): string | undefined {
  if (hex !== undefined) return codePoint(parseInt(hex, 16));
  if (dec !== undefined) return codePoint(parseInt(dec, 10));
  // &LT; as well as &lt;: HTML reads &LT;, &AMP;, &QUOT; and &GT; too, and a server may upper-case an escaped body.
  return name === undefined ? undefined : (NAMED_ENTITIES.get(name) ?? NAMED_ENTITIES.get(name.toLowerCase()));
}

function codePoint(n: number): string | undefined {
  return Number.isInteger(n) && n >= 0 && n <= 0x10ffff ? String.fromCodePoint(n) : undefined;
}

/** Any one escape of the three kinds, tried from one place (groups: BACKSLASH's, then ENTITY's). */
const ANY_ESCAPE = new RegExp([BACKSLASH.source, '%[0-9A-Fa-f]{2}', ENTITY.source].join('|'), 'g');

/** The longest escape the decoders read: `\u{10FFFF}`, `\U0010FFFF`, `&#x10FFFF;`, `&#1114111;`, `&` and a name of 8. */
const LONGEST_ESCAPE = 10;

/** Where an offset of a text falls among its escapes. */
export type EscapePlace = 'inside' | 'end' | 'outside';

/**
 * The escapes a text holds, as the decoders above read them: left to right, only what one of
 * them undoes (`\\n` is an escaped backslash and then a letter; `&foo;` is no escape). Short
 * secrets stand alone by it (redaction.ts): after an escape, never inside one, since the letters
 * of `\n`, `%3D` or `&lt;` are the escape's, not the text's. Read lazily, as far as asked; an
 * escape never holds a line break, so reading starts afresh at the line asked about.
 */
export class Escapes {
  readonly #text: string;
  #pattern: RegExp | undefined;
  /** Start and end of each escape read, in order. */
  readonly #spans: Array<readonly [number, number]> = [];

  constructor(text: string) {
    this.#text = text;
  }

  /** Does an escape end at `offset`, hold it (past its first character), or neither? */
  at(offset: number): EscapePlace {
    if (!this.#introducedNear(offset)) return 'outside';
    this.#readUpTo(offset);
    const spans = this.#spans;
    // The last escape starting before `offset` (spans are in order and do not overlap).
    let low = 0;
    let high = spans.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (spans[mid]![0] < offset) low = mid + 1;
      else high = mid;
    }
    const end = low > 0 ? spans[low - 1]![1] : -1;
    return end === offset ? 'end' : end > offset ? 'inside' : 'outside';
  }

  /**
   * Is a backslash, percent sign or ampersand among the characters before `offset` an escape
   * ending at or holding it could start at? Nearly every secret found is far from any, and then
   * nothing is read.
   */
  #introducedNear(offset: number): boolean {
    for (let i = Math.max(0, offset - LONGEST_ESCAPE); i < offset; i++) {
      const code = this.#text.charCodeAt(i);
      if (code === 0x5c || code === 0x25 || code === 0x26) return true;
    }
    return false;
  }

  /** Reads every escape that starts before `offset`. */
  #readUpTo(offset: number): void {
    const pattern = (this.#pattern ??= new RegExp(ANY_ESCAPE.source, 'g'));
    if (pattern.lastIndex >= offset || pattern.lastIndex > this.#text.length) return;
    const lineStart = this.#text.lastIndexOf('\n', offset - 1) + 1;
    if (pattern.lastIndex < lineStart) pattern.lastIndex = lineStart;
    while (pattern.lastIndex < offset) {
      const match = pattern.exec(this.#text);
      if (match === null) {
        pattern.lastIndex = this.#text.length + 1;
        return;
      }
      if (undoes(match)) this.#spans.push([match.index, match.index + match[0].length]);
      else pattern.lastIndex = match.index + 1;
    }
  }
}

/** Does a decoder undo this match of ANY_ESCAPE (a code point out of range, an unknown entity name: no)? */
function undoes(match: RegExpExecArray): boolean {
  const [whole, esc, hex, dec, name] = match;
  if (esc !== undefined) return backslashEscape(esc) !== undefined;
  if (whole.startsWith('%')) return true;
  return entity(hex, dec, name) !== undefined;
}

// --- Runs: base64 (standard and URL alphabets) and hex ---------------------------------------------

const BASE64_RUN = new RegExp(`[A-Za-z0-9+/_-]{${MIN_ENCODED_RUN},}`, 'g');
const HEX_RUN = new RegExp(`[0-9A-Fa-f]{${MIN_ENCODED_RUN},}`, 'g');

/**
 * Every base64 and hex run of a text decoded (any run: the line is a candidate already, and
 * base64 of a short text may be all lower case and digits), from each place it could have started (its first
 * characters may belong to the text before it): base64 from each of four offsets, hex from
 * each of two. Bytes that are not UTF-8 become U+FFFD, so the text around a secret in them
 * still reads. Node's base64 decoder reads both alphabets, padded or not.
 */
function decodedRuns(text: string): string[] {
  const out: string[] = [];
  const keep = (decoded: string): void => {
    if (readsAsText(decoded)) out.push(decoded);
  };
  for (const [run] of text.matchAll(BASE64_RUN)) {
    for (let offset = 0; offset < 4 && run.length - offset >= MIN_ENCODED_RUN; offset++) keep(Buffer.from(run.slice(offset), 'base64').toString('utf8'));
  }
  for (const [run] of text.matchAll(HEX_RUN)) {
    for (let offset = 0; offset < 2; offset++) keep(Buffer.from(run.slice(offset, offset + ((run.length - offset) & ~1)), 'hex').toString('utf8'));
  }
  return out;
}

// eslint-disable-next-line no-control-regex
const NOT_TEXT = /[\ufffd\u0000-\u0008\u000e-\u001f]/g;

/**
 * Did a run decode to text (a request body), not to noise (a word read as base64, or a run
 * decoded from the wrong offset)? Noise is left out: a short secret standing alone among
 * replacement characters would otherwise redact lines that never held it.
 */
function readsAsText(decoded: string): boolean {
  const noise = decoded.match(NOT_TEXT)?.length ?? 0;
  return noise * 4 <= decoded.length;
}
