import type { AccessChange, Escalation } from '../core/access.js';
import { ACL_POLICY_RESOURCE_TYPE, aclPolicyAddress } from '../core/acl-policy-path.js';
import type { Address } from '../core/address.js';
import type { Diagnostics } from '../core/diagnostics.js';
import type { JsonValue } from '../core/json.js';
import { namespaceOf } from '../core/namespace-path.js';
import type { Change } from '../core/plan.js';
import type { RedactionSet } from '../core/redaction.js';
import type { DesiredState } from '../core/resource.js';
import { scrub } from '../core/secret.js';
import { ACL_POLICY_SHAPE } from '../kinds/acl-policy/live-shapes.js';
import type { ClientPool } from '../kinds/kind.js';
import { readShaped } from '../kinds/live-read.js';
import { goToLower } from '../values/index.js';
import { allowOperation, buildAcl, CAPABILITY_BIT, parseAclPolicy, type AclPolicy } from '../values/acl-policy/index.js';

export interface EscalationInput {
  /** The plan's changes (targets applied): the paths it touches, and the policies it writes. */
  changes: readonly Change[];
  observed: Readonly<Record<string, JsonValue | null>>;
  desired: Iterable<DesiredState>;
  pool: ClientPool;
  diagnostics: Diagnostics;
  redaction: RedactionSet;
}

/**
 * The review's gains that a reviewer must read first: the policy, as it will be after the
 * apply, grants `sudo` on some path, or create, update or delete (a deny on the path clears
 * them) on an API path a change of the plan writes. The text is the plan's (an AclPolicy
 * written), the run's (declared, unchanged), what the plan read, or else read from the server
 * once per policy, and only for policies someone gains.
 */
export async function withEscalations(accessChanges: readonly AccessChange[], input: EscalationInput): Promise<AccessChange[]> {
  const touched = [...new Set(input.changes.map((c) => c.address.path))].sort();
  const texts = new Map<string, Promise<string | undefined>>();
  const textOf = (address: Address): Promise<string | undefined> => {
    const key = address.toString();
    let found = texts.get(key);
    if (!found) texts.set(key, (found = policyTextAfter(address, input)));
    return found;
  };
  return Promise.all(
    accessChanges.map(async (c) => {
      if (c.gained.length === 0) return c;
      const namespace = namespaceOf(c.method);
      // A name no address can hold is on no server path we could read: nothing is known of it.
      let address: Address;
      try {
        address = aclPolicyAddress(c.method.cluster, namespace, goToLower(c.policy));
      } catch {
        return c;
      }
      const text = await textOf(address);
      if (text === undefined || !mayEscalate(text)) return c;
      const parsed = parseAclPolicy(text, { namespacePath: namespace === '' ? '' : `${namespace}/` });
      if (parsed.kind !== 'parsed') return c;
      const escalation = escalationOf(parsed.policy, c.policy, touched);
      return escalation ? { ...c, escalation } : c;
    }),
  );
}

/**
 * Whether the text can grant what escalationOf calls out: its rules can only hold sudo, create,
 * update or delete (or the legacy `write` and `sudo`) written as those words, or spelled with
 * escapes, which hcl starts with a backslash. Without either, the answer is no without the
 * parser (1.5 MB, some 200 ms to load: most of a review's gained policies only read).
 */
export function mayEscalate(text: string): boolean {
  return /\\|sudo|create|update|delete|write/i.test(text);
}

/** `sudo` on any path rule (the first as written), else write on the first touched path it allows. */
export function escalationOf(policy: AclPolicy, name: string, touched: readonly string[]): Escalation | undefined {
  const sudo = policy.rules.find((r) => !r.templated && (r.bits & CAPABILITY_BIT.sudo) !== 0 && (r.bits & CAPABILITY_BIT.deny) === 0);
  if (sudo) return { grants: 'sudo', path: sudo.key };
  const acl = buildAcl([{ name, policy }]);
  const writes = (path: string) => (['create', 'update', 'delete'] as const).some((operation) => allowOperation(acl, { path, operation }).allowed);
  const path = touched.find(writes);
  return path === undefined ? undefined : { grants: 'write', path };
}

/** The policy's text once the plan is applied; undefined when it will not exist or cannot be read. */
async function policyTextAfter(address: Address, input: EscalationInput): Promise<string | undefined> {
  const key = address.toString();
  const change = input.changes.find((c) => c.resourceType === ACL_POLICY_RESOURCE_TYPE && c.address.equals(address));
  if (change) return textField(change.after);
  for (const state of input.desired) {
    const declared = state.resources.find((r) => r.resourceType === ACL_POLICY_RESOURCE_TYPE && r.address.equals(address));
    if (declared) return textField(declared.attrs);
  }
  if (key in input.observed) return textField(input.observed[key]);
  try {
    return textField(await readShaped(input.pool.get(address.cluster), address.path, ACL_POLICY_SHAPE));
  } catch (err) {
    const why = scrub(err instanceof Error ? err.message : String(err), input.redaction);
    input.diagnostics.warningAbout(address, `the access review could not read this policy to tell whether it grants sudo or write on what the plan touches: ${why}`, 'server');
    return undefined;
  }
}

function textField(value: JsonValue | null | undefined): string | undefined {
  const policy = value !== null && typeof value === 'object' && !Array.isArray(value) ? value['policy'] : undefined;
  return typeof policy === 'string' ? policy : undefined;
}
