import { Address } from './address.js';
import { apiPathProblem } from './path-segment.js';

/**
 * Namespaces in addresses. An address is namespace first (`team-a/apps/sys/...`), and the
 * namespace ends at the first `sys` or `auth` segment: the service reserves those (and a few
 * more) as namespace names, so no namespace segment is ever one of them. A namespace itself is
 * the object `<parent>/sys/namespaces/<last segment>`: the service creates a nested namespace
 * inside its parent (OpenBao refuses a name with "/" in sys/namespaces: helper/namespace/
 * namespace.go ParseName).
 */

/** The resource type of a namespace (kinds/namespace; Change.resourceType): what writes inside it wait for. */
export const NAMESPACE_RESOURCE_TYPE = 'namespace';

/**
 * Segment names the service refuses for a namespace (OpenBao helper/namespace/namespace.go
 * reservedNames; Vault's namespace documentation names the same).
 */
const RESERVED = new Set(['root', 'sys', 'audit', 'auth', 'cubbyhole', 'identity']);

/**
 * Why `text` cannot name a namespace (a path of one or more segments), or undefined. Each
 * segment must be addressable (core/path-segment), not reserved, without spaces, characters
 * that are not graphic, or the wildcards `+` and `*` (OpenBao Namespace.Validate).
 */
export function namespacePathProblem(text: string): string | undefined {
  const problem = apiPathProblem(text);
  if (problem) return problem;
  for (const segment of text.split('/')) {
    if (RESERVED.has(segment)) return `segment "${segment}" is reserved by the service and cannot name a namespace`;
    if (/[+*]/.test(segment)) return `segment "${segment}" must not contain the wildcards "+" or "*"`;
    if (/[^\p{L}\p{M}\p{N}\p{P}\p{S}]/u.test(segment)) return `segment "${segment}" must not contain characters that are not graphic`;
  }
  return undefined;
}

/** '' for the root namespace; else the namespace without its last segment. */
export function parentNamespace(namespace: string): string {
  const at = namespace.lastIndexOf('/');
  return at === -1 ? '' : namespace.slice(0, at);
}

function segmentsOf(namespace: string): string[] {
  return namespace === '' ? [] : namespace.split('/');
}

/** `<cluster>:<parent/>sys/namespaces`: the child namespaces of `parent` ('' for the root). */
export function namespaceCollection(cluster: string, parent: string): Address {
  return new Address(cluster, [...segmentsOf(parent), 'sys', 'namespaces']);
}

/** `<cluster>:<parent/>sys/namespaces/<last>`: the namespace `namespace` (not the root) as an object. */
export function namespaceAddress(cluster: string, namespace: string): Address {
  const segments = segmentsOf(namespace);
  if (segments.length === 0) throw new Error(`${cluster}: the root namespace is not an object`);
  return namespaceCollection(cluster, parentNamespace(namespace)).child(segments.at(-1)!);
}

/** The namespace an address lies in ('' for the root): its segments before the first `sys` or `auth`. */
export function namespaceOf(address: Address): string {
  const at = address.segments.findIndex((s) => s === 'sys' || s === 'auth');
  return at <= 0 ? '' : address.segments.slice(0, at).join('/');
}

/**
 * The namespace a namespace object's address stands for (inverse of namespaceAddress), or
 * undefined when the address is not `<parent/>sys/namespaces/<name>`.
 */
export function namespaceAtAddress(address: Address): string | undefined {
  const parent = namespaceOf(address);
  const rest = address.segments.slice(parent === '' ? 0 : parent.split('/').length);
  if (rest.length !== 3 || rest[0] !== 'sys' || rest[1] !== 'namespaces') return undefined;
  return parent === '' ? rest[2]! : `${parent}/${rest[2]!}`;
}
