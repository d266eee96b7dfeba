import { isSecret } from '../../core/secret.js';

export { reportAt } from '../report.js';

/** The text of a string or Secret value ('' for anything else); never shown to anyone. */
export function textOf(value: unknown): string {
  if (isSecret(value)) return value.reveal();
  return typeof value === 'string' ? value : '';
}

/** The field is given with a non-empty value (a Secret counts by its text). */
export function isGiven(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === 'string' || isSecret(value)) return textOf(value) !== '';
  return true;
}
