/**
 * Namespaces are a path prefix: `team-a/sys/managed-keys/...`, `a/b/sys/mounts`. The prefix is
 * every segment before the first `sys` or `auth` segment, which is why those (and the service's
 * other reserved names) cannot name a namespace. '' is the root namespace.
 */

export interface NamespacedPath {
  /** '' for the root namespace; `a/b` for a nested one. */
  namespace: string;
  /** The path inside the namespace: `sys/...` or `auth/...`. */
  rest: string;
}

const ROUTE_ROOTS = new Set(['sys', 'auth']);
const RESERVED = new Set(['root', 'sys', 'auth', 'audit', 'cubbyhole', 'identity']);
const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

/**
 * Splits a request path (after /v1/, no surrounding slashes). A path with no `sys`/`auth`
 * segment belongs to the root namespace (it reaches no route anyway). Undefined: the prefix is
 * not a valid namespace name.
 */
export function splitNamespace(path: string): NamespacedPath | undefined {
  const segments = path.split('/');
  const at = segments.findIndex((s) => ROUTE_ROOTS.has(s));
  if (at <= 0) return { namespace: '', rest: path };
  const prefix = segments.slice(0, at);
  if (!prefix.every(isNamespaceSegment)) return undefined;
  return { namespace: prefix.join('/'), rest: segments.slice(at).join('/') };
}

export function isNamespaceSegment(segment: string): boolean {
  return SEGMENT.test(segment) && !RESERVED.has(segment);
}
