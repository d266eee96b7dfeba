import { DurationError, parseDurationSeconds } from './durations.js';
import { parseCommaList } from './lists.js';

/**
 * Conversions of request fields, as weakly typed as the service's request framework: booleans
 * also as "true"/"1"/"t", integers also as numeric strings, durations as seconds or duration
 * strings, lists as arrays or comma strings. A value that does not convert is a 400 with the
 * framework's wording, built by the caller from FieldError.
 */
export class FieldError extends Error {
  constructor(field: string, value: unknown, reason: string) {
    super(`error converting input ${describe(value)} for field "${field}": ${reason}`);
  }
}

function describe(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

const TRUE_TEXT = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);
const FALSE_TEXT = new Set(['0', 'f', 'F', 'FALSE', 'false', 'False', '']);

export function toBool(field: string, value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0;
  if (typeof value === 'string') {
    if (TRUE_TEXT.has(value)) return true;
    if (FALSE_TEXT.has(value)) return false;
    throw new FieldError(field, value, `strconv.ParseBool: parsing "${value}": invalid syntax`);
  }
  throw new FieldError(field, value, 'expected a boolean');
}

export function toStr(field: string, value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value === null) return '';
  throw new FieldError(field, value, 'expected a string');
}

export function toInt(field: string, value: unknown): number {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string' && /^\s*[+-]?\d+\s*$/.test(value)) return Number.parseInt(value, 10);
  throw new FieldError(field, value, 'expected an integer');
}

export function toDurationSeconds(field: string, value: unknown): number {
  try {
    const seconds = parseDurationSeconds(value);
    if (seconds < 0) throw new DurationError('duration cannot be negative');
    return seconds;
  } catch (err) {
    throw new FieldError(field, value, (err as Error).message);
  }
}

export function toList(field: string, value: unknown): string[] {
  try {
    return parseCommaList(value);
  } catch (err) {
    throw new FieldError(field, value, (err as Error).message);
  }
}
