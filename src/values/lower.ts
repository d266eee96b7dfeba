/**
 * Go's strings.ToLower, which the service applies to names and policies: each code point by
 * its simple lower-case mapping (unicode.ToLower), with no context. JavaScript's toLowerCase
 * differs in two ways that matter: it applies Final_Sigma ("ΑΣ" → "ας", Go: "ασ") and maps
 * "İ" to two code points (Go: "i"). Bytes that are not UTF-8 (held as lone surrogates, see
 * server/http/request-path.ts) come out as U+FFFD, as strings.Map writes them.
 */
export function goToLower(text: string): string {
  // strings.ToLower's ASCII-only path: no byte changes but A-Z.
  // eslint-disable-next-line no-control-regex
  if (/^[\u0000-\u007f]*$/.test(text)) return text.toLowerCase();
  let out = '';
  for (const ch of text) {
    if (/\p{Cs}/u.test(ch)) {
      out += '\uFFFD';
      continue;
    }
    const lower = ch.toLowerCase();
    // Only U+0130 lower-cases to more than one code point; its simple mapping is "i".
    out += [...lower].length === 1 ? lower : (SIMPLE_LOWER[ch] ?? ch);
  }
  return out;
}

const SIMPLE_LOWER: Readonly<Record<string, string>> = { '\u0130': 'i' };
