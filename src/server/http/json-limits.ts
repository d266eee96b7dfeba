/**
 * The JSON limits the service checks on a request body before anything else reads it
 * (Vault 1.20.3 and later, 1.21.0 among them: CVE-2025-6203). hashicorp/vault http/util.go
 * wrapJSONLimitsHandler runs sdk/helper/jsonutil/json.go VerifyMaxDepthStreaming over the body
 * and answers its error with a 500 (respondError(w, http.StatusInternalServerError, err)),
 * before the body is decoded (http/handler.go parseJSONRequest, http/request-body.ts).
 *
 * The check is its own tokenizer, not Go's decoder, and answers differently from it: a body
 * that starts (after white space and a UTF-8 byte order mark) with neither `{` nor `[` is not
 * checked at all; after the top-level value nothing but white space may follow (the decoder
 * alone would stop reading there); a key repeated in one object is refused; a number that
 * strconv.ParseFloat refuses, out of range (`1e400`) included, is refused; a literal is any
 * run of bytes up to white space, `,`, `}` or `]` (the decoder judges it after). Limits are the
 * listener's defaults: depth 500, a string's or a number's raw bytes 1 MiB, 10,000 entries in
 * an object or elements in an array (http/handler.go CustomMaxJSON*). The messages are the
 * check's own, %c of a byte being that byte as a Latin-1 character.
 */

const MAX_DEPTH = 500;
const MAX_VALUE_BYTES = 1024 * 1024;
const MAX_ENTRIES = 10_000;
const MAX_ELEMENTS = 10_000;

interface Container {
  object: boolean;
  count: number;
  /** In an object: the next string is a key. */
  expectsKey: boolean;
  /** In an object: its keys so far, as byte strings (each byte one UTF-16 unit). */
  keys: Set<string>;
}

class LimitError extends Error {}

/** The check's error for this body, or undefined when it passes (or is not checked). */
export function jsonLimitsError(bytes: Uint8Array): string | undefined {
  try {
    check(bytes);
    return undefined;
  } catch (err) {
    if (err instanceof LimitError) return err.message;
    throw err;
  }
}

/** The check's white space: JSON's, and the bytes 0x1F and 0x8B too. */
function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0x1f || c === 0x8b;
}

const char = (c: number): string => String.fromCharCode(c);
const fail = (message: string): never => {
  throw new LimitError(message);
};

function check(bytes: Uint8Array): void {
  let i = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const skipSpace = (): void => {
    while (i < bytes.length && isSpace(bytes[i]!)) i++;
  };
  skipSpace();
  if (i >= bytes.length || (bytes[i] !== 0x7b && bytes[i] !== 0x5b)) return;

  const stack: Container[] = [];
  let opened = false;
  let afterComma = false;
  const countElement = (top: Container): void => {
    if (++top.count > MAX_ELEMENTS) fail('JSON array exceeds allowed element count');
  };
  while (i < bytes.length) {
    const c = bytes[i]!;
    if (afterComma && (c === 0x7d || c === 0x5d)) fail(c === 0x7d ? "invalid character '}' after object key-value pair" : "invalid character ']' after array element");
    if (stack.length === 0 && opened) fail(`invalid character '${char(c)}' after top-level value`);
    afterComma = false;
    const top = stack[stack.length - 1];
    switch (c) {
      case 0x7b: // {
      case 0x5b: // [
        i++;
        if (top && !top.object) countElement(top);
        else if (top) top.expectsKey = true;
        opened = true;
        if (stack.length + 1 > MAX_DEPTH) fail('JSON input exceeds allowed nesting depth');
        stack.push({ object: c === 0x7b, count: 0, expectsKey: c === 0x7b, keys: new Set() });
        break;
      case 0x7d: // }
      case 0x5d: // ]
        if (top?.object && !top.expectsKey) fail("invalid character '}' after object key");
        i++;
        if (!top) fail(`malformed JSON: unmatched closing delimiter '${char(c)}'`);
        if (top!.object !== (c === 0x7d)) fail(`malformed JSON: mismatched closing delimiter '${char(c)}'`);
        stack.pop();
        if (stack[stack.length - 1]?.object) stack[stack.length - 1]!.expectsKey = true;
        break;
      case 0x22: {
        const [value, end] = scanString(bytes, i + 1);
        i = end;
        if (!top) break;
        if (!top.object) countElement(top);
        else if (!top.expectsKey) top.expectsKey = true;
        else {
          if (top.keys.has(value)) fail(`duplicate key '${Buffer.from(value, 'latin1').toString('utf8')}' in object`);
          top.keys.add(value);
          if (++top.count > MAX_ENTRIES) fail('JSON object exceeds allowed entry count');
          top.expectsKey = false;
        }
        break;
      }
      case 0x2c: // ,
        i++;
        afterComma = true;
        if (top?.object) top.expectsKey = true;
        break;
      case 0x3a: // :
        i++;
        break;
      default:
        if (c === 0x74 || c === 0x66 || c === 0x6e) i = scanLiteral(bytes, i);
        else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) i = scanNumber(bytes, i);
        else fail(`invalid character '${char(c)}' looking for beginning of value`);
        if (top && !top.object) countElement(top);
        else if (top) top.expectsKey = true;
    }
    skipSpace();
  }
  if (stack.length > 0) fail('malformed JSON, unclosed containers');
}

const ends = (c: number): boolean => isSpace(c) || c === 0x2c || c === 0x7d || c === 0x5d;

/** A literal: any bytes up to white space, `,`, `}`, `]` or the end (the decoder judges it later). */
function scanLiteral(bytes: Uint8Array, start: number): number {
  let i = start;
  while (i < bytes.length && !ends(bytes[i]!)) i++;
  return i;
}

/** strconv.ParseFloat's decimal syntax (the check lets no other byte into a number). */
const GO_FLOAT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

function scanNumber(bytes: Uint8Array, start: number): number {
  if (bytes[start] === 0x30 && start + 1 < bytes.length && bytes[start + 1]! >= 0x30 && bytes[start + 1]! <= 0x39) {
    fail(`invalid character '${char(bytes[start + 1]!)}' after top-level value`);
  }
  let i = start;
  while (i < bytes.length && !ends(bytes[i]!) && /[0-9.eE+-]/.test(char(bytes[i]!))) {
    i++;
    if (i - start > MAX_VALUE_BYTES) fail('JSON number value exceeds allowed length');
  }
  const text = Buffer.from(bytes.subarray(start, i)).toString('latin1');
  // ParseFloat refuses what is not its syntax, and with ErrRange what is past the largest float64.
  if (!GO_FLOAT.test(text) || !Number.isFinite(Number(text))) fail(`malformed JSON, invalid number syntax for '${text}'`);
  return i;
}

/**
 * A string from after its opening quote: its value as bytes (escapes resolved, a \u escape
 * written as UTF-8, a lone surrogate as U+FFFD, as Go's strings.Builder.WriteRune does) and
 * where it ends. Its raw bytes count against the limit, an escape's included.
 */
function scanString(bytes: Uint8Array, start: number): [string, number] {
  let value = '';
  let size = 0;
  let highSurrogate = false;
  let i = start;
  for (;;) {
    if (i >= bytes.length) fail('malformed JSON, unclosed string');
    const c = bytes[i++]!;
    if (c === 0x22) {
      if (highSurrogate) fail('malformed JSON, unterminated surrogate pair in string');
      return [value, i];
    }
    size++;
    highSurrogate = false;
    if (c !== 0x5c) value += char(c);
    else {
      if (i >= bytes.length) fail('malformed JSON, unterminated escape sequence in string');
      const escaped = bytes[i++]!;
      size++;
      const simple = ESCAPED[escaped];
      if (simple !== undefined) value += simple;
      else if (escaped === 0x75) {
        if (i + 4 > bytes.length) fail('malformed JSON, unterminated unicode escape in string');
        const hex = Buffer.from(bytes.subarray(i, i + 4)).toString('utf8');
        for (const h of hex) if (!/[0-9a-fA-F]/.test(h)) fail(`invalid character '${h}' in string escape code`);
        i += 4;
        size += 4;
        const code = parseInt(hex, 16);
        const isSurrogate = code >= 0xd800 && code <= 0xdfff;
        value += Buffer.from(isSurrogate ? '\ufffd' : String.fromCharCode(code), 'utf8').toString('latin1');
        highSurrogate = code >= 0xd800 && code <= 0xdbff;
      } else fail(`invalid character '${char(escaped)}' in string escape code`);
    }
    if (size > MAX_VALUE_BYTES) fail('JSON string value exceeds allowed length');
  }
}

const ESCAPED: Readonly<Record<number, string>> = { 0x22: '"', 0x5c: '\\', 0x2f: '/', 0x62: '\b', 0x66: '\f', 0x6e: '\n', 0x72: '\r', 0x74: '\t' };
