import { segmentProblem } from '../../core/path-segment.js';
import { goTrimSpace, goToLower } from '../../values/index.js';

/**
 * The service's rules for ACL policy names (vault/policy_store.go, vault/logical_system.go
 * handlePoliciesSet): a name is stored lower-cased and trimmed (sanitizeName); `root` and the
 * service's own response-wrapping and control-group policies are immutable (immutablePolicies:
 * "cannot update \"root\" policy"); `default` can be written but never deleted ("cannot delete
 * default policy"). LIST answers `root` beside the stored ones (handlePoliciesList).
 */

/** Policies the service refuses to write. */
const IMMUTABLE_POLICIES: ReadonlySet<string> = new Set(['root', 'response-wrapping', 'control-group']);
/** The policy every namespace has, which the service never deletes. */
export const DEFAULT_POLICY = 'default';
/** The policy that allows everything: no stored text. */
export const ROOT_POLICY = 'root';

/** A policy name as the service stores it (sanitizeName: trimmed, lower-cased as Go does). */
export function canonicalPolicyName(name: string): string {
  return goToLower(goTrimSpace(name));
}

/**
 * Why `name` cannot be declared, or undefined. It is one path segment (core/path-segment),
 * written as the service keeps it: a name with spaces around it would be trimmed, a name that
 * is one of the service's own cannot be written.
 */
export function policyNameProblem(name: string): string | undefined {
  const problem = segmentProblem(name);
  if (problem) return `${JSON.stringify(name)} ${problem}`;
  if (goTrimSpace(name) !== name) return `${JSON.stringify(name)} must not start or end with spaces (the service trims them)`;
  const stored = canonicalPolicyName(name);
  if (IMMUTABLE_POLICIES.has(stored)) return `"${stored}" is the service's own policy and cannot be written (the service answers: cannot update "${stored}" policy)`;
  return undefined;
}
