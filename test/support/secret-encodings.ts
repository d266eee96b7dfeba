/**
 * Generators for the redaction properties: secrets of random length and characters, the ways a
 * server may echo a request body holding one (each encoding, and encodings nested), and where
 * in the body it stands. Shared by the unit properties (test/core) and the end-to-end ones.
 */
import fc from 'fast-check';
import { SHORT_SECRET_LENGTH } from '../../src/core/redaction.js';

/** Python's json.dumps (ensure_ascii): every character outside ASCII as \uXXXX (pairs as two). */
export function pythonJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Python's ascii() (and Go's %+q): \xe4 below U+0100, \u20ac below U+10000, \U0001f600 above; line breaks and tabs named. */
export function pythonAscii(text: string): string {
  const named: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\\': '\\\\', "'": "\\'" };
  const escaped = [...text].map((c) => {
    const cp = c.codePointAt(0)!;
    if (named[c] !== undefined) return named[c];
    if (cp >= 0x20 && cp < 0x7f) return c;
    if (cp < 0x100) return `\\x${hex(cp, 2)}`;
    return cp < 0x10000 ? `\\u${hex(cp, 4)}` : `\\U${hex(cp, 8)}`;
  });
  return `'${escaped.join('')}'`;
}

/** Bytes as a C, Python (bytes) or Ruby string writes them: printable ASCII as it is, any other byte escaped by `byte`. */
function escapedBytes(text: string, byte: (b: number) => string): string {
  const named: Record<number, string> = { 0x0a: '\\n', 0x09: '\\t', 0x0d: '\\r', 0x5c: '\\\\', 0x22: '\\"' };
  return `"${[...Buffer.from(text)].map((b) => named[b] ?? (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : byte(b))).join('')}"`;
}

const hex = (n: number, digits: number): string => n.toString(16).padStart(digits, '0');

const htmlNumeric = (text: string): string => [...text].map((c) => (/[A-Za-z0-9]/.test(c) ? c : `&#${c.codePointAt(0)};`)).join('');
const htmlHex = (text: string): string => [...text].map((c) => (/[A-Za-z0-9 ]/.test(c) ? c : `&#x${c.codePointAt(0)!.toString(16)};`)).join('');
const htmlNamed = (text: string): string => text.replace(/[&<>"]/g, (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot' }[c]!};`);
const b64 = (text: string): string => Buffer.from(text).toString('base64');

export interface Encoding {
  name: string;
  /** The text a server answers with, from the request body it got. */
  encode: (body: string) => string;
  /** Changes letter case: only secrets of SHORT_SECRET_LENGTH or more are found in it. */
  foldsCase?: boolean;
}

/** A server's echo of a body: alone, and nested one in another as servers and proxies do. */
export const ENCODINGS: readonly Encoding[] = [
  { name: 'as it is', encode: (b) => b },
  { name: 'JSON string', encode: (b) => JSON.stringify(b) },
  { name: 'JSON string twice', encode: (b) => JSON.stringify(JSON.stringify(b)) },
  { name: 'Python JSON (\\u00e4)', encode: (b) => pythonJson(b) },
  { name: 'Go JSON (\\u003c)', encode: (b) => JSON.stringify(b).replace(/[<>&]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`) },
  { name: 'base64', encode: b64 },
  { name: 'base64url', encode: (b) => Buffer.from(b).toString('base64url') },
  { name: 'base64 of Python JSON', encode: (b) => b64(pythonJson(b)) },
  { name: 'base64 of base64', encode: (b) => b64(b64(b)) },
  { name: 'hex', encode: (b) => Buffer.from(b).toString('hex') },
  { name: 'percent', encode: (b) => encodeURIComponent(b) },
  { name: 'percent of Python JSON', encode: (b) => encodeURIComponent(pythonJson(b)) },
  { name: 'HTML numeric entities', encode: htmlNumeric },
  { name: 'HTML hex entities of JSON', encode: (b) => htmlHex(JSON.stringify(b)) },
  { name: "Python ascii() (\\xe4, \\U0001f600)", encode: pythonAscii },
  { name: 'bytes as \\xc3\\xa4 (Python)', encode: (b) => `b${escapedBytes(b, (byte) => `\\x${hex(byte, 2)}`)}` },
  { name: 'bytes as \\xC3\\xA4 (Ruby)', encode: (b) => escapedBytes(b, (byte) => `\\x${hex(byte, 2).toUpperCase()}`) },
  { name: 'bytes as \\303\\244 (C)', encode: (b) => escapedBytes(b, (byte) => `\\${byte.toString(8).padStart(3, '0')}`) },
  { name: 'upper case', encode: (b) => b.toUpperCase(), foldsCase: true },
  { name: 'upper-cased Python ascii()', encode: (b) => pythonAscii(b).toUpperCase(), foldsCase: true },
  { name: 'upper-cased HTML named entities', encode: (b) => htmlNamed(b).toUpperCase(), foldsCase: true },
  { name: 'upper-cased Python JSON', encode: (b) => pythonJson(b).toUpperCase(), foldsCase: true },
];

/**
 * Where the secret stands in the body: always bounded by what is not a letter or digit (a
 * short secret counts only standing alone), often right after an escape once encoded.
 */
export const BODIES: ReadonlyArray<(secret: string) => string> = [
  (s) => JSON.stringify({ bindpass: s, url: 'ldap://ldap.example.com' }),
  (s) => s,
  (s) => `line one\n${s}\nline three`,
  (s) => `pin=${s}&slot=0`,
  (s) => `<${s}>`,
  (s) => `"${s}"\ttab`,
];

/** Characters secrets are made of: digits (a PIN), ASCII, and any of Unicode (astral ones too). */
const secretChar = fc.oneof(
  fc.constantFrom(...'0123456789'),
  fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }),
  fc.constantFrom('ä', 'ß', 'é', 'Ω', 'ж', '€', '漢', '😀', '\u00a0'),
);

/** A secret: 1 to 24 characters, not blank, never starting or ending with a letter-less space. */
export const secretArb = fc
  .array(secretChar, { minLength: 1, maxLength: 24 })
  .map((chars) => chars.join(''))
  .filter((s) => s.trim() === s && s !== '');

/** Could a secret of this text be found in a text that changed its letters' case? */
export const foldable = (secret: string): boolean => secret.length >= SHORT_SECRET_LENGTH;
