import { numberLiteral, refused, value, type Read } from './read.js';

/**
 * Durations as the service reads a duration field (sdk/framework/field_data.go,
 * TypeDurationSecond → parseutil.ParseDurationSecond in hashicorp/go-secure-stdlib
 * parseutil/parseutil.go):
 * - a JSON number arrives as its text (json.Number), so it takes the string path;
 * - "" is 0;
 * - a base-10 int64 (strconv.ParseInt: optional sign, digits, nothing else) is seconds;
 * - text ending in "d" is a base-10 int64 of days ("7d"; "1.5d", "1d12h" are refused);
 * - either beyond int64 nanoseconds is refused as parseutil's overflowMul refuses it;
 * - anything else is Go's time.ParseDuration ("90s", "1h30m", ".5h", "1.5h", "300ms");
 * then whole seconds, truncated toward zero (int(dur.Seconds())), and a negative result
 * refused ("cannot provide negative value"). No trimming: " 1h" is refused.
 */

const NS_PER_SECOND = 1_000_000_000n;
const MAX_NS = (1n << 63n) - 1n; // Go's time.Duration is int64 nanoseconds
const UNIT_NS: Readonly<Record<string, bigint>> = {
  ns: 1n,
  us: 1_000n,
  'µs': 1_000n, // U+00B5 micro sign
  'μs': 1_000n, // U+03BC Greek mu
  ms: 1_000_000n,
  s: NS_PER_SECOND,
  m: 60n * NS_PER_SECOND,
  h: 3600n * NS_PER_SECOND,
};
const BASE10_INT = /^[+-]?[0-9]+$/;

/** Seconds, and whether a sub-second remainder was dropped (the service truncates silently). */
export interface Seconds {
  seconds: number;
  truncated: boolean;
}

export function readDuration(input: unknown): Read<Seconds> {
  const text = numberLiteral(input) ?? input;
  if (typeof text !== 'string') return refused('could not parse duration from input');
  const ns = durationNanos(text);
  if (ns.kind === 'refused') return ns;
  // int(dur.Seconds()): toward zero; "-500ms" is 0 and so not negative.
  const whole = ns.value / NS_PER_SECOND;
  if (whole < 0n) return refused(`cannot provide negative value '${whole}'`);
  return value({ seconds: Number(whole), truncated: ns.value % NS_PER_SECOND !== 0n });
}

/**
 * parseutil.ParseDurationSecond itself, in nanoseconds and signed: what a handler that parses
 * its own duration fields sees (vault/token_store.go handleCreateCommon refuses `dur < 0`).
 */
export function readDurationNanos(input: unknown): Read<bigint> {
  const text = numberLiteral(input) ?? input;
  if (typeof text !== 'string') return refused('could not parse duration from input');
  return durationNanos(text);
}

/** Whole seconds, or undefined when the service refuses the value. */
export function durationSeconds(input: unknown): number | undefined {
  const read = readDuration(input);
  return read.kind === 'value' ? read.value.seconds : undefined;
}

/**
 * ParseDurationSecond's string path, in nanoseconds: strconv.ParseInt's int64 seconds, or days,
 * each multiplied by overflowMul; then time.ParseDuration. An integer beyond int64 is no
 * integer to ParseInt (out of range), so it falls through to ParseDuration, which refuses it
 * as an invalid duration; days beyond it are ParseInt's range error.
 */
function durationNanos(text: string): Read<bigint> {
  if (text === '') return value(0n);
  const seconds = parseInt64(text);
  if (seconds.kind === 'value') return overflowMul(seconds.value, NS_PER_SECOND);
  if (text.endsWith('d')) {
    const days = parseInt64(text.slice(0, -1));
    return days.kind === 'value' ? overflowMul(days.value, 86_400n * NS_PER_SECOND) : days;
  }
  return goParseDuration(text);
}

/** strconv.ParseInt(text, 10, 64), with its errors' texts. */
function parseInt64(text: string): Read<bigint> {
  if (!BASE10_INT.test(text)) return refused(`strconv.ParseInt: parsing "${text}": invalid syntax`);
  const n = BigInt(text);
  return n > MAX_NS || n < -MAX_NS - 1n ? refused(`strconv.ParseInt: parsing "${text}": value out of range`) : value(n);
}

/**
 * go-secure-stdlib parseutil overflowMul: a product of durations beyond int64 is refused with
 * its own error (Go's multiplication would wrap), not time's "invalid duration".
 */
function overflowMul(n: bigint, unit: bigint): Read<bigint> {
  const ns = n * unit;
  return ns > MAX_NS || ns < -MAX_NS - 1n ? refused(DURATION_MULTIPLICATION_OVERFLOW) : value(ns);
}

const DURATION_MULTIPLICATION_OVERFLOW = 'multiplication of durations resulted in overflow, one operand may be too large';

/** Go's time.ParseDuration (time/format.go), exactly: `[-+]?([0-9]*(\.[0-9]*)?[a-z]+)+` or "0". */
function goParseDuration(orig: string): Read<bigint> {
  const invalid = refused<bigint>(`time: invalid duration "${orig}"`);
  let s = orig;
  let neg = false;
  if (s[0] === '-' || s[0] === '+') {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return value(0n);
  if (s === '') return invalid;
  let total = 0n;
  while (s !== '') {
    if (!(s[0] === '.' || isDigit(s[0]!))) return invalid;
    const intPart = /^[0-9]*/.exec(s)![0];
    s = s.slice(intPart.length);
    // leadingInt: digits beyond 1<<63 overflow.
    if (intPart !== '' && BigInt(intPart) > 1n << 63n) return invalid;
    let fraction = '';
    if (s[0] === '.') {
      fraction = /^[0-9]*/.exec(s.slice(1))![0];
      s = s.slice(1 + fraction.length);
      if (intPart === '' && fraction === '') return invalid;
    } else if (intPart === '') return invalid;
    let unitEnd = 0;
    while (unitEnd < s.length && s[unitEnd] !== '.' && !isDigit(s[unitEnd]!)) unitEnd++;
    if (unitEnd === 0) return refused(`time: missing unit in duration "${orig}"`);
    const unitText = s.slice(0, unitEnd);
    s = s.slice(unitEnd);
    const unit = UNIT_NS[unitText];
    if (unit === undefined) return refused(`time: unknown unit "${unitText}" in duration "${orig}"`);
    const v = BigInt(intPart || '0');
    if (v > (1n << 63n) / unit) return invalid;
    let part = v * unit;
    if (fraction !== '') part += fractionNanos(fraction, unit);
    if (part > 1n << 63n) return invalid;
    total += part;
    if (total > 1n << 63n) return invalid;
  }
  if (neg) return value(-total);
  return total > MAX_NS ? invalid : value(total);
}

/**
 * Go's leadingFraction and `uint64(float64(f) * (float64(unit) / scale))`: the digits while
 * they fit (later ones are read and dropped), in float64 as Go computes them.
 */
function fractionNanos(digits: string, unit: bigint): bigint {
  let f = 0n;
  let scale = 1;
  for (const d of digits) {
    if (f > (1n << 63n) / 10n) break; // Go: overflow, the rest is consumed but ignored
    const next = f * 10n + BigInt(d);
    if (next > 1n << 63n) break;
    f = next;
    scale *= 10;
  }
  return BigInt(Math.trunc(Number(f) * (Number(unit) / scale)));
}

function isDigit(c: string): boolean {
  return c >= '0' && c <= '9';
}

/** Go's Duration.String() for whole seconds, as the service reads durations back: "768h0m0s", "1m30s", "0s". */
export function formatGoDuration(seconds: number): string {
  if (seconds === 0) return '0s';
  const sign = seconds < 0 ? '-' : '';
  let s = Math.abs(seconds);
  const h = Math.floor(s / 3600);
  s -= h * 3600;
  const m = Math.floor(s / 60);
  s -= m * 60;
  if (h > 0) return `${sign}${h}h${m}m${s}s`;
  if (m > 0) return `${sign}${m}m${s}s`;
  return `${sign}${s}s`;
}

/** The shortest exact duration text for export: `24h`, `90m`, `45s`; 0 as a number. */
export function formatDurationExact(seconds: number): string | number {
  if (seconds === 0) return 0;
  if (seconds % 3600 === 0) return `${seconds / 3600}h`;
  if (seconds % 60 === 0) return `${seconds / 60}m`;
  return `${seconds}s`;
}

/** `1h2m3s`, `45s`, `3d4h`: the three largest units, for messages. */
export function formatSeconds(seconds: number): string {
  let s = Math.max(0, Math.round(seconds));
  if (s === 0) return '0s';
  const parts: string[] = [];
  for (const [unit, size] of [['d', 86400], ['h', 3600], ['m', 60], ['s', 1]] as const) {
    const n = Math.floor(s / size);
    if (n > 0) parts.push(`${n}${unit}`);
    s -= n * size;
  }
  return parts.slice(0, 3).join('');
}
