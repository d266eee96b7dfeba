/**
 * Go's unicode.IsPrint, which the service's HTTP layer applies to every rune of the decoded
 * request path before routing (hashicorp/go-cleanhttp handlers.go, PrintablePathCheckHandler,
 * wrapped around the API handler in vault/http/handler.go: a 400 with no body). IsPrint is false
 * for controls, format characters (U+202E, the right-to-left override, among them), private use,
 * unassigned code points and separators other than " " (U+0020). The emulator refuses such a path as the service does; the reconciler refuses such a
 * name before any request, and leaves one a server lists alone.
 *
 * Not surrogates: the emulator holds a path's bytes that are not UTF-8 as lone surrogates (Go's
 * range over a string reads each as U+FFFD, which is printable); the reconciler refuses them on
 * its own grounds (core/path-segment.ts).
 */
const NON_PRINTABLE_CLASSES = '[\\p{Cc}\\p{Cf}\\p{Co}\\p{Cn}\\p{Zl}\\p{Zp}]|(?! )\\p{Zs}';
const NON_PRINTABLE = new RegExp(NON_PRINTABLE_CLASSES, 'u');

/**
 * The pattern (flag `u`) of what lockstep shows escaped wherever it prints text it did not write
 * (core/text-escape.ts printable): the characters above, and halves of surrogate pairs standing alone. One list, so
 * that every character a name may not hold is also one a message shows escaped.
 */
export const NOT_SHOWN_AS_IS = `${NON_PRINTABLE_CLASSES}|\\p{Cs}`;

/** True when `text` holds a character Go's unicode.IsPrint refuses. */
export function hasNonPrintable(text: string): boolean {
  return NON_PRINTABLE.test(text);
}

/** The first character of `text` Go's unicode.IsPrint refuses, as `U+00A0`; undefined when none. */
export function firstNonPrintable(text: string): string | undefined {
  const found = NON_PRINTABLE.exec(text)?.[0];
  return found === undefined ? undefined : `U+${found.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}
