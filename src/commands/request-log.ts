import type { ExchangeReport } from '../client/types.js';
import { printable } from '../core/text-escape.js';

/**
 * One line of the request log (`--log-level debug`), for stderr:
 * `debug: east: LIST team-a/auth/ldap/users -> 200 in 3ms`, `... -> 503 in 2ms (attempt 2)`,
 * `... -> no answer (ECONNREFUSED) in 1ms`. The method is lockstep's (a LIST goes as GET
 * `?list=true`); the path is the one the request was sent to, namespace first. Names in it may
 * come from a server or a manifest: each part goes through the one printer, and the line through
 * the run's redaction set (the caller's Output), so a name that is a secret shows as "(sensitive)".
 */
export function requestLogLine(e: ExchangeReport): string {
  const params = Object.entries(e.query ?? {}).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`);
  const query = params.length === 0 ? '' : `?${params.join('&')}`;
  const attempt = e.attempt > 1 ? ` (attempt ${e.attempt})` : '';
  return `debug: ${printable(e.cluster)}: ${e.method} ${printable(e.path)}${query} -> ${outcomeText(e.outcome)} in ${Math.round(e.elapsedMs)}ms${attempt}`;
}

function outcomeText(outcome: ExchangeReport['outcome']): string {
  switch (outcome.kind) {
    case 'answer':
      return String(outcome.status);
    case 'no-answer':
      return `no answer (${printable(outcome.code)})`;
  }
}
