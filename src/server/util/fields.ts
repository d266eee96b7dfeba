import { readBool, readCommaList, readDuration, readInteger, type Read } from '../../values/index.js';

/**
 * Conversions of request fields through the shared value forms (src/values/), which read them
 * as the service's request framework does. A value that does not convert is a 400 with the
 * framework's wording (field_data.go Validate), built by the caller from FieldError.
 */
export class FieldError extends Error {
  constructor(field: string, value: unknown, reason: string) {
    super(`error converting input ${describe(value)} for field "${field}": ${reason}`);
  }
}

function describe(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function taken<T>(field: string, input: unknown, read: Read<T>): T {
  if (read.kind === 'refused') throw new FieldError(field, input, read.reason);
  return read.value;
}

export function toBool(field: string, value: unknown): boolean {
  return taken(field, value, readBool(value));
}

export function toStr(field: string, value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value === null) return '';
  throw new FieldError(field, value, 'expected a string');
}

export function toInt(field: string, value: unknown): number {
  return taken(field, value, readInteger(value));
}

export function toDurationSeconds(field: string, value: unknown): number {
  return taken(field, value, readDuration(value)).seconds;
}

/** A comma-string-slice field with its empty items dropped (what every list field here keeps); absent is no items. */
export function toList(field: string, value: unknown): string[] {
  if (value === undefined) return [];
  return taken(field, value, readCommaList(value)).filter((item) => item !== '');
}
