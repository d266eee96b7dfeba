import { hasNonPrintable } from '../../values/index.js';
import { isNamespaceSegment } from '../namespaces/path.js';

/**
 * The one path a request is decided on. Routing, the token check, the DR gate and fault rules
 * all read `path`, computed once per request here, so no two of them can disagree about which
 * object a request addresses (a namespace header once steered routing past the DR gate).
 *
 * How the service builds it (hashicorp/vault http/handler.go, http/logical.go):
 * - wrapGenericHandler answers 404 to a path not under /v1/ (but /ui, /robots.txt, /);
 * - Go's ServeMux answers a path with `.`, `..` or empty segments with a 301 to its cleaned form;
 * - the path is percent-decoded once into bytes (an invalid escape is a 400 from Go's URL
 *   parser), bytes that are not UTF-8 included: a name is any bytes (decodePathBytes holds
 *   them), and cleanhttp.PrintablePathCheckHandler answers 400 to non-printable characters;
 * - the namespace is the `X-Vault-Namespace` header's, and a path prefix is relative to it.
 * Where the service would take a decoded `.`/`..`/empty segment (from `%2e`, `%2F`) as a
 * literal name, the emulator refuses it: no route takes such a name.
 */
export type RequestTarget =
  /**
   * `path`: after /v1/, decoded, the header's namespace in front, no leading slash; a trailing
   * slash is kept, as the service keeps it (http/logical.go builds the request path from
   * r.URL.Path): each route's pattern decides whether it takes one (http/router.ts);
   * `urlPath`: the URL's own path, each segment decoded, as the service's ServeMux matches its
   * handlers against it (Go 1.22+ patterns match unescaped segments).
   */
  | { kind: 'path'; path: string; urlPath: string; query: URLSearchParams }
  /** 301 to the cleaned path (what ServeMux does). */
  | { kind: 'redirect'; location: string }
  | { kind: 'refused'; status: number; errors: string[] }
  /** A status and no body: cleanhttp.PrintablePathCheckHandler only writes the header. */
  | { kind: 'refused-bare'; status: number }
  /**
   * A target Go's url.ParseRequestURI refuses: net/http's readRequest fails, and the server
   * answers `400 Bad Request` as plain text and closes the connection (net/http server.go),
   * before any of the service's handlers.
   */
  | { kind: 'unparsable' }
  /**
   * `OPTIONS *`: Go's serverHandler answers it itself (net/http server.go globalOptionsHandler),
   * 200 with `Content-Length: 0`, before any of the service's handlers.
   */
  | { kind: 'global-options' };

export function requestTarget(method: string, target: string, namespaceHeader: string | undefined): RequestTarget {
  if (target === '*' && method === 'OPTIONS') return { kind: 'global-options' };
  const url = originForm(target);
  if (url === undefined) return { kind: 'unparsable' };
  const q = url.indexOf('?');
  const rawPath = q === -1 ? url : url.slice(0, q);
  const rawQuery = q === -1 ? '' : url.slice(q + 1);
  if (!rawPath.startsWith('/')) return refused(404);
  // http/handler.go wrapGenericHandler, before the ServeMux cleans anything: a path not under
  // /v1/ is 404 (`//v1/sys/health`, `/x/../v1/...`), but the UI's, /robots.txt and /.
  if (!rawPath.startsWith('/v1/') && !rawPath.startsWith('/ui') && rawPath !== '/robots.txt' && rawPath !== '/') return refused(404);
  const cleaned = cleanPath(rawPath);
  if (cleaned !== rawPath) return { kind: 'redirect', location: q === -1 ? cleaned : `${cleaned}?${rawQuery}` };
  if (!rawPath.startsWith('/v1/')) return refused(404);

  const decoded = decodePathBytes(rawPath.slice('/v1/'.length));
  if (decoded === undefined) return refused(400, 'invalid URL escape in the request path');
  // hashicorp/go-cleanhttp handlers.go: `w.WriteHeader(input.ErrStatus)` (400), no body.
  if (hasNonPrintable(decoded)) return { kind: 'refused-bare', status: 400 };
  if (decoded !== '' && decoded.replace(/\/$/, '').split('/').some((s) => s === '' || s === '.' || s === '..')) {
    return refused(400, 'the request path has an empty, "." or ".." segment once decoded');
  }

  const namespace = headerNamespace(namespaceHeader);
  if (namespace === undefined) return refused(400, 'the X-Vault-Namespace header does not name a namespace');
  const path = namespace === '' ? decoded : decoded === '' ? namespace : `${namespace}/${decoded}`;
  // Decoded as `decoded` is (a byte that is not UTF-8 held, not thrown on); every escape is valid here.
  const urlPath = rawPath.split('/').map((segment) => decodePathBytes(segment) ?? segment).join('/');
  return { kind: 'path', path, urlPath, query: new URLSearchParams(rawQuery) };
}

/**
 * The request target as a path and query. A target in absolute form
 * (`GET http://host:8200/v1/sys/health HTTP/1.1`, RFC 9112 3.2.2) is the path and query of its
 * URL, as Go's net/http takes it (url.ParseRequestURI; the handlers read r.URL.Path). The
 * authority is checked as url.ParseRequestURI checks it (net/url parseAuthority, parseHost):
 * undefined when Go refuses it.
 */
function originForm(target: string): string | undefined {
  const absolute = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/([^/?#]*)/.exec(target);
  if (!absolute) return target;
  return validAuthority(absolute[1]!) ? target.slice(absolute[0].length) : undefined;
}

/**
 * Go's net/url parseAuthority: userinfo (up to the last `@`) of allowed characters and valid
 * escapes, then the host: `[...]` with an optional `:port` after the bracket, or a name whose
 * `:port`, if any, is digits. In the host (unescape in encodeHost mode) a `%` must start a valid
 * escape of a byte that is not ASCII (`%25` aside), and an ASCII character must be one
 * shouldEscape lets through.
 */
function validAuthority(authority: string): boolean {
  const at = authority.lastIndexOf('@');
  const userinfo = authority.slice(0, Math.max(at, 0));
  if (!/^[A-Za-z0-9\-._~!$&'()*+,;=:%@]*$/.test(userinfo) || !validEscapes(userinfo)) return false;
  const host = authority.slice(at + 1);
  if (host.startsWith('[')) {
    const close = host.lastIndexOf(']');
    if (close === -1 || !/^(?::\d*)?$/.test(host.slice(close + 1))) return false;
    return validHostText(host.slice(0, close + 1));
  }
  const colon = host.lastIndexOf(':');
  if (colon !== -1 && !/^:\d*$/.test(host.slice(colon))) return false;
  return validHostText(host);
}

function validHostText(host: string): boolean {
  return validEscapes(host) && !/%(?!25)[0-7]/.test(host) && /^(?:[A-Za-z0-9\-_.~!$&'()*+,;=:[\]<>"%]|[^\p{ASCII}])*$/u.test(host);
}

function validEscapes(text: string): boolean {
  return !/%(?![0-9A-Fa-f]{2})/.test(text);
}

/**
 * The header's namespace ('' for the root), undefined when it cannot name one. Each segment must
 * be a namespace name, so that the header's namespace ends where the joined path's does.
 */
function headerNamespace(header: string | undefined): string | undefined {
  const value = (header ?? '').replace(/^\/+|\/+$/g, '');
  if (value === '' || value === 'root') return '';
  return value.split('/').every(isNamespaceSegment) ? value : undefined;
}

/**
 * The path percent-decoded once into bytes, as Go's url.PathUnescape does (undefined for an
 * invalid escape), then read as UTF-8 where it is UTF-8. A byte that is not (a lone 0xFF, the
 * encoding of a surrogate, an overlong form) is held as the lone surrogate U+DC00 + byte, as
 * Python's "surrogateescape" does: the name keeps its exact bytes, no valid text can collide
 * with it, and the JSON writer (respond.ts) shows it as Go does, `\ufffd`.
 */
function decodePathBytes(raw: string): string | undefined {
  const bytes: number[] = [];
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c !== 0x25) {
      // A raw byte of the request line (Node hands them over as latin1 characters).
      bytes.push(c & 0xff);
      continue;
    }
    const hex = raw.slice(i + 1, i + 3);
    if (!/^[0-9A-Fa-f]{2}$/.test(hex)) return undefined;
    bytes.push(parseInt(hex, 16));
    i += 2;
  }
  return bytesToText(Uint8Array.from(bytes));
}

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

function bytesToText(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i]!;
    const length = lead < 0x80 ? 1 : lead >= 0xc2 && lead <= 0xdf ? 2 : lead >= 0xe0 && lead <= 0xef ? 3 : lead >= 0xf0 && lead <= 0xf4 ? 4 : 0;
    const sequence = length === 0 ? undefined : decodeStrict(bytes.subarray(i, i + length), length);
    if (sequence === undefined) {
      out += String.fromCharCode(0xdc00 + lead);
      i += 1;
    } else {
      out += sequence;
      i += length;
    }
  }
  return out;
}

function decodeStrict(sequence: Uint8Array, length: number): string | undefined {
  if (sequence.length < length) return undefined;
  try {
    return STRICT_UTF8.decode(sequence);
  } catch {
    return undefined;
  }
}

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
