/**
 * Value forms of snapshot fields beyond those the LDAP kind already parses (durations,
 * booleans, counts are shared from there): sizes in bytes.
 */
export { parseBool, parseCount, parseDuration, parseDurationDetailed } from '../ldap-auth/values.js';

const UNIT_BYTES: Readonly<Record<string, bigint>> = {
  b: 1n,
  kb: 1000n,
  mb: 1000n ** 2n,
  gb: 1000n ** 3n,
  tb: 1000n ** 4n,
  pb: 1000n ** 5n,
  kib: 1024n,
  mib: 1024n ** 2n,
  gib: 1024n ** 3n,
  tib: 1024n ** 4n,
  pib: 1024n ** 5n,
};
const SIZE = /^([0-9]+)(?:\.([0-9]+))?\s*([A-Za-z]+)?$/;
const MAX_BYTES = BigInt(Number.MAX_SAFE_INTEGER);

export type BytesParse = { bytes: number } | { problem: 'syntax' | 'fraction' | 'too-large' };

/**
 * Bytes from a whole number (`10737418240`, `"10737418240"`) or a size with a unit: decimal
 * `KB MB GB TB PB` (powers of 1000), binary `KiB MiB GiB TiB PiB` (powers of 1024), `B`;
 * units case-insensitive, a space allowed (`10 GiB`). A fraction must come to whole bytes
 * (`1.5GiB` does, `1.5B` does not).
 */
export function parseBytesDetailed(value: unknown): BytesParse {
  if (typeof value === 'number') {
    if (!Number.isInteger(value) || value < 0) return { problem: 'syntax' };
    return Number.isSafeInteger(value) ? { bytes: value } : { problem: 'too-large' };
  }
  if (typeof value !== 'string') return { problem: 'syntax' };
  const m = SIZE.exec(value.trim());
  if (!m) return { problem: 'syntax' };
  const [, whole, fraction = '', unitText = 'b'] = m as unknown as [string, string, string?, string?];
  const unit = UNIT_BYTES[unitText.toLowerCase()];
  if (unit === undefined) return { problem: 'syntax' };
  const scale = 10n ** BigInt(fraction.length);
  const scaled = (BigInt(whole) * scale + BigInt(fraction || '0')) * unit;
  if (scaled % scale !== 0n) return { problem: 'fraction' };
  const bytes = scaled / scale;
  return bytes > MAX_BYTES ? { problem: 'too-large' } : { bytes: Number(bytes) };
}

export function parseBytes(value: unknown): number | undefined {
  const parsed = parseBytesDetailed(value);
  return 'bytes' in parsed ? parsed.bytes : undefined;
}

/** The shortest exact size text for export: `10GiB`, `500MB`, or the bytes. */
export function formatBytesExact(bytes: number): string | number {
  const units: Array<[string, bigint]> = [
    ['PiB', 1024n ** 5n],
    ['TiB', 1024n ** 4n],
    ['GiB', 1024n ** 3n],
    ['MiB', 1024n ** 2n],
    ['PB', 1000n ** 5n],
    ['TB', 1000n ** 4n],
    ['GB', 1000n ** 3n],
    ['MB', 1000n ** 2n],
  ];
  const n = BigInt(bytes);
  if (n === 0n) return 0;
  for (const [unit, size] of units) if (n % size === 0n) return `${n / size}${unit}`;
  return bytes;
}

/** The shortest exact duration text for export: `24h`, `90m`, `45s`, or whole days. */
export function formatDurationExact(seconds: number): string | number {
  if (seconds === 0) return 0;
  if (seconds % 3600 === 0) return `${seconds / 3600}h`;
  if (seconds % 60 === 0) return `${seconds / 60}m`;
  return `${seconds}s`;
}
