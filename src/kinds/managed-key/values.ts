import { commaListOf } from '../../values/index.js';

/**
 * Parsers for the value forms a managed key's fields accept. Pure; each takes manifest forms
 * and the server's read forms alike and gives the one comparable form, or undefined when the
 * value does not fit.
 */

/** Booleans and whole numbers are the shared value forms (src/values/), read as the service reads them. */
export { boolOf as parseBoolText, countOf as parseWhole } from '../../values/index.js';

/** A decimal number kept as text (a slot id may exceed what a YAML integer shows well): its digits. */
export function parseDecimal(value: unknown): string | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? String(value) : undefined;
  if (typeof value === 'string' && /^\s*[0-9]+\s*$/.test(value)) return BigInt(value.trim()).toString();
  return undefined;
}

/**
 * `0x1041`, `0x00001041`, `0X1041` → `0x1041`; the server's read form, a number (4161, as the
 * service reads a pkcs11 key back), → the same text.
 */
export function parseMechanism(value: unknown): string | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 && value <= 0xffffffff ? `0x${value.toString(16)}` : undefined;
  if (typeof value !== 'string') return undefined;
  const m = /^\s*0[xX]([0-9a-fA-F]{1,8})\s*$/.exec(value);
  return m ? `0x${BigInt(`0x${m[1]!}`).toString(16)}` : undefined;
}

/** P256, P-256, p256 (and 384, 521) → P256; anything else undefined. */
export function parseCurve(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const m = /^\s*p-?(256|384|521)\s*$/i.exec(value);
  return m ? `P${m[1]!}` : undefined;
}

/** The items of a usages value: a comma string or a list of strings, trimmed, lower-cased (as the server does), empty ones dropped. */
export function usageItems(value: unknown): string[] | undefined {
  // A list is sent comma-joined, so its items are split at commas as the service splits the text.
  const text = typeof value === 'string' ? value : Array.isArray(value) && value.every((v) => typeof v === 'string') ? value.join(',') : undefined;
  const items = text === undefined ? undefined : commaListOf(text);
  return items?.map((v) => v.toLowerCase()).filter((v) => v !== '');
}

/** Usages as compared: unique and sorted (the order carries no meaning). */
export function normaliseUsages(value: unknown): string[] | undefined {
  const items = usageItems(value);
  return items && [...new Set(items)].sort();
}

/** Upper-cased, trimmed text. */
export function parseUpper(value: unknown): string | undefined {
  return typeof value === 'string' ? value.trim().toUpperCase() : undefined;
}
