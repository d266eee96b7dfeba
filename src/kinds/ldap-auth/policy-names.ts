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
    const site: Site = { refs, cluster: doc.data.cluster, namespace: doc.data.namespace, source: doc.source };
    addNames(site, doc.data.config?.['token_policies'], 'config', 'token_policies');
    addNames(site, doc.data.config?.['policies'], 'config', 'policies');
    const groups = doc.data.groups ?? {};
    for (const name of Object.keys(groups)) addNames(site, groups[name]?.policies, 'groups', name);
    const users = doc.data.users ?? {};
    for (const name of Object.keys(users)) addNames(site, users[name]?.policies, 'users', name);
  }
  return refs;
}

/** Where references go and what they share: one per document. */
interface Site {
  refs: PolicyReference[];
  cluster: string;
  namespace: string;
  source: ResolvedDocument['source'];
}

/** The names a field's value holds (a text, or a list of texts), each a reference. (Plain calls: this runs for every item of every user.) */
function addNames(site: Site, value: unknown, section: Section, key: string): void {
  if (typeof value === 'string') addNamesOf(site, value, section, key, undefined);
  else if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (typeof item === 'string') addNamesOf(site, item, section, key, i);
    }
  }
}

/** The comma-separated names of one text (the service splits and trims it), each with its column (1-based) in the text. */
function addNamesOf(site: Site, text: string, section: Section, key: string, item: number | undefined): void {
  // Most items are one name: no split.
  if (!text.includes(',')) {
    const name = text.trim();
    if (name !== '') site.refs.push(new NamedAt(site, name, section, key, text.length - text.trimStart().length + 1, item));
    return;
  }
  let start = 0;
  for (const part of text.split(',')) {
    const name = part.trim();
    if (name !== '') site.refs.push(new NamedAt(site, name, section, key, start + (part.length - part.trimStart().length) + 1, item));
    start += part.length + 1;
  }
}

/** The config's fields, or a group's or user's `policies`. */
type Section = 'config' | 'groups' | 'users';

/**
 * One reference, its place kept as data and made into a position only when it is reported (one
 * in thousands): the config's field `key`, or the `policies` of group or user `key`; `item` the
 * index of the list item that holds it, `column` where it starts in its text. A path and a
 * closure per item, for 20,000 items, were most of this function's time.
 */
class NamedAt implements PolicyReference {
  readonly cluster: string;
  readonly namespace: string;
  readonly name: string;
  readonly #source: ResolvedDocument['source'];
  readonly #section: Section;
  readonly #key: string;
  readonly #column: number;
  readonly #item: number | undefined;

  constructor(site: Site, name: string, section: Section, key: string, column: number, item: number | undefined) {
    this.cluster = site.cluster;
    this.namespace = site.namespace;
    this.name = name;
    this.#source = site.source;
    this.#section = section;
    this.#key = key;
    this.#column = column;
    this.#item = item;
  }

  pos(): SourcePos {
    const value: ValuePath = this.#section === 'config' ? ['config', this.#key] : [this.#section, this.#key, 'policies'];
    const where = this.#item === undefined ? value : [...value, this.#item];
    return this.#source.textPos(where, 1, this.#column) ?? this.#source.pos(where);
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
