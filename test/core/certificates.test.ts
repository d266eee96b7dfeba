import { X509Certificate } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { certificateName, certificateProblems, describeCertificateProblem } from '../../src/core/certificates.js';
import { DAY_MS, makeCertificate, validFor, type Digest, type KeyType } from '../support/certificates.js';

const NOW = new Date('2031-03-01T12:00:00Z');

async function problemsOf(spec: { digest?: Digest; keyType?: KeyType; notBefore?: Date; notAfter?: Date }, now = NOW) {
  const made = await makeCertificate({ subject: 'CN=made, O=lockstep tests', ...validFor(NOW, 365), ...spec });
  return certificateProblems(new X509Certificate(made.pem), now);
}

describe('certificateProblems: the signature algorithm, read from the DER', () => {
  test.each<[KeyType, Digest, string | undefined]>([
    ['rsa', 'SHA-1', 'sha1WithRSAEncryption'],
    ['ecdsa', 'SHA-1', 'ecdsa-with-SHA1'],
    ['rsa-pss', 'SHA-1', 'RSASSA-PSS with SHA-1'],
    ['rsa', 'SHA-256', undefined],
    ['ecdsa', 'SHA-256', undefined],
    ['rsa-pss', 'SHA-256', undefined],
  ])('%s signed with %s', async (keyType, digest, sha1Name) => {
    const problems = await problemsOf({ keyType, digest });
    expect(problems).toEqual(sha1Name ? [{ kind: 'sha1-signature', algorithm: sha1Name }] : []);
  });

  test('a SHA-256 certificate issued by a SHA-1 self-signed CA: only the CA is SHA-1', async () => {
    const ca = await makeCertificate({ subject: 'CN=old CA', digest: 'SHA-1', ca: true, ...validFor(NOW, 365) });
    const leaf = await makeCertificate({ subject: 'CN=leaf', issuer: ca, digest: 'SHA-256', ...validFor(NOW, 365) });
    expect(certificateProblems(new X509Certificate(ca.pem), NOW).map((p) => p.kind)).toEqual(['sha1-signature']);
    expect(certificateProblems(new X509Certificate(leaf.pem), NOW)).toEqual([]);
  });
});

describe('certificateProblems: the validity period at the injected clock', () => {
  test('expired, not yet valid, ending within 30 days, ending later', async () => {
    const expired = new Date(NOW.getTime() - 5 * DAY_MS);
    expect(await problemsOf({ notBefore: new Date(NOW.getTime() - 50 * DAY_MS), notAfter: expired })).toEqual([{ kind: 'expired', notAfter: expired }]);
    const future = new Date(NOW.getTime() + 3 * DAY_MS);
    expect(await problemsOf({ notBefore: future, notAfter: new Date(NOW.getTime() + 300 * DAY_MS) })).toEqual([{ kind: 'not-yet-valid', notBefore: future }]);
    const soon = new Date(NOW.getTime() + 10 * DAY_MS);
    expect(await problemsOf({ notAfter: soon })).toEqual([{ kind: 'expiring', notAfter: soon, days: 10 }]);
    expect(await problemsOf({ notAfter: new Date(NOW.getTime() + 31 * DAY_MS) })).toEqual([]);
  });

  test('the bounds: 30 days left is a warning, a second more is not; the last valid second is not expired', async () => {
    const notAfter = new Date(NOW.getTime() + 30 * DAY_MS);
    const made = new X509Certificate((await makeCertificate({ subject: 'CN=edge', notBefore: new Date(NOW.getTime() - DAY_MS), notAfter })).pem);
    expect(certificateProblems(made, NOW)).toEqual([{ kind: 'expiring', notAfter, days: 30 }]);
    expect(certificateProblems(made, new Date(NOW.getTime() - 1000))).toEqual([]);
    expect(certificateProblems(made, notAfter)).toEqual([{ kind: 'expiring', notAfter, days: 0 }]);
    expect(certificateProblems(made, new Date(notAfter.getTime() + 1000))).toEqual([{ kind: 'expired', notAfter }]);
  });

  test('SHA-1 and expired together: both, SHA-1 first', async () => {
    const problems = await problemsOf({ digest: 'SHA-1', keyType: 'rsa' }, new Date(NOW.getTime() + 400 * DAY_MS));
    expect(problems.map((p) => p.kind)).toEqual(['sha1-signature', 'expired']);
  });
});

test('the words: subject on one line, dates to the second', async () => {
  const made = new X509Certificate((await makeCertificate({ subject: 'CN=ldap.example.com, O=Example', ...validFor(NOW, 1) })).pem);
  expect(certificateName(made)).toBe('CN=ldap.example.com, O=Example');
  const [expiring] = certificateProblems(made, NOW);
  expect(describeCertificateProblem(expiring!)).toBe('expires in 1 day (2031-03-02T12:00:00Z)');
  expect(describeCertificateProblem({ kind: 'sha1-signature', algorithm: 'sha1WithRSAEncryption' })).toBe(
    'is signed with SHA-1 (sha1WithRSAEncryption): the service refuses SHA-1 certificates from 1.12 on',
  );
});
