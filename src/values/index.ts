/**
 * The value forms the service's fields accept, read as the service reads them. A leaf: both the
 * reconciler (kinds, check, validate, commands) and the emulator (server) import it, so a
 * manifest value and the emulator's reading of the same request cannot disagree.
 */
export { readBool, boolOf } from './bool.js';
export { formatBytes, formatBytesExact, parseBytes, parseBytesDetailed } from './bytes.js';
export { addressAllowed, cidrText, normaliseAddress, readCidr } from './cidr.js';
export { durationSeconds, formatDurationExact, formatGoDuration, formatSeconds, readDuration, readDurationNanos } from './duration.js';
export { countOf, integerOf, readInteger } from './integer.js';
export { commaListOf, compareBytes, goTrimSpace, readCommaList } from './list.js';
export { goToLower } from './lower.js';
export { JsonNumber, numberLiteral, valueOf, type Read } from './read.js';
export { readKvPairs } from './kv-pairs.js';
export { compareReleases, readRelease, releaseNumber, type Release } from './release.js';
export { decodesAsGoBase64 } from './go-base64.js';
export { firstNonPrintable, hasNonPrintable } from './printable.js';
