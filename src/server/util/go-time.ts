/**
 * Times as the service's JSON writes a Go time.Time (encoding/json: RFC3339Nano in UTC), so that
 * clients parsing or printing them see the service's form: the fraction's trailing zeros dropped,
 * and no fraction at all on a whole second (`2026-01-02T03:04:05Z`, never JavaScript's `.000Z`).
 */
export function goTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.?0+Z$/, 'Z');
}

/** time.Time{} as encoding/json writes it (a zero time is written despite `omitempty`). */
export const GO_ZERO_TIME = '0001-01-01T00:00:00Z';
