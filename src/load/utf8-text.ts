/** Where the first byte that is not UTF-8 sits: 1-based line and column (UTF-16 units, as the parsers count). */
export interface BadByte {
  byte: number;
  line: number;
  column: number;
}

const REPLACEMENT = '\uFFFD';
// A byte order mark stays in the text, as the parsers expect (and positions count it).
const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lenient = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

/**
 * A manifest's bytes as text, or where they stop being UTF-8. Decoding with replacement would
 * turn every bad byte into U+FFFD silently: a name or value other than the one in the file.
 */
export function decodeUtf8(bytes: Uint8Array): { text: string } | { badByte: BadByte } {
  try {
    return { text: strict.decode(bytes) };
  } catch {
    return { badByte: firstBadByte(bytes) };
  }
}

/**
 * The replacing decoder's text up to its first U+FFFD that the file did not spell as EF BF BD:
 * everything before it decoded exactly, so its UTF-8 length is the bad byte's offset.
 */
function firstBadByte(bytes: Uint8Array): BadByte {
  const text = lenient.decode(bytes);
  for (let at = text.indexOf(REPLACEMENT); at !== -1; at = text.indexOf(REPLACEMENT, at + 1)) {
    const before = text.slice(0, at);
    const offset = Buffer.byteLength(before, 'utf8');
    if (bytes[offset] === 0xef && bytes[offset + 1] === 0xbf && bytes[offset + 2] === 0xbd) continue;
    const lineStart = before.lastIndexOf('\n') + 1;
    return { byte: bytes[offset] ?? 0, line: countLineFeeds(before) + 1, column: at - lineStart + 1 };
  }
  // Unreachable while the strict decoder and the replacing one agree on what is UTF-8.
  return { byte: 0, line: 1, column: 1 };
}

function countLineFeeds(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}
