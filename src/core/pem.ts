import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';

/** The line that opens each certificate of a PEM text. */
export const CERTIFICATE_BEGIN = '-----BEGIN CERTIFICATE-----';

const CERTIFICATE_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g;

/** The certificates of a PEM text (one or a bundle), or why it is not one. */
export function parseCertificates(text: string): X509Certificate[] | { problem: string } {
  const blocks = text.match(CERTIFICATE_BLOCK) ?? [];
  if (blocks.length === 0) return { problem: 'must be an x509 certificate in PEM form (-----BEGIN CERTIFICATE-----)' };
  const certificates: X509Certificate[] = [];
  for (const [i, block] of blocks.entries()) {
    try {
      certificates.push(new X509Certificate(block));
    } catch {
      const which = blocks.length > 1 ? `certificate ${i + 1} of ${blocks.length}` : 'the certificate';
      return { problem: `${which} is not a valid x509 PEM certificate` };
    }
  }
  return certificates;
}

/**
 * The private key of a PEM text, or a problem. The parser's own message is never passed on:
 * it could quote part of the key.
 */
export function parsePrivateKey(text: string): KeyObject | { problem: string } {
  try {
    return createPrivateKey({ key: text, format: 'pem' });
  } catch {
    return { problem: 'is not a valid PEM private key' };
  }
}
