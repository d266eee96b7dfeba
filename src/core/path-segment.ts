import { firstNonPrintable } from '../values/index.js';

/**
 * What the service can address. Every name that becomes part of a request path (a group, user,
 * key or policy name, each segment of a mount or namespace) passes through here: manifests are
 * refused with the reason, names read from a server are shown and left alone, and the client
 * refuses to send a path with such a segment (a last line of defence).
 *
 * Why these: the service's HTTP layer decodes the path before routing (a `%2F` becomes `/`, so a
 * name with `/` names another object) and cleans `.`/`..`/empty segments (Go's path.Clean in
 * net/http's ServeMux, used by `http/handler.go`), so such a name reaches a different object than
 * the one the plan shows. Control characters are refused by Go's URL parser before routing, and
 * every other character Go's unicode.IsPrint refuses by the service's printable-path check
 * (values/printable.ts, the emulator's test too).
 *
 * A name must also be the exact text the server holds. The service's names are bytes, and its
 * JSON encoder (Go's encoding/json) writes each byte that is not UTF-8 as `\ufffd`; another
 * server may send a lone surrogate (`\ud800`), which has no UTF-8 form at all. Either way the
 * bytes of the name are lost: sending the text back would address another object (or none), so
 * a name holding U+FFFD or a lone surrogate is never addressed, and never declared.
 */
export function segmentProblem(name: string): string | undefined {
  // Nearly every name is plain: one test, then only the two names made of dots stay to refuse.
  if (PLAIN_SEGMENT.test(name)) return name === '.' || name === '..' ? RELATIVE : undefined;
  if (name === '') return 'must not be empty';
  if (name.includes('/')) return 'must not contain "/" (it would address another object)';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) return 'must not contain control characters';
  // C1 controls, format characters (U+202E), separators but " ": the service answers 400.
  const refused = firstNonPrintable(name);
  if (refused) return `must not contain ${refused} (the service refuses controls, format characters and separators other than " " in a request path)`;
  if (!isExactText(name)) return 'holds U+FFFD or a lone surrogate: text that stands for bytes the server could not send, so it cannot be addressed';
  return undefined;
}

/** Unreserved characters only (RFC 3986): no slash, no control character, nothing to encode. */
const PLAIN_SEGMENT = /^[A-Za-z0-9_.~-]+$/;

/** A name that is addressable and its own encoding (nearly every name): one test, no copy. */
export function isPlainSegment(name: string): boolean {
  return PLAIN_SEGMENT.test(name) && name !== '.' && name !== '..';
}
const RELATIVE = 'cannot be addressed (the service resolves it as a relative path)';

/**
 * False for text that may not be what the server holds: the replacement character U+FFFD
 * (what a JSON encoder or a UTF-8 decoder writes for bytes that are not UTF-8) or a lone
 * surrogate (no UTF-8 form: percent-encoding it is impossible).
 */
function isExactText(text: string): boolean {
  return !/[\uFFFD\p{Cs}]/u.test(text);
}

/** A name as one percent-encoded path segment: the only encoder of request paths. */
export function encodeSegment(name: string): string {
  return encodeURIComponent(name);
}

/**
 * Why `text` cannot be a relative API path of several segments (a namespace), or undefined
 * when it can. Such paths become address segments, so each segment must be addressable.
 * (Mount paths have their own rules: core/mount-path.ts.)
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
