import { Address } from './address.js';

/**
 * One line of a plan's access review: for one auth method and one policy, the directory users
 * whose login gets the policy after the plan and did not before (`gained`), and those whose
 * login got it before and no longer does (`lost`). Users are the names they log in with, sorted.
 */
export interface AccessChange {
  /** The auth method the users log in through, e.g. `east:auth/ldap`. */
  method: Address;
  policy: string;
  gained: string[];
  lost: string[];
  /**
   * Set when the users who gain the policy gain with it `sudo` (on the rule's path as written)
   * or create, update or delete without a deny on a path the plan writes: what a reviewer must
   * read first. Absent when nobody gains the policy or its text is not known.
   */
  escalation?: Escalation;
}

/** What a gained policy grants that is called out: `sudo` anywhere, or `write` on a path the plan touches. */
export interface Escalation {
  grants: 'sudo' | 'write';
  /** sudo: the policy's path rule as written; write: the API path the plan touches (namespace first). */
  path: string;
}

/** When the access review reads the directory: `auto` (a warning when it cannot), `require` (an error), `off`. */
export const ACCESS_REVIEW_MODES = ['auto', 'require', 'off'] as const;
export type AccessReviewMode = (typeof ACCESS_REVIEW_MODES)[number];

/** The review's order: gains that escalate first, then by method and policy. */
export function calledOutFirst(changes: readonly AccessChange[]): AccessChange[] {
  const first = (c: AccessChange): number => (c.escalation !== undefined ? 0 : 1);
  return [...changes].sort((a, b) => first(a) - first(b) || Address.compare(a.method, b.method) || compareText(a.policy, b.policy));
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
