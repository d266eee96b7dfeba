/**
 * Health of an automated-snapshot configuration from its status (GET
 * sys/storage/raft/snapshot-auto/status/:name). Pure: the caller reads the status and passes
 * the clock. Rules:
 *
 * - `last_snapshot_error` non-empty → failing (the error is quoted, scrubbed).
 * - `consecutive_errors` > 0 → failing.
 * - Grace = 60 s + 10% of the interval: schedulers start late and snapshots take time, so a
 *   snapshot is "due" only once interval + grace has passed.
 * - `last_snapshot_end` older than interval + grace → stale (failing); otherwise fresh (ok).
 *   It is the end of the last attempt: when that attempt failed, the error rules above fire.
 * - Never ran (no `last_snapshot_start`/`last_snapshot_end`): if `next_snapshot_start` is still
 *   ahead, or behind by no more than the grace, that is an ok finding (the configuration is
 *   younger than its interval, as the service schedules the first snapshot one interval after
 *   the configuration is written); past the grace it is overdue (failing). Without a
 *   `next_snapshot_start` nothing shows that the schedule runs: failing.
 * - Started but not ended (the first snapshot running): ok while younger than interval + grace,
 *   then stuck (failing).
 * Times may be RFC 3339 strings or empty; Go's zero time (`0001-01-01T00:00:00Z`) means unset.
 */
import { scrub } from '../../core/secret.js';
import { durationSeconds, formatSeconds } from '../../values/index.js';
import { unwrapConfig, type Finding, type SnapshotCheckConfig } from './types.js';

export interface SnapshotStatus {
  last_snapshot_start?: string;
  last_snapshot_end?: string;
  last_snapshot_error?: string;
  last_snapshot_url?: string;
  snapshot_start?: string;
  snapshot_url?: string;
  consecutive_errors?: number | string;
  next_snapshot_start?: string;
}

const GRACE_FIXED_SECONDS = 60;
const GRACE_FRACTION = 0.1;

export function graceSeconds(interval: number): number {
  return GRACE_FIXED_SECONDS + GRACE_FRACTION * interval;
}

export function checkSnapshotStatus(status: SnapshotStatus, config: SnapshotCheckConfig, now: Date): Finding[] {
  const { secrets } = unwrapConfig(config);
  const subject = `snapshot-auto/status/${config.name ?? '(unnamed)'}`;
  const findings: Finding[] = [];
  const report = (ok: boolean, message: string) => findings.push({ ok, subject, message: scrub(message, secrets) });

  const interval = intervalSeconds(config.interval);
  if (interval === undefined) {
    report(false, `interval ${JSON.stringify(config.interval ?? null)} is not a positive duration; cannot judge freshness`);
  }
  const error = status.last_snapshot_error?.trim();
  if (error) report(false, `last snapshot attempt failed: ${error}`);
  const errors = Number(status.consecutive_errors ?? 0);
  if (errors > 0) report(false, `${errors} consecutive failed snapshot attempt${errors === 1 ? '' : 's'}`);

  const times = parseTimes(status, report);
  if (!times || interval === undefined) return findings;
  const limit = interval + graceSeconds(interval);
  const ago = (t: Date) => (now.getTime() - t.getTime()) / 1000;
  const every = `interval ${formatSeconds(interval)}, grace ${formatSeconds(graceSeconds(interval))}`;

  if (times.end) {
    const age = ago(times.end);
    if (age > limit) report(false, `stale: the last snapshot ended ${formatSeconds(age)} ago (${times.end.toISOString()}), longer than ${every}`);
    else report(true, `the last snapshot ended ${formatSeconds(Math.max(0, age))} ago (${every})`);
  } else if (times.start) {
    const age = ago(times.start);
    if (age > limit) report(false, `the first snapshot started ${formatSeconds(age)} ago and has not finished (${every})`);
    else report(true, `the first snapshot is in progress, started ${formatSeconds(Math.max(0, age))} ago`);
  } else if (times.next) {
    const late = ago(times.next);
    if (late > graceSeconds(interval)) {
      report(false, `no snapshot taken yet, although the first was due at ${times.next.toISOString()} (${formatSeconds(late)} ago)`);
    } else {
      report(true, `no snapshot taken yet; the first is due at ${times.next.toISOString()}`);
    }
  } else {
    report(false, 'no snapshot taken yet, and the status shows no next snapshot time');
  }
  return findings;
}

interface Times {
  start?: Date;
  end?: Date;
  next?: Date;
}

function parseTimes(status: SnapshotStatus, report: (ok: boolean, message: string) => void): Times | undefined {
  const times: Times = {};
  const fields = [
    ['start', 'last_snapshot_start'],
    ['end', 'last_snapshot_end'],
    ['next', 'next_snapshot_start'],
  ] as const;
  for (const [key, field] of fields) {
    const raw = status[field]?.trim();
    if (!raw || raw.startsWith('0001-01-01')) continue;
    const t = new Date(raw);
    if (Number.isNaN(t.getTime())) {
      report(false, `status field ${field} is not a time: ${JSON.stringify(raw)}`);
      return undefined;
    }
    times[key] = t;
  }
  return times;
}

/** The configured interval in whole seconds as the service reads it, when it is positive. */
export function intervalSeconds(value: unknown): number | undefined {
  const seconds = durationSeconds(value);
  return seconds !== undefined && seconds > 0 ? seconds : undefined;
}
