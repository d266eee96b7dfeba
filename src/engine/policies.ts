import { ACL_POLICY_RESOURCE_TYPE, aclPolicyCollection } from '../core/acl-policy-path.js';
import { Address } from '../core/address.js';
import { Diagnostics, type Diagnostic } from '../core/diagnostics.js';
import type { JsonValue } from '../core/json.js';
import type { Change } from '../core/plan.js';
import type { RedactionSet } from '../core/redaction.js';
import { didYouMean } from '../core/suggest.js';
import { listPolicies, type ListedPolicies } from '../kinds/acl-policy/listed.js';
import type { ClientPool, KindModule, PolicyReference } from '../kinds/kind.js';
import type { Prepared } from '../validate/types.js';
import { goToLower } from '../values/index.js';

/** Policies that exist wherever a token can be given them (the service's own). */
const ALWAYS_THERE = new Set(['default', 'root']);

export interface PolicyCheckInput {
  prepared: Pick<Prepared, 'kinds' | 'documents' | 'desired'>;
  pool: ClientPool;
  /** What the kinds read: an AclPolicy collection read there is not listed again. */
  observed: Readonly<Record<string, JsonValue | null>>;
  /** The plan's changes (targets applied): a policy it deletes will not be there. */
  changes: readonly Change[];
  /** `--strict-policies`: a missing policy is an error (exit 1), not a warning. */
  strict: boolean;
  redaction: RedactionSet;
}

/**
 * Every policy that a document names (an LDAP group's or user's `policies`, a config's
 * `token_policies`) and that will not be there after the apply: neither listed on the server
 * (LIST `<ns/>sys/policies/acl`, once per cluster and namespace) nor declared by an AclPolicy
 * document of the run, or deleted by the plan. The service maps a login to a policy that does
 * not exist without a word, and the login gets nothing from it: a typo grants nothing, silently.
 * A warning at the item that names it, with the closest name there is; an error when strict.
 * A namespace whose policies the token may not list is one warning, and not checked.
 */
export async function missingPolicies(input: PolicyCheckInput): Promise<Diagnostics> {
  const diags = new Diagnostics();
  const named = namedPolicies(policyReferences(input.prepared));
  if (named.length === 0) return diags;
  const declared = byCollection(declaredPolicies(input.prepared));
  const deleted = byCollection(input.changes.filter((c) => c.action === 'delete' && c.resourceType === ACL_POLICY_RESOURCE_TYPE).map((c) => c.address));
  const listings = new Map<string, Promise<ListedPolicies>>();
  const listed = (cluster: string, namespace: string): Promise<ListedPolicies> => {
    const key = aclPolicyCollection(cluster, namespace).toString();
    let answer = listings.get(key);
    if (!answer) {
      const read = input.observed[key];
      answer = Array.isArray(read) ? Promise.resolve({ kind: 'listed', names: read as string[] }) : listPolicies(input.pool.get(cluster), namespace);
      listings.set(key, answer);
    }
    return answer;
  };
  const skipped = new Set<string>();
  await Promise.all(
    named.map(async ({ cluster, namespace, name, refs }) => {
      // Names are compared as text, never made into addresses: a manifest's or a server's name
      // may be one no address can hold (a "/" in it), and is then simply not there.
      const collection = aclPolicyCollection(cluster, namespace).toString();
      if (declared.get(collection)?.has(name)) return;
      const answer = await listed(cluster, namespace);
      if (answer.kind !== 'listed') {
        if (!skipped.has(collection)) {
          skipped.add(collection);
          diags.add({ severity: 'warning', origin: 'environment', subject: collection, message: skipMessage(answer, input.redaction) });
        }
        return;
      }
      const onServer = answer.names.includes(name);
      if (onServer && !deleted.get(collection)?.has(name)) return;
      const known = [...answer.names, ...(declared.get(collection) ?? [])].filter((n) => n !== 'root');
      const where = `cluster "${cluster}"${namespace === '' ? '' : `, namespace "${namespace}"`}`;
      const shown = refs.slice(0, LOCATED_PER_POLICY);
      shown.forEach((ref, i) => {
        const what = onServer ? `policy "${ref.name}" is deleted by this plan (prune) on ${where}` : `policy "${ref.name}" does not exist on ${where}`;
        const more = i === shown.length - 1 && refs.length > shown.length ? `; ${refs.length - shown.length} more places name it too` : '';
        diags.add({
          severity: input.strict ? 'error' : 'warning',
          origin: 'manifest',
          message: `${what}, and no AclPolicy document declares it${didYouMean(name, known)}: a login mapped to it gets nothing from it${more}`,
          pos: ref.pos(),
        });
      });
    }),
  );
  // Found concurrently; said in manifest order.
  const sorted = new Diagnostics();
  for (const line of [...diags.items].sort(byPosition)) sorted.add(line);
  return sorted;
}

/**
 * The places a missing policy is said at: the first few, the last of them counting the rest (a
 * policy ten thousand users name is one mistake, not ten thousand lines).
 */
const LOCATED_PER_POLICY = 3;

/** One policy of one namespace (its stored name, lower case) and every item that names it, in load order. */
interface NamedPolicy {
  cluster: string;
  namespace: string;
  name: string;
  refs: PolicyReference[];
}

/** The references grouped by the policy they name; `default` and `root`, which always exist, left out. */
function namedPolicies(references: readonly PolicyReference[]): NamedPolicy[] {
  const groups: NamedPolicy[] = [];
  // By cluster and namespace, then by stored name: thousands of references name a few policies
  // of one namespace, and each is then two look-ups, no key made for it.
  const scopes = new Map<string, Map<string, NamedPolicy>>();
  const stored = new Map<string, string>();
  let scope: Map<string, NamedPolicy> | undefined;
  let last: PolicyReference | undefined;
  for (const ref of references) {
    let name = stored.get(ref.name);
    if (name === undefined) stored.set(ref.name, (name = goToLower(ref.name)));
    if (ALWAYS_THERE.has(name)) continue;
    if (scope === undefined || ref.cluster !== last!.cluster || ref.namespace !== last!.namespace) {
      // Length-prefixed, so no two pairs share a key.
      const key = `${ref.cluster.length}:${ref.cluster}${ref.namespace}`;
      scope = scopes.get(key);
      if (!scope) scopes.set(key, (scope = new Map<string, NamedPolicy>()));
    }
    last = ref;
    let group = scope.get(name);
    if (!group) {
      scope.set(name, (group = { cluster: ref.cluster, namespace: ref.namespace, name, refs: [] }));
      groups.push(group);
    }
    group.refs.push(ref);
  }
  return groups;
}

function byPosition(a: Diagnostic, b: Diagnostic): number {
  if (!a.pos || !b.pos) return (a.pos ? 1 : 0) - (b.pos ? 1 : 0);
  return a.pos.file.localeCompare(b.pos.file) || a.pos.line - b.pos.line || a.pos.column - b.pos.column;
}

function policyReferences(prepared: PolicyCheckInput['prepared']): PolicyReference[] {
  const refs: PolicyReference[] = [];
  // Pushed, not flatMapped: tens of thousands of references, one copy fewer.
  for (const kind of prepared.kinds as readonly KindModule[]) for (const ref of kind.policyReferences?.(prepared.documents.get(kind.kind) ?? []) ?? []) refs.push(ref);
  return refs;
}

/** The addresses of the policies the run's AclPolicy documents declare. */
function declaredPolicies(prepared: PolicyCheckInput['prepared']): Address[] {
  return [...prepared.desired.values()].flatMap((state) => state.resources.filter((r) => r.resourceType === ACL_POLICY_RESOURCE_TYPE).map((r) => r.address));
}

/** Policy addresses as names by collection (the address's parent, as text). */
function byCollection(addresses: readonly Address[]): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const address of addresses) {
    const collection = new Address(address.cluster, address.segments.slice(0, -1)).toString();
    let names = out.get(collection);
    if (!names) out.set(collection, (names = new Set()));
    names.add(address.segments.at(-1)!);
  }
  return out;
}

function skipMessage(answer: Exclude<ListedPolicies, { kind: 'listed' }>, redaction: RedactionSet): string {
  const why = answer.kind === 'denied' ? 'the token may not list them (403 permission denied)' : redaction.redact(answer.message);
  return `the ACL policies here could not be listed: ${why}; whether the policies the manifests name exist was not checked`;
}
