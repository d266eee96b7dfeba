/**
 * Byte sizes as lockstep's manifests accept them: a whole number of bytes, or a size with a unit
 * (`10GiB`, `500MB`, `1.5 GiB`), sent to the service as integer bytes (its fields take integers:
 * spec "Automated snapshot configuration", local_max_space). The units are those of
 * parseutil.ParseCapacityString (kb kib mb mib gb gib tb tib, any case) with b, pb and pib.
 */
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

/** Bytes, or why not; a fraction must come to whole bytes (`1.5GiB` does, `1.5B` does not). */
export function parseBytesDetailed(input: unknown): BytesParse {
  if (typeof input === 'number') {
    if (!Number.isInteger(input) || input < 0) return { problem: 'syntax' };
    return Number.isSafeInteger(input) ? { bytes: input } : { problem: 'too-large' };
  }
  if (typeof input !== 'string') return { problem: 'syntax' };
  const m = SIZE.exec(input.trim());
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

export function parseBytes(input: unknown): number | undefined {
  const parsed = parseBytesDetailed(input);
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

/** Bytes for messages: `1.5 GiB (1610612736 bytes)`. */
export function formatBytes(bytes: number): string {
  let scaled = bytes;
  let unit = 'bytes';
  for (const u of ['KiB', 'MiB', 'GiB', 'TiB']) {
    if (scaled < 1024) break;
    scaled /= 1024;
    unit = u;
  }
  return unit === 'bytes' ? `${bytes} bytes` : `${scaled.toFixed(1)} ${unit} (${bytes} bytes)`;
}
