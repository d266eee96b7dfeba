/**
 * What makes a certificate unusable or about to be: a SHA-1 signature (the spec, Versioning 3:
 * unusable from service version 1.12 on, as Go's crypto/x509 refuses it since Go 1.18), a
 * validity period that is over or not yet begun, or one that ends within 30 days. Shared by
 * `validate` (certificates in manifests) and `check` (chains LDAP servers present). The ASN.1
 * library costs a noticeable part of start-up: import this module only where a certificate is.
 */
import type { X509Certificate } from 'node:crypto';
import { AsnConvert } from '@peculiar/asn1-schema';
import { Certificate } from '@peculiar/asn1-x509';
import { id_RSASSA_PSS, id_sha1, id_sha1WithRSAEncryption, RsaSaPssParams } from '@peculiar/asn1-rsa';

export type CertificateProblem =
  | { kind: 'sha1-signature'; algorithm: string }
  | { kind: 'expired'; notAfter: Date }
  | { kind: 'not-yet-valid'; notBefore: Date }
  | { kind: 'expiring'; notAfter: Date; days: number }
  /** The DER parsed for Node but not for the ASN.1 schema: nothing else can be said of it. */
  | { kind: 'unreadable' };

/** A certificate ending within this many days is a warning. */
const EXPIRY_WARNING_DAYS = 30;

const DAY_MS = 86_400_000;

/** Signature algorithms that hash with SHA-1, by OID (RSASSA-PSS is told by its parameters). */
const SHA1_SIGNATURES: ReadonlyMap<string, string> = new Map([
  [id_sha1WithRSAEncryption, 'sha1WithRSAEncryption'],
  ['1.3.14.3.2.29', 'sha1WithRSASignature'],
  ['1.2.840.10045.4.1', 'ecdsa-with-SHA1'],
  ['1.2.840.10040.4.3', 'dsa-with-sha1'],
  ['1.3.14.3.2.27', 'dsaWithSHA1'],
]);

/** The problems of `cert` at `now`, SHA-1 first; none for a sound certificate. */
export function certificateProblems(cert: X509Certificate, now: Date): CertificateProblem[] {
  let parsed: Certificate;
  try {
    parsed = AsnConvert.parse(cert.raw, Certificate);
  } catch {
    return [{ kind: 'unreadable' }];
  }
  const problems: CertificateProblem[] = [];
  const sha1 = sha1SignatureName(parsed);
  if (sha1 !== undefined) problems.push({ kind: 'sha1-signature', algorithm: sha1 });
  const { notBefore, notAfter } = parsed.tbsCertificate.validity;
  const from = notBefore.getTime();
  const until = notAfter.getTime();
  if (until.getTime() < now.getTime()) problems.push({ kind: 'expired', notAfter: until });
  else if (from.getTime() > now.getTime()) problems.push({ kind: 'not-yet-valid', notBefore: from });
  else if (until.getTime() - now.getTime() <= EXPIRY_WARNING_DAYS * DAY_MS) {
    problems.push({ kind: 'expiring', notAfter: until, days: Math.floor((until.getTime() - now.getTime()) / DAY_MS) });
  }
  return problems;
}

/** Whether any certificate of a PEM text is signed with SHA-1 (what export acknowledges). */
export function anySignedWithSha1(certificates: readonly X509Certificate[]): boolean {
  return certificates.some((cert) => certificateProblems(cert, new Date(0)).some((p) => p.kind === 'sha1-signature'));
}

/** The name of the signature algorithm when it hashes with SHA-1. */
function sha1SignatureName(cert: Certificate): string | undefined {
  const { algorithm, parameters } = cert.signatureAlgorithm;
  const named = SHA1_SIGNATURES.get(algorithm);
  if (named !== undefined) return named;
  if (algorithm !== id_RSASSA_PSS) return undefined;
  // RSASSA-PSS names its hash in its parameters, SHA-1 when they leave it out (RFC 4055).
  let hash = id_sha1;
  try {
    if (parameters) hash = AsnConvert.parse(parameters, RsaSaPssParams).hashAlgorithm.algorithm;
  } catch {
    return undefined;
  }
  return hash === id_sha1 ? 'RSASSA-PSS with SHA-1' : undefined;
}

/** One problem in words (after the certificate's name). */
export function describeCertificateProblem(problem: CertificateProblem): string {
  switch (problem.kind) {
    case 'sha1-signature':
      return `is signed with SHA-1 (${problem.algorithm}): the service refuses SHA-1 certificates from 1.12 on`;
    case 'expired':
      return `expired on ${isoSeconds(problem.notAfter)}`;
    case 'not-yet-valid':
      return `is not valid before ${isoSeconds(problem.notBefore)}`;
    case 'expiring':
      return `expires in ${problem.days} day${problem.days === 1 ? '' : 's'} (${isoSeconds(problem.notAfter)})`;
    case 'unreadable':
      return 'cannot be read as an X.509 certificate (its signature algorithm and validity are unknown)';
  }
}

/** The certificate's subject on one line, e.g. `CN=ldap.example.com, O=Example`. */
export function certificateName(cert: X509Certificate): string {
  return cert.subject.split('\n').filter((part) => part !== '').join(', ') || `serial ${cert.serialNumber}`;
}

function isoSeconds(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
