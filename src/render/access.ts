import type { AccessChange, Escalation } from '../core/access.js';
import { formatCount } from '../core/count.js';
import { printable } from './vocabulary.js';

/** Users named per line before the rest are counted: a review line stays readable. */
const NAMES_SHOWN = 10;

export const ACCESS_HEADING = 'Access review (directory users whose login gains or loses a policy):';
export const NO_ACCESS_CHANGES = 'Access review: no directory user gains or loses a policy.';

/** One side of a policy's line: `+` gained, `-` lost. */
export interface AccessLine {
  method: string;
  sign: '+' | '-';
  policy: string;
  users: readonly string[];
  /** On a gain: what the policy grants that is called out. */
  escalation?: Escalation;
}

/** The review as lines, a policy's gains before its losses, in the review's order. */
export function accessLines(changes: readonly AccessChange[]): AccessLine[] {
  return changes.flatMap((c) => [
    ...(c.gained.length > 0 ? [{ method: String(c.method), sign: '+' as const, policy: c.policy, users: c.gained, ...(c.escalation ? { escalation: c.escalation } : {}) }] : []),
    ...(c.lost.length > 0 ? [{ method: String(c.method), sign: '-' as const, policy: c.policy, users: c.lost }] : []),
  ]);
}

/** `fry, leela, … (27 users)`: the first NAMES_SHOWN, each through the one printer, and the count. */
export function userList(users: readonly string[]): string {
  const shown = users.slice(0, NAMES_SHOWN).map(printable).join(', ');
  const more = users.length > NAMES_SHOWN ? ', …' : '';
  return `${shown}${more} (${formatCount(users.length)} user${users.length === 1 ? '' : 's'})`;
}

/** What a called-out gain grants, in words: `grants sudo (on "sys/*")`, `grants write on auth/ldap/groups/ops, which this plan writes`. */
export function escalationWords(e: Escalation): string {
  switch (e.grants) {
    case 'sudo':
      return `grants sudo (on ${printable(JSON.stringify(e.path))})`;
    case 'write':
      return `grants write on ${e.path}, which this plan writes`;
  }
}
