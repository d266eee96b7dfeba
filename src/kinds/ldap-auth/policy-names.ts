import { aclPolicyAddress } from '../../core/acl-policy-path.js';
import type { Address } from '../../core/address.js';
import { segmentProblem } from '../../core/path-segment.js';
import type { ResolvedDocument, ValuePath } from '../../load/document.js';
import { goToLower } from '../../values/index.js';
import type { PolicyReference } from '../kind.js';
import { asLdapDocuments, type LdapAuthDocument } from './types.js';

/**
 * The policies LdapAuth documents name: each group's and user's `policies`, the config's
 * `token_policies` (and its deprecated alias `policies`). A list item, or a name in a
 * comma-separated text, is located at its own line and column.
 */
export function ldapPolicyReferences(docs: ReadonlyArray<ResolvedDocument>): PolicyReference[] {
  const refs: PolicyReference[] = [];
  for (const doc of asLdapDocuments(docs)) {
    const { cluster, namespace } = doc.data;
    const add = (path: ValuePath, value: unknown): void => {
      for (const item of namedItems(doc, path, value)) refs.push({ cluster, namespace, ...item });
    };
    add(['config', 'token_policies'], doc.data.config?.['token_policies']);
    add(['config', 'policies'], doc.data.config?.['policies']);
    for (const [name, entry] of Object.entries(doc.data.groups ?? {})) add(['groups', name, 'policies'], entry?.policies);
    for (const [name, entry] of Object.entries(doc.data.users ?? {})) add(['users', name, 'policies'], entry?.policies);
  }
  return refs;
}

/** The names a list field holds (a list, or a comma-separated text), each with where it is written. */
function namedItems(doc: LdapAuthDocument, path: ValuePath, value: unknown): Array<{ name: string; pos: PolicyReference['pos'] }> {
  if (typeof value === 'string') return namesInText(doc, path, value);
  if (!Array.isArray(value)) return [];
  return value.flatMap((item, i) => (typeof item === 'string' ? namesInText(doc, [...path, i], item) : []));
}

/** The comma-separated names of one text (the service splits and trims it), each at its column when the text is written plainly. */
function namesInText(doc: LdapAuthDocument, path: ValuePath, text: string): Array<{ name: string; pos: PolicyReference['pos'] }> {
  const out: Array<{ name: string; pos: PolicyReference['pos'] }> = [];
  let start = 0;
  for (const part of text.split(',')) {
    const name = part.trim();
    const column = start + (part.length - part.trimStart().length) + 1;
    if (name !== '') out.push({ name, pos: () => doc.source.textPos(path, 1, column) ?? doc.source.pos(path) });
    start += part.length + 1;
  }
  return out;
}

/**
 * The addresses of the ACL policies `names` (stored form, lower case) in the method's
 * namespace: an object naming a policy is written after that policy when the plan writes both
 * (order/ drops a dependency on anything the plan does not change). A name no address can hold
 * is no dependency (the policy check says it is missing).
 */
export function policyDependencies(cluster: string, namespace: string, names: readonly string[]): Address[] {
  if (names.length === 0) return [];
  const found = new Set<Address>();
  for (const name of names) {
    const address = policyAddressOf(cluster, namespace, name);
    if (address) found.add(address);
  }
  return [...found];
}

// Thousands of users name the same few policies: one Address each (an Address never changes),
// not one per user (10,000 users made 10,000, with their segment checks). Bounded by a clear.
const policyAddresses = new Map<string, Address | null>();
const POLICY_ADDRESSES_KEPT = 10_000;

function policyAddressOf(cluster: string, namespace: string, name: string): Address | null {
  const stored = goToLower(name);
  const key = `${cluster}\u0000${namespace}\u0000${stored}`;
  let address = policyAddresses.get(key);
  if (address === undefined) {
    address = segmentProblem(stored) === undefined ? aclPolicyAddress(cluster, namespace, stored) : null;
    if (policyAddresses.size >= POLICY_ADDRESSES_KEPT) policyAddresses.clear();
    policyAddresses.set(key, address);
  }
  return address;
}
