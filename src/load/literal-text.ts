/**
 * How a manifest writes a literal `${` (contract, "Secret references"): as `$${`. A string that
 * is not one whole reference is read left to right, each `$${` giving `${`; any other `${` is an
 * error. escapeLiteral() is the exact inverse, so any text written by it reads back unchanged and
 * is never taken for a reference.
 */

/** `text` as a manifest writes it: every `${` doubled to `$${`. */
export function escapeLiteral(text: string): string {
  // A function, not '$${' as the replacement: in a replacement string `$$` stands for one `$`.
  return text.includes('${') ? text.replaceAll('${', () => '$${') : text;
}

/** The literal a manifest string stands for, or undefined when it holds a `${` not written `$${`. */
export function unescapeLiteral(written: string): string | undefined {
  if (!written.includes('${')) return written;
  let out = '';
  let i = 0;
  while (i < written.length) {
    if (written.startsWith('$${', i)) {
      out += '${';
      i += 3;
    } else if (written.startsWith('${', i)) {
      return undefined;
    } else {
      out += written[i];
      i += 1;
    }
  }
  return out;
}
