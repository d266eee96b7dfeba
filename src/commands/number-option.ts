import { CliError } from './errors.js';

/** What a numeric option takes: whole numbers from `min` to `max` (no upper bound when absent). */
export interface WholeNumberRule {
  min: number;
  max?: number;
  /** What else the option takes, said first in its message: "auto", "0 (no limit)". */
  otherwise?: string;
}

/** Digits only: no sign, no `0x`/`0o`/`0b`, no exponent, no `_`, no spaces, not empty. */
const DECIMAL = /^[0-9]+$/;

/**
 * The one reading of a number given on the command line, for every command's numeric options:
 * decimal digits within the rule's bounds, or a CliError naming the option, what it takes and
 * what it got. (`Number()` would read `0x10`, `1e3` and ` 8 ` as numbers, and `''` as 0.)
 */
export function parseWholeNumber(option: string, text: string, rule: WholeNumberRule): number {
  const n = DECIMAL.test(text) ? Number(text) : NaN;
  if (Number.isSafeInteger(n) && n >= rule.min && (rule.max === undefined || n <= rule.max)) return n;
  const range = rule.max === undefined ? `of at least ${rule.min}` : `from ${rule.min} to ${rule.max}`;
  throw new CliError(`${option} must be ${rule.otherwise ? `${rule.otherwise} or ` : ''}a whole number ${range} (got ${JSON.stringify(text)})`);
}

/** parseWholeNumber as a commander option parser (the option is read when it is given). */
export function wholeNumber(option: string, rule: WholeNumberRule): (text: string) => number {
  return (text) => parseWholeNumber(option, text, rule);
}
