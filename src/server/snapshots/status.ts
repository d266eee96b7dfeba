/**
 * The status of one configuration (`GET sys/storage/raft/snapshot-auto/status/:name`), kept in
 * memory by the scheduler (a restart starts from the zero status). Field meanings:
 *
 *   last_snapshot_start / last_snapshot_end   start and end of the last attempt that finished
 *                                             (successful or not)
 *   last_snapshot_error                       why that attempt failed; "" when it succeeded
 *   last_snapshot_url                         the object that attempt wrote (or tried to write)
 *   snapshot_start / snapshot_url             the attempt running now; zero time and "" when none
 *   consecutive_errors                        failed attempts since the last success (0 after one)
 *   next_snapshot_start                       when the next attempt is due (the first is one
 *                                             interval after the configuration was written)
 *
 * Times are RFC 3339 as Go writes them (util/go-time.ts). A time that is not set yet is Go's
 * zero time, `0001-01-01T00:00:00Z`, as the service renders it.
 */
import { GO_ZERO_TIME, goTime } from '../util/go-time.js';
import type { JsonObject } from '../util/json.js';

export interface SnapshotStatus {
  lastStart?: Date;
  lastEnd?: Date;
  lastError: string;
  lastUrl: string;
  currentStart?: Date;
  currentUrl: string;
  consecutiveErrors: number;
  nextStart?: Date;
}

export const INITIAL_STATUS: SnapshotStatus = Object.freeze({ lastError: '', lastUrl: '', currentUrl: '', consecutiveErrors: 0 });

export type AttemptOutcome = { ok: true; url: string; bytes: number } | { ok: false; url: string; error: string };

export function attemptStarted(status: SnapshotStatus, at: Date, url: string): SnapshotStatus {
  return { ...status, currentStart: at, currentUrl: url };
}

export function attemptFinished(status: SnapshotStatus, startedAt: Date, endedAt: Date, outcome: AttemptOutcome): SnapshotStatus {
  return {
    ...status,
    lastStart: startedAt,
    lastEnd: endedAt,
    lastUrl: outcome.url,
    lastError: outcome.ok ? '' : outcome.error,
    consecutiveErrors: outcome.ok ? 0 : status.consecutiveErrors + 1,
    currentStart: undefined,
    currentUrl: '',
  };
}

export function scheduled(status: SnapshotStatus, next: Date | undefined): SnapshotStatus {
  return { ...status, nextStart: next };
}

export function statusView(status: SnapshotStatus): JsonObject {
  return {
    last_snapshot_start: rfc3339(status.lastStart),
    last_snapshot_end: rfc3339(status.lastEnd),
    last_snapshot_error: status.lastError,
    last_snapshot_url: status.lastUrl,
    snapshot_start: rfc3339(status.currentStart),
    snapshot_url: status.currentUrl,
    consecutive_errors: status.consecutiveErrors,
    next_snapshot_start: rfc3339(status.nextStart),
  };
}

function rfc3339(time: Date | undefined): string {
  return time === undefined ? GO_ZERO_TIME : goTime(time.getTime());
}
