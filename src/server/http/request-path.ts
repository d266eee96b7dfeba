import { isNamespaceSegment } from '../namespaces/path.js';

/**
 * The one path a request is decided on. Routing, the token check, the DR gate and fault rules
 * all read `path`, computed once per request here, so no two of them can disagree about which
 * object a request addresses (a namespace header once steered routing past the DR gate).
 *
 * How the service builds it (hashicorp/vault http/handler.go, http/logical.go):
 * - Go's ServeMux answers a path with `.`, `..` or empty segments with a 301 to its cleaned form;
 * - the path is percent-decoded once (an invalid escape is a 400 from Go's URL parser), and
 *   cleanhttp.PrintablePathCheckHandler answers 400 to non-printable characters;
 * - the namespace is the `X-Vault-Namespace` header's, and a path prefix is relative to it.
 * Where the service would take a decoded `.`/`..`/empty segment (from `%2e`, `%2F`) as a
 * literal name, the emulator refuses it: no route takes such a name.
 */
export type RequestTarget =
  /**
   * `path`: after /v1/, decoded, the header's namespace in front, no surrounding slashes;
   * `urlPath`: the URL's own path, each segment decoded, as the service's ServeMux matches its
   * handlers against it (Go 1.22+ patterns match unescaped segments).
   */
  | { kind: 'path'; path: string; urlPath: string; query: URLSearchParams }
  /** 301 to the cleaned path (what ServeMux does). */
  | { kind: 'redirect'; location: string }
  | { kind: 'refused'; status: number; errors: string[] };

export const NAMESPACE_HEADER = 'x-vault-namespace';

export function requestTarget(url: string, namespaceHeader: string | string[] | undefined): RequestTarget {
  const q = url.indexOf('?');
  const rawPath = q === -1 ? url : url.slice(0, q);
  const rawQuery = q === -1 ? '' : url.slice(q + 1);
  if (!rawPath.startsWith('/')) return refused(404);
  const cleaned = cleanPath(rawPath);
  if (cleaned !== rawPath) return { kind: 'redirect', location: q === -1 ? cleaned : `${cleaned}?${rawQuery}` };
  if (!rawPath.startsWith('/v1/')) return refused(404);

  let decoded: string;
  try {
    decoded = decodeURIComponent(rawPath.slice('/v1/'.length).replace(/\/$/, ''));
  } catch {
    return refused(400, 'invalid URL escape in the request path');
  }
  if (NON_PRINTABLE.test(decoded)) return refused(400, 'non-printable characters in the request path');
  if (decoded !== '' && decoded.split('/').some((s) => s === '' || s === '.' || s === '..')) {
    return refused(400, 'the request path has an empty, "." or ".." segment once decoded');
  }

  const namespace = headerNamespace(namespaceHeader);
  if (namespace === undefined) return refused(400, 'the X-Vault-Namespace header does not name a namespace');
  const path = namespace === '' ? decoded : decoded === '' ? namespace : `${namespace}/${decoded}`;
  const urlPath = rawPath.split('/').map((segment) => decodeURIComponent(segment)).join('/');
  return { kind: 'path', path, urlPath, query: new URLSearchParams(rawQuery) };
}

/**
 * The header's namespace ('' for the root), undefined when it cannot name one. Each segment must
 * be a namespace name, so that the header's namespace ends where the joined path's does.
 */
function headerNamespace(header: string | string[] | undefined): string | undefined {
  // Node joins repeated headers with ", ", which no namespace name contains.
  const value = (Array.isArray(header) ? header.join(', ') : header ?? '').replace(/^\/+|\/+$/g, '');
  if (value === '' || value === 'root') return '';
  return value.split('/').every(isNamespaceSegment) ? value : undefined;
}

/** Go's unicode.IsPrint is false for these: controls, format, unassigned, separators but " ". */
const NON_PRINTABLE = /[\p{C}\p{Zl}\p{Zp}]|(?! )\p{Zs}/u;

/**
 * Go's net/http cleanPath: the rooted path without `.`, `..` and empty segments, keeping a
 * trailing slash.
 */
function cleanPath(path: string): string {
  const kept: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') kept.pop();
    else kept.push(segment);
  }
  const cleaned = `/${kept.join('/')}`;
  return path.endsWith('/') && cleaned !== '/' ? `${cleaned}/` : cleaned;
}

function refused(status: number, error?: string): RequestTarget {
  return { kind: 'refused', status, errors: error === undefined ? [] : [error] };
}
