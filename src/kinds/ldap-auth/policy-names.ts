import { aclPolicyAddress } from '../../core/acl-policy-path.js';
import type { Address } from '../../core/address.js';
import { segmentProblem } from '../../core/path-segment.js';
import type { SourcePos } from '../../core/diagnostics.js';
import type { ResolvedDocument, ValuePath } from '../../load/document.js';
import { goToLower } from '../../values/index.js';
import type { PolicyReference } from '../kind.js';
import { asLdapDocuments } from './types.js';

/**
 * The policies LdapAuth documents name: each group's and user's `policies`, the config's
 * `token_policies` (and its deprecated alias `policies`). A list item, or a name in a
 * comma-separated text, is located at its own line and column.
 */
export function ldapPolicyReferences(docs: ReadonlyArray<ResolvedDocument>): PolicyReference[] {
  const refs: PolicyReference[] = [];
  for (const doc of asLdapDocuments(docs)) {
    const { cluster, namespace } = doc.data;
    const add = (value: unknown, at: Omit<Place, 'column' | 'item'>): void => {
      if (typeof value === 'string') {
        forEachName(value, (name, column) => refs.push(new NamedAt(cluster, namespace, name, doc.source, { ...at, column })));
      } else if (Array.isArray(value)) {
        value.forEach((item: unknown, i) => {
          if (typeof item === 'string') forEachName(item, (name, column) => refs.push(new NamedAt(cluster, namespace, name, doc.source, { ...at, column, item: i })));
        });
      }
    };
    add(doc.data.config?.['token_policies'], { section: 'config', key: 'token_policies' });
    add(doc.data.config?.['policies'], { section: 'config', key: 'policies' });
    const groups = doc.data.groups ?? {};
    for (const name of Object.keys(groups)) add(groups[name]?.policies, { section: 'groups', key: name });
    const users = doc.data.users ?? {};
    for (const name of Object.keys(users)) add(users[name]?.policies, { section: 'users', key: name });
  }
  return refs;
}

/**
 * Where a name is written: the config's field `key`, or the `policies` of group or user `key`;
 * `item` the index of the list item that holds it, `column` where it starts in its text.
 */
interface Place {
  section: 'config' | 'groups' | 'users';
  key: string;
  column: number;
  item?: number;
}

/**
 * One reference, its place kept as data and made into a position only when it is reported (one
 * in thousands): a path and a closure per item, for 20,000 items, were most of this function's time.
 */
class NamedAt implements PolicyReference {
  readonly cluster: string;
  readonly namespace: string;
  readonly name: string;
  readonly #source: ResolvedDocument['source'];
  readonly #place: Place;

  constructor(cluster: string, namespace: string, name: string, source: ResolvedDocument['source'], place: Place) {
    this.cluster = cluster;
    this.namespace = namespace;
    this.name = name;
    this.#source = source;
    this.#place = place;
  }

  pos(): SourcePos {
    const { section, key, column, item } = this.#place;
    const value: ValuePath = section === 'config' ? ['config', key] : [section, key, 'policies'];
    const where = item === undefined ? value : [...value, item];
    return this.#source.textPos(where, 1, column) ?? this.#source.pos(where);
  }
}

/** The comma-separated names of one text (the service splits and trims it), each with its column (1-based) in the text. */
function forEachName(text: string, visit: (name: string, column: number) => void): void {
  // Most items are one name: no split.
  if (!text.includes(',')) {
    const name = text.trim();
    if (name !== '') visit(name, text.length - text.trimStart().length + 1);
    return;
  }
  let start = 0;
  for (const part of text.split(',')) {
    const name = part.trim();
    if (name !== '') visit(name, start + (part.length - part.trimStart().length) + 1);
    start += part.length + 1;
  }
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
