import type { Diagnostics } from '../../core/diagnostics.js';
import { parseCertificates, parsePrivateKey } from '../../core/pem.js';
import { reportAt } from './report.js';
import { secretOrText } from './rules-consistency.js';
import type { LdapAuthDocument } from './types.js';

/**
 * certificate and client_tls_cert must be PEM certificates that parse; client_tls_key a PEM
 * private key that parses and belongs to client_tls_cert. No message quotes any of them.
 */
export function checkPem(doc: LdapAuthDocument, diags: Diagnostics): void {
  const config = doc.data.config;
  if (!config) return;
  const ca = secretOrText(config.certificate);
  if (ca !== '') {
    const parsed = parseCertificates(ca);
    if (!Array.isArray(parsed)) reportAt(diags, doc, ['config', 'certificate'], parsed.problem);
  }
  const certText = secretOrText(config.client_tls_cert);
  const cert = certText === '' ? undefined : parseCertificates(certText);
  if (cert && !Array.isArray(cert)) reportAt(diags, doc, ['config', 'client_tls_cert'], cert.problem);
  const keyText = secretOrText(config.client_tls_key);
  const key = keyText === '' ? undefined : parsePrivateKey(keyText);
  if (key && 'problem' in key) reportAt(diags, doc, ['config', 'client_tls_key'], key.problem);
  if (Array.isArray(cert) && key && !('problem' in key) && !cert[0]!.checkPrivateKey(key)) {
    reportAt(diags, doc, ['config', 'client_tls_key'], 'does not belong to client_tls_cert (their public keys differ)');
  }
}
