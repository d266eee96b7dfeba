import { readBool, readCommaList, readDuration, readInteger, type Read } from '../../values/index.js';

/**
 * Conversions of request fields through the shared value forms (src/values/), which read them
 * as the service's request framework does. A value that does not convert is a 400 with the
 * framework's wording, built by the caller from FieldError: the framework checks every field
 * before the handler runs (sdk/framework/backend.go HandleRequest: "Field validation failed:
 * %s"; sdk/framework/field_data.go Validate: the field's name and the parse error, not the
 * value on its own).
 */
export class FieldError extends Error {
  constructor(field: string, reason: string) {
    super(`Field validation failed: error converting input for field "${field}": ${reason}`);
  }
}

function taken<T>(field: string, read: Read<T>): T {
  if (read.kind === 'refused') throw new FieldError(field, read.reason);
  return read.value;
}

export function toBool(field: string, value: unknown): boolean {
  return taken(field, readBool(value));
}

export function toStr(field: string, value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value === null) return '';
  throw new FieldError(field, 'expected a string');
}

export function toInt(field: string, value: unknown): number {
  return taken(field, readInteger(value));
}

export function toDurationSeconds(field: string, value: unknown): number {
  return taken(field, readDuration(value)).seconds;
}

/** A comma-string-slice field with its empty items dropped (what every list field here keeps); absent is no items. */
export function toList(field: string, value: unknown): string[] {
  if (value === undefined) return [];
  return taken(field, readCommaList(value)).filter((item) => item !== '');
}
