/**
 * Every PEM certificate of every document, whatever its kind or field (LDAP `certificate` and
 * `client_tls_cert`, a Cluster's `caCert`, any field added later): one signed with SHA-1 is an
 * error unless the document acknowledges it as `sha1-certificate`, one expired, not yet valid or
 * ending within 30 days a warning. Each certificate of a bundle is reported at its own
 * `-----BEGIN CERTIFICATE-----` line when the manifest holds the text (at the reference when a
 * reference brought it). Whether a certificate parses at all is its kind's rule. The judging
 * code (and its ASN.1 library) is loaded only when some document holds a certificate.
 */
import type { Diagnostics, Severity } from '../core/diagnostics.js';
import { SHA1_CERTIFICATE_RULE } from '../core/acknowledge-rules.js';
import type { CertificateProblem } from '../core/certificates.js';
import { CERTIFICATE_BEGIN, parseCertificates } from '../core/pem.js';
import type { ResolvedDocument, ValuePath } from '../load/document.js';
import { atPath } from '../load/value-path.js';

/**
 * `acknowledgeable(kind)`: whether documents of that kind may list SHA1_CERTIFICATE_RULE in
 * `acknowledge` (the hint is only given where the schema takes it).
 */
export async function checkCertificates(
  docs: Iterable<ResolvedDocument>,
  now: Date,
  acknowledgeable: (kind: string) => boolean,
  diags: Diagnostics,
): Promise<void> {
  const found = [...docs].flatMap((doc) => certificateTexts(doc.data).map((text) => ({ doc, ...text })));
  if (found.length === 0) return;
  const { certificateName, certificateProblems, describeCertificateProblem } = await import('../core/certificates.js');
  for (const { doc, path, text } of found) {
    const acknowledged = Array.isArray(doc.data['acknowledge']) && doc.data['acknowledge'].includes(SHA1_CERTIFICATE_RULE);
    const certificates = parseCertificates(text);
    if (!Array.isArray(certificates)) continue;
    certificates.forEach((certificate, i) => {
      const which = certificates.length > 1 ? `certificate ${i + 1} of ${certificates.length}` : 'the certificate';
      const pos = doc.source.needlePos(path, CERTIFICATE_BEGIN, i);
      for (const problem of certificateProblems(certificate, now)) {
        const { severity, advice } = verdict(problem, acknowledged, () => acknowledgeable(doc.kind));
        const message = `${which} (${certificateName(certificate)}) ${describeCertificateProblem(problem)}${advice}`;
        diags.add({ severity, origin: 'manifest', message: atPath(path, message), pos });
      }
    });
  }
}

function verdict(problem: CertificateProblem, acknowledged: boolean, acknowledgeable: () => boolean): { severity: Severity; advice: string } {
  switch (problem.kind) {
    case 'sha1-signature':
      if (acknowledged) return { severity: 'warning', advice: `; accepted: acknowledged as ${SHA1_CERTIFICATE_RULE}` };
      return {
        severity: 'error',
        advice: acknowledgeable()
          ? `: replace it with one signed with SHA-256 or better, or, to keep it, add ${SHA1_CERTIFICATE_RULE} to the document's acknowledge list`
          : ': replace it with one signed with SHA-256 or better',
      };
    case 'unreadable':
      return { severity: 'error', advice: '' };
    case 'expired':
    case 'not-yet-valid':
    case 'expiring':
      return { severity: 'warning', advice: '' };
  }
}

/**
 * Every plain string holding a PEM certificate, with its path (secrets are never certificates).
 * One path stack, copied only at a hit: a manifest of 10,000 users costs no array per value.
 */
function certificateTexts(root: unknown): Array<{ path: ValuePath; text: string }> {
  const found: Array<{ path: ValuePath; text: string }> = [];
  const path: Array<string | number> = [];
  const walk = (value: unknown): void => {
    if (typeof value === 'string') {
      if (value.length >= CERTIFICATE_BEGIN.length && value.includes(CERTIFICATE_BEGIN)) found.push({ path: [...path], text: value });
    } else if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        path.push(i);
        walk(value[i]);
        path.pop();
      }
    } else if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
      // Keys, not entries: no pair array per value of 10,000 users.
      const record = value as Record<string, unknown>;
      for (const key of Object.keys(record)) {
        path.push(key);
        walk(record[key]);
        path.pop();
      }
    }
  };
  walk(root);
  return found;
}
