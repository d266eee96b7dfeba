/**
 * Durations as the service reads them: whole seconds (1800, "1800"), day counts ("7d") or Go
 * duration strings ("30m", "1h30m", "1.5h"). Whole seconds only; undefined otherwise.
 */
const UNIT_SECONDS: Readonly<Record<string, number>> = { h: 3600, m: 60, s: 1, ms: 0.001 };
const COMPONENT = /([0-9]+(?:\.[0-9]*)?|\.[0-9]+)(ms|h|m|s)/y;

export function parseDurationSeconds(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
  if (typeof value !== 'string' || value.length === 0) return undefined;
  if (/^[0-9]+$/.test(value)) return Number(value);
  const days = /^([0-9]+)d$/.exec(value);
  if (days) return Number(days[1]) * 86_400;
  let total = 0;
  let at = 0;
  while (at < value.length) {
    COMPONENT.lastIndex = at;
    const m = COMPONENT.exec(value);
    if (!m) return undefined;
    // Milliseconds in thousandths avoid float drift ("1500ms" is not whole seconds).
    total += Math.round(Number(m[1]) * UNIT_SECONDS[m[2]!]! * 1000);
    at += m[0].length;
  }
  return total % 1000 === 0 ? total / 1000 : undefined;
}
