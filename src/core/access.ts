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
}

/** When the access review reads the directory: `auto` (a warning when it cannot), `require` (an error), `off`. */
export const ACCESS_REVIEW_MODES = ['auto', 'require', 'off'] as const;
export type AccessReviewMode = (typeof ACCESS_REVIEW_MODES)[number];

/**
 * The review's order: what a reviewer must read first, then by method and policy. EXTENSION
 * POINT for AclPolicy documents (the kind is built on h/acl-kind, not merged here): with the
 * run's policy texts, `escalates` tells a policy granting `sudo` or deny-free write on a path
 * the plan touches, and its gains come first. Without them no policy text is known, so none does.
 */
export function calledOutFirst(changes: readonly AccessChange[], escalates: (policy: string) => boolean = () => false): AccessChange[] {
  const first = (c: AccessChange): number => (c.gained.length > 0 && escalates(c.policy) ? 0 : 1);
  return [...changes].sort((a, b) => first(a) - first(b) || Address.compare(a.method, b.method) || compareText(a.policy, b.policy));
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
