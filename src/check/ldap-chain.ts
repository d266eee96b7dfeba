/**
 * What `check` says of the certificate chain an LDAP server presents: the conditions `validate`
 * judges in manifests (core/certificates.ts) for each certificate, and whether the chain is
 * trusted by the configured `certificate`. A SHA-1 signature, a validity period over or not yet
 * begun, or a chain not trusted fail, as they fail the service's logins; with insecure_tls the
 * service verifies nothing, so they are warnings. Ending within 30 days is a warning.
 */
import { certificateName, certificateProblems, describeCertificateProblem, type CertificateProblem } from '../core/certificates.js';
import type { PresentedChain } from '../adapters/ldap/index.js';

export interface ChainFinding {
  ok: boolean;
  /** Passes, but needs someone's attention (a certificate ending soon). */
  warning?: true;
  message: string;
}

export function chainFindings(chain: PresentedChain, opts: { certificateConfigured: boolean; insecureTls: boolean; now: Date }): ChainFinding[] {
  const findings: ChainFinding[] = [];
  const unverified = '; insecure_tls is set, so the service does not verify it';
  const failing = (message: string): ChainFinding =>
    opts.insecureTls ? { ok: true, warning: true, message: message + unverified } : { ok: false, message };
  chain.certificates.forEach((certificate, i) => {
    const which = `presented certificate ${i + 1} of ${chain.certificates.length} (${certificateName(certificate)})`;
    for (const problem of certificateProblems(certificate, opts.now)) {
      const message = `${which} ${describeCertificateProblem(problem)}`;
      findings.push(breaksLogins(problem) ? failing(message) : { ok: true, warning: true, message });
    }
  });
  const names = chain.certificates.map(certificateName).join(' <- ');
  if (findings.length === 0) findings.push({ ok: true, message: `presented chain ${names}: no SHA-1 signature, each valid for more than 30 days` });
  const by = opts.certificateConfigured ? 'the configured certificate' : 'the default root certificates (no certificate is configured)';
  findings.push(chain.trusted ? { ok: true, message: `presented chain is trusted by ${by}` } : failing(`presented chain is not trusted by ${by}: ${chain.distrust ?? 'no reason given'}`));
  return findings;
}

function breaksLogins(problem: CertificateProblem): boolean {
  switch (problem.kind) {
    case 'sha1-signature':
    case 'expired':
    case 'not-yet-valid':
    case 'unreadable':
      return true;
    case 'expiring':
      return false;
  }
}
