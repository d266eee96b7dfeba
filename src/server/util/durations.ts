/**
 * Durations as the service's framework accepts them (TypeDurationSecond): an integer number of
 * seconds, a numeric string, a Go duration string ("90s", "1h30m", "1.5h"), or "<n>d" for days.
 * Results are whole seconds, truncated like Go's int64(d.Seconds()).
 */

const UNIT_NANOS: Record<string, number> = {
  ns: 1,
  us: 1e3,
  'µs': 1e3,
  'μs': 1e3,
  ms: 1e6,
  s: 1e9,
  m: 60e9,
  h: 3600e9,
};

export class DurationError extends Error {}

export function parseDurationSeconds(input: unknown): number {
  if (typeof input === 'number') {
    if (!Number.isFinite(input)) throw new DurationError('not a finite number');
    return Math.trunc(input);
  }
  if (typeof input !== 'string') throw new DurationError(`unsupported type ${typeof input}`);
  const text = input.trim();
  if (text === '') return 0;
  if (/^[+-]?\d+$/.test(text)) return Number.parseInt(text, 10);
  const days = /^([+-]?\d+)d$/.exec(text);
  if (days) return Number.parseInt(days[1]!, 10) * 86400;
  return Math.trunc(parseGoDurationNanos(text) / 1e9);
}

/** Go's time.ParseDuration, in nanoseconds (as a float: precision beyond 2^53 ns is irrelevant here). */
export function parseGoDurationNanos(text: string): number {
  let rest = text;
  let sign = 1;
  if (rest.startsWith('-') || rest.startsWith('+')) {
    if (rest.startsWith('-')) sign = -1;
    rest = rest.slice(1);
  }
  if (rest === '0') return 0;
  if (rest === '') throw new DurationError(`time: invalid duration "${text}"`);
  let total = 0;
  const part = /^(\d*(?:\.\d*)?)([a-zµμ]+)/;
  while (rest !== '') {
    const m = part.exec(rest);
    if (!m || m[1] === '' || m[1] === '.') throw new DurationError(`time: invalid duration "${text}"`);
    const unit = UNIT_NANOS[m[2]!];
    if (unit === undefined) throw new DurationError(`time: unknown unit "${m[2]}" in duration "${text}"`);
    total += Number.parseFloat(m[1]!) * unit;
    rest = rest.slice(m[0].length);
  }
  return sign * total;
}

/** Go's Duration.String() for whole seconds: "768h0m0s", "1m30s", "45s", "0s". */
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
