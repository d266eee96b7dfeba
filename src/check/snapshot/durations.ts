/**
 * Interval parsing and human-readable durations for snapshot findings. The reconciler
 * normalises intervals to seconds; a duration string (`24h`, `1h30m`, `7d`) is accepted too so
 * that a manifest's value can be passed as written.
 */

const UNIT_SECONDS: Record<string, number> = { ns: 1e-9, us: 1e-6, µs: 1e-6, ms: 1e-3, s: 1, m: 60, h: 3600, d: 86400 };

/** Whole seconds, or undefined when the value is not a duration. */
export function intervalSeconds(value: number | string | undefined): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value > 0 ? Math.trunc(value) : undefined;
  const text = value?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Number(text) || undefined;
  const part = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h|d)/y;
  let total = 0;
  let at = 0;
  while (at < text.length) {
    part.lastIndex = at;
    const m = part.exec(text);
    if (!m) return undefined;
    total += Number(m[1]) * UNIT_SECONDS[m[2]!]!;
    at = part.lastIndex;
  }
  return total >= 1 ? Math.trunc(total) : undefined;
}

/** `1h2m3s`, `45s`, `3d4h` — the largest units only, for messages. */
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

/** Bytes for messages: `1.5 GiB (1610612736 bytes)`. */
export function formatBytes(bytes: number): string {
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 'bytes';
  for (const u of units) {
    if (value < 1024) break;
    value /= 1024;
    unit = u;
  }
  return unit === 'bytes' ? `${bytes} bytes` : `${value.toFixed(1)} ${unit} (${bytes} bytes)`;
}
