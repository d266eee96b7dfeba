/**
 * Root key shares are accepted hex or base64 (the service takes both). The text is only
 * trimmed, never re-encoded: what the operator saved is what the server receives.
 */
const HEX = /^(?:[0-9a-fA-F]{2})+$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}(?:==)?|[A-Za-z0-9+/]{3}=?)?$/;

export type ShareEncoding = 'hex' | 'base64';

/** The encoding of a share's text, or undefined when it is neither (never echoes the text). */
export function shareEncoding(text: string): ShareEncoding | undefined {
  const t = text.trim();
  if (t.length === 0) return undefined;
  if (HEX.test(t)) return 'hex';
  return BASE64.test(t) ? 'base64' : undefined;
}

/** The share as sent in `generate-operation-token/update` (`key`). */
export function normaliseShare(text: string): string {
  return text.trim();
}
