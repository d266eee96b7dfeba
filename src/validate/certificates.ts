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
 * `found`: every plain text of the placed documents that holds a certificate's BEGIN line, with
 * its path (noted as references are resolved: load/references.ts textsHolding; secrets are never
 * certificates). `acknowledgeable(kind)`: whether documents of that kind may list
 * SHA1_CERTIFICATE_RULE in `acknowledge` (the hint is only given where the schema takes it).
 */
export async function checkCertificates(
  found: ReadonlyArray<{ doc: ResolvedDocument; path: ValuePath; text: string }>,
  now: Date,
  acknowledgeable: (kind: string) => boolean,
  diags: Diagnostics,
): Promise<void> {
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
