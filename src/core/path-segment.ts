/**
 * What the service can address. Every name that becomes part of a request path (a group, user,
 * key or policy name, each segment of a mount or namespace) passes through here: manifests are
 * refused with the reason, names read from a server are shown and left alone, and the client
 * refuses to send a path with such a segment (a last line of defence).
 *
 * Why these: the service's HTTP layer decodes the path before routing (a `%2F` becomes `/`, so a
 * name with `/` names another object) and cleans `.`/`..`/empty segments (Go's path.Clean in
 * net/http's ServeMux, used by `http/handler.go`), so such a name reaches a different object than
 * the one the plan shows. Control characters are refused by Go's URL parser before routing.
 */
export function segmentProblem(name: string): string | undefined {
  if (name === '') return 'must not be empty';
  if (name === '.' || name === '..') return 'cannot be addressed (the service resolves it as a relative path)';
  if (name.includes('/')) return 'must not contain "/" (it would address another object)';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) return 'must not contain control characters';
  return undefined;
}

/** A name as one percent-encoded path segment: the only encoder of request paths. */
export function encodeSegment(name: string): string {
  return encodeURIComponent(name);
}

/**
 * Why `text` cannot be a relative API path of several segments (a namespace or a mount), or
 * undefined when it can. Such paths become address segments, so each segment must be addressable.
 */
export function apiPathProblem(text: string): string | undefined {
  if (text === '') return 'must not be empty';
  if (text.startsWith('/') || text.endsWith('/')) return 'must not start or end with "/"';
  if (text.includes('//')) return 'must not contain empty segments ("//")';
  if (/\s/.test(text)) return 'must not contain spaces';
  for (const segment of text.split('/')) {
    const problem = segmentProblem(segment);
    if (problem) return `segment "${segment}" ${problem}`;
  }
  return undefined;
}
