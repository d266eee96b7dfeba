/**
 * A request body read as the service reads it (hashicorp/vault http/handler.go parseJSONRequest:
 * jsonutil.DecodeJSONFromReader, one json.Decoder.Decode into map[string]interface{}), with Go's
 * own errors: encoding/json/scanner.go's syntax errors ("invalid character 'p' looking for
 * beginning of value"), io.ErrUnexpectedEOF for a value cut short, and the unmarshal error for a
 * value that is not an object. The decoder reads one value: what follows it is never looked at.
 * A syntax error quotes one byte of the body, never more (secrets stay out of the answer).
 */

import { JsonNumber } from '../../values/index.js';

export type GoDecoded =
  /** The first value's bytes (valid JSON), or none: the body is empty or only white space (io.EOF). */
  | { kind: 'value'; end: number; first: number }
  | { kind: 'empty' }
  | { kind: 'error'; message: string };

type Frame = 'key' | 'value' | 'array';

const MAX_DEPTH = 10_000;

/** Finds the extent of the first JSON value of the body, or Go's error for it. */
export function goDecodeExtent(bytes: Uint8Array): GoDecoded {
  const stack: Frame[] = [];
  let i = 0;
  while (i < bytes.length && isSpace(bytes[i]!)) i++;
  if (i === bytes.length) return { kind: 'empty' };
  const first = i;
  const fail = (context: string): GoDecoded => ({ kind: 'error', message: `invalid character ${quoteChar(bytes[i]!)} ${context}` });

  // Each state reads bytes[i]; `next` names the state for the following byte.
  type State = 'beginValue' | 'beginValueOrEmpty' | 'beginStringOrEmpty' | 'beginString' | 'endValue' | 'string' | 'escape' | 'u1' | 'u2' | 'u3' | 'u4' | 'neg' | 'zero' | 'digits' | 'dot' | 'fraction' | 'exp' | 'expSign' | 'expDigits' | 'literal';
  let state: State = 'beginValue';
  let literal = '';
  let literalAt = 0;
  for (; i < bytes.length; i++) {
    const c = bytes[i]!;
    switch (state) {
      case 'beginValueOrEmpty':
        if (isSpace(c)) continue;
        if (c === 0x5d) {
          stack.pop();
          if (stack.length === 0) return { kind: 'value', first, end: i + 1 };
          state = 'endValue';
          continue;
        }
        state = 'beginValue'; // any other byte begins a value: read it again as such
        i--;
        continue;
      case 'beginValue':
        if (isSpace(c)) continue;
        switch (c) {
          case 0x7b: // {
            if (stack.length >= MAX_DEPTH) return fail('exceeded max depth');
            stack.push('key');
            state = 'beginStringOrEmpty';
            continue;
          case 0x5b: // [
            if (stack.length >= MAX_DEPTH) return fail('exceeded max depth');
            stack.push('array');
            state = 'beginValueOrEmpty';
            continue;
          case 0x22:
            state = 'string';
            continue;
          case 0x2d:
            state = 'neg';
            continue;
          case 0x30:
            state = 'zero';
            continue;
          case 0x74:
          case 0x66:
          case 0x6e:
            literal = c === 0x74 ? 'true' : c === 0x66 ? 'false' : 'null';
            literalAt = 1;
            state = 'literal';
            continue;
        }
        if (c >= 0x31 && c <= 0x39) {
          state = 'digits';
          continue;
        }
        return fail('looking for beginning of value');
      case 'beginStringOrEmpty':
        if (isSpace(c)) continue;
        if (c === 0x7d) {
          stack.pop();
          if (stack.length === 0) return { kind: 'value', first, end: i + 1 };
          state = 'endValue';
          continue;
        }
        state = 'beginString';
        i--;
        continue;
      case 'beginString':
        if (isSpace(c)) continue;
        if (c === 0x22) {
          state = 'string';
          continue;
        }
        return fail('looking for beginning of object key string');
      case 'string':
        if (c === 0x22) state = 'endValue';
        else if (c === 0x5c) state = 'escape';
        else if (c < 0x20) return fail('in string literal');
        continue;
      case 'escape':
        if ('bfnrt\\/"'.includes(String.fromCharCode(c))) state = 'string';
        else if (c === 0x75) state = 'u1';
        else return fail('in string escape code');
        continue;
      case 'u1':
      case 'u2':
      case 'u3':
      case 'u4':
        if (!isHex(c)) return fail('in \\u hexadecimal character escape');
        state = state === 'u1' ? 'u2' : state === 'u2' ? 'u3' : state === 'u3' ? 'u4' : 'string';
        continue;
      case 'neg':
        if (c === 0x30) state = 'zero';
        else if (c >= 0x31 && c <= 0x39) state = 'digits';
        else return fail('in numeric literal');
        continue;
      case 'literal':
        if (c !== literal.charCodeAt(literalAt)) return fail(`in literal ${literal} (expecting ${quoteChar(literal.charCodeAt(literalAt))})`);
        literalAt++;
        if (literalAt === literal.length) state = 'endValue';
        continue;
      case 'digits':
        if (isDigit(c)) continue;
        state = 'zero'; // what ends the integer part, read again
        i--;
        continue;
      case 'zero':
        if (c === 0x2e) {
          state = 'dot';
          continue;
        }
        if (c === 0x65 || c === 0x45) {
          state = 'exp';
          continue;
        }
        break; // the number ended before this byte
      case 'dot':
        if (!isDigit(c)) return fail('after decimal point in numeric literal');
        state = 'fraction';
        continue;
      case 'fraction':
        if (isDigit(c)) continue;
        if (c === 0x65 || c === 0x45) {
          state = 'exp';
          continue;
        }
        break;
      case 'exp':
        if (c === 0x2b || c === 0x2d) {
          state = 'expSign';
          continue;
        }
        state = 'expSign';
        i--;
        continue;
      case 'expSign':
        if (!isDigit(c)) return fail('in exponent of numeric literal');
        state = 'expDigits';
        continue;
      case 'expDigits':
        if (isDigit(c)) continue;
        break;
      case 'endValue':
        break;
    }
    // stateEndValue: a value ended before this byte.
    if (stack.length === 0) return { kind: 'value', first, end: i };
    if (isSpace(c)) {
      state = 'endValue';
      continue;
    }
    const top = stack[stack.length - 1]!;
    if (top === 'key') {
      if (c !== 0x3a) return fail('after object key');
      stack[stack.length - 1] = 'value';
      state = 'beginValue';
    } else if (top === 'value') {
      if (c === 0x2c) {
        stack[stack.length - 1] = 'key';
        state = 'beginString';
      } else if (c === 0x7d) {
        stack.pop();
        if (stack.length === 0) return { kind: 'value', first, end: i + 1 };
        state = 'endValue';
      } else return fail('after object key:value pair');
    } else {
      if (c === 0x2c) state = 'beginValue';
      else if (c === 0x5d) {
        stack.pop();
        if (stack.length === 0) return { kind: 'value', first, end: i + 1 };
        state = 'endValue';
      } else return fail('after array element');
    }
  }
  // The body ended: a top-level number or literal that is complete is a value (Decoder steps a space).
  const complete = stack.length === 0 && (state === 'endValue' || state === 'zero' || state === 'digits' || state === 'fraction' || state === 'expDigits');
  return complete ? { kind: 'value', first, end: bytes.length } : { kind: 'error', message: 'unexpected EOF' };
}

/**
 * The value of JSON text goDecodeExtent found valid, as the service's decoder gives it with
 * UseNumber (sdk/helper/jsonutil DecodeJSONFromReader): each number a JsonNumber holding its
 * literal text (`1e2`, `100.0` and `-0` stay as sent); strings as JSON.parse reads them; a
 * repeated key keeps its last value. Iterative: nesting goes to the decoder's 10,000 levels.
 */
export function goDecodeValue(text: string): unknown {
  type Open = { items: unknown[] } | { object: Record<string, unknown>; key?: string };
  const open: Open[] = [];
  let i = 0;
  let result: unknown;
  const skip = (): void => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };
  const readString = (): string => {
    const start = i;
    i++;
    while (text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  // A value is complete: it goes into what is open, or it is the result.
  const place = (value: unknown): void => {
    const top = open[open.length - 1];
    if (top === undefined) result = value;
    else if ('items' in top) top.items.push(value);
    else {
      Object.defineProperty(top.object, top.key!, { value, enumerable: true, writable: true, configurable: true });
      top.key = undefined;
    }
  };
  for (;;) {
    skip();
    const top = open[open.length - 1];
    const c = text[i];
    if (c === ',') {
      i++;
      continue;
    }
    if (c === ']' || c === '}') {
      i++;
      open.pop();
      place('items' in top! ? top.items : top!.object);
      if (open.length === 0) return result;
      continue;
    }
    if (top !== undefined && !('items' in top) && top.key === undefined) {
      top.key = readString();
      skip();
      i++; // the colon
      continue;
    }
    if (c === '{') {
      i++;
      open.push({ object: {} });
      continue;
    }
    if (c === '[') {
      i++;
      open.push({ items: [] });
      continue;
    }
    if (c === '"') place(readString());
    else if (c === 't' || c === 'f' || c === 'n') {
      const word = c === 't' ? 'true' : c === 'f' ? 'false' : 'null';
      i += word.length;
      place(c === 't' ? true : c === 'f' ? false : null);
    } else {
      const start = i;
      while (i < text.length && /[-+.0-9eE]/.test(text[i]!)) i++;
      place(new JsonNumber(text.slice(start, i)));
    }
    if (open.length === 0) return result;
  }
}

/** The Go kind json.Unmarshal names when a value cannot go into a map. */
export function goJsonKind(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'number' || value instanceof JsonNumber) return 'number';
  if (typeof value === 'boolean') return 'bool';
  return 'object';
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function isHex(c: number): boolean {
  return isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);
}

/** encoding/json quoteChar: the byte as a rune (Latin-1) in strconv.Quote's form, single-quoted. */
function quoteChar(c: number): string {
  if (c === 0x27) return `'\\''`;
  if (c === 0x22) return `'"'`;
  return `'${quoteRune(c)}'`;
}

const ESCAPES: Readonly<Record<number, string>> = { 7: '\\a', 8: '\\b', 9: '\\t', 10: '\\n', 11: '\\v', 12: '\\f', 13: '\\r', 0x5c: '\\\\' };

function quoteRune(c: number): string {
  const escaped = ESCAPES[c];
  if (escaped !== undefined) return escaped;
  if (c < 0x20 || c === 0x7f) return `\\x${c.toString(16).padStart(2, '0')}`;
  const ch = String.fromCharCode(c);
  // strconv.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space.
  if (c === 0x20 || /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u.test(ch)) return ch;
  return `\\u${c.toString(16).padStart(4, '0')}`;
}
