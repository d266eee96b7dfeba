import { NOT_SHOWN_AS_IS } from '../values/printable.js';
/**
 * Escapes used where lockstep prints free text into HTML or Markdown (the pull-request
 * comment). Kept here, not in render/, because redaction must know every form a secret can be
 * printed in (see redaction.ts).
 */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function escapeMarkdown(text: string): string {
  return text.replace(/([\\`*_<>|[\]])/g, '\\$1');
}

/**
 * What printable() escapes: every character Go's unicode.IsPrint refuses (values/printable.ts,
 * the list the names' rule refuses too): controls (C0 with line feed and tab, DEL, C1), format
 * characters (the bidirectional controls that reorder what follows, "Trojan Source"; zero-width
 * characters; the byte order mark; the soft hyphen; tag characters), private use, unassigned
 * code points, separators other than " " (the line and paragraph separators, a no-break space),
 * and halves of surrogate pairs alone (no terminal can show them; the name is not the one read).
 */
const UNPRINTABLE = new RegExp(NOT_SHOWN_AS_IS, 'gu');
// The same without `g`: test() then keeps no state between calls.
const HAS_UNPRINTABLE = new RegExp(NOT_SHOWN_AS_IS, 'u');
const SHORT_ESCAPES: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * The one printer of untrusted text (a manifest's or a server's): every diagnostic, warning,
 * error and rendered field that quotes it passes here, so that text is always one line of
 * visible characters. It can then neither move the cursor or recolour a terminal (ANSI
 * escapes), nor start a line of its own in a log (a forged `::error::` or `::add-mask::` line
 * in CI, a forged diagnostic), nor reorder what is printed after it. Line breaks show as `\n`,
 * `\r` and tabs as `\r`, `\t`, anything else as `\uXXXX`.
 */
export function printable(text: string): string {
  // Tested first: nearly every text has none, and then no new string is made.
  if (!HAS_UNPRINTABLE.test(text)) return text;
  return text.replace(UNPRINTABLE, (c) => SHORT_ESCAPES[c] ?? unitEscapes(c));
}

/**
 * An address (`cluster:path`) as printed: printable(), and a space at either end of a segment
 * shown as `\u0020`. The service keeps such spaces in a path (`users/bob ` is not `users/bob`),
 * and at the end of a line or before a slash a reviewer cannot see them.
 */
export function printableAddress(text: string): string {
  const shown = printable(text);
  if (!shown.includes(' ')) return shown;
  const colon = shown.indexOf(':');
  const path = shown.slice(colon + 1).split('/').map((segment) => segment.replace(/^ +| +$/g, (spaces) => '\\u0020'.repeat(spaces.length)));
  return `${shown.slice(0, colon + 1)}${path.join('/')}`;
}

/** `\\uXXXX` for each UTF-16 unit (a character beyond U+FFFF is two), as JSON writes them: a value shown so reads back the same. */
function unitEscapes(c: string): string {
  let out = '';
  for (let i = 0; i < c.length; i++) out += `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`;
  return out;
}

/** A markdown inline code span holding `text` (printable), delimited by more backticks than any run in it. */
export function markdownCode(text: string): string {
  const t = printable(text);
  const ticks = '`'.repeat(longestBacktickRun(t) + 1);
  // A space inside each end when the text starts or ends with a backtick (or a space, which
  // markdown would otherwise strip), so the delimiters stay what they are.
  const pad = /^[` ]|[` ]$/.test(t) ? ' ' : '';
  return `${ticks}${pad}${t}${pad}${ticks}`;
}

/** A markdown code fence (the opening line's backticks) longer than any backtick run in `content`, and never under three. */
export function markdownFence(content: string): string {
  return '`'.repeat(Math.max(3, longestBacktickRun(content) + 1));
}

function longestBacktickRun(text: string): number {
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  return longest;
}
