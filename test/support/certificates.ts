/**
 * Certificates the tests make, with @peculiar/x509 over Node's WebCrypto: any signature hash
 * (SHA-1 included, which the openssl CLI makes only grudgingly), any validity period, self-signed
 * or issued by another. Never files fetched from anywhere.
 */
import 'reflect-metadata';
import { KeyObject, webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as Crypto);

export const DAY_MS = 86_400_000;

export type Digest = 'SHA-1' | 'SHA-256';
export type KeyType = 'ecdsa' | 'rsa' | 'rsa-pss';

export interface MadeCertificate {
  /** The certificate, PEM. */
  pem: string;
  /** Its private key, PKCS#8 PEM. */
  keyPem: string;
  subject: string;
  keys: webcrypto.CryptoKeyPair;
  keyType: KeyType;
}

export interface CertificateSpec {
  /** A distinguished name, e.g. `CN=test CA`. */
  subject: string;
  /** The hash its issuer signs it with. Default SHA-256. */
  digest?: Digest;
  /** The key type of the certificate and so, when self-signed, of its signature. Default ecdsa. */
  keyType?: KeyType;
  notBefore: Date;
  notAfter: Date;
  /** Signed by this one; self-signed when absent. */
  issuer?: MadeCertificate;
  /** A CA (basicConstraints CA:TRUE, keyCertSign). */
  ca?: boolean;
  /** subjectAltName entries, e.g. `{ type: 'ip', value: '127.0.0.1' }`. */
  altNames?: x509.JsonGeneralName[];
  /** extendedKeyUsage: serverAuth for a TLS server. */
  serverAuth?: boolean;
}

function algorithm(keyType: KeyType, digest: Digest): RsaHashedKeyGenParams | EcKeyGenParams | (RsaHashedKeyGenParams & { saltLength: number }) {
  switch (keyType) {
    case 'ecdsa':
      return { name: 'ECDSA', namedCurve: 'P-256', hash: digest };
    case 'rsa':
      return { name: 'RSASSA-PKCS1-v1_5', hash: digest, publicExponent: new Uint8Array([1, 0, 1]), modulusLength: 2048 };
    case 'rsa-pss':
      return { name: 'RSA-PSS', hash: digest, publicExponent: new Uint8Array([1, 0, 1]), modulusLength: 2048, saltLength: 20 };
  }
}

let serial = 1;

export async function makeCertificate(spec: CertificateSpec): Promise<MadeCertificate> {
  const keyType = spec.keyType ?? 'ecdsa';
  const digest = spec.digest ?? 'SHA-256';
  const keys = await webcrypto.subtle.generateKey(algorithm(keyType, digest), true, ['sign', 'verify']);
  const signer = spec.issuer ?? { keys, keyType, subject: spec.subject };
  const extensions: x509.Extension[] = [];
  if (spec.ca) {
    extensions.push(new x509.BasicConstraintsExtension(true, undefined, true));
    extensions.push(new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true));
  }
  if (spec.altNames) extensions.push(new x509.SubjectAlternativeNameExtension(spec.altNames));
  if (spec.serverAuth) extensions.push(new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]));
  const certificate = await x509.X509CertificateGenerator.create({
    serialNumber: (serial++).toString(16).padStart(2, '0'),
    subject: spec.subject,
    issuer: signer.subject,
    notBefore: spec.notBefore,
    notAfter: spec.notAfter,
    publicKey: keys.publicKey,
    signingKey: signer.keys.privateKey,
    signingAlgorithm: algorithm(signer.keyType, digest),
    extensions,
  });
  const keyPem = KeyObject.from(keys.privateKey).export({ type: 'pkcs8', format: 'pem' }) as string;
  return { pem: certificate.toString('pem') + '\n', keyPem, subject: spec.subject, keys, keyType };
}

/** Valid from a day before `now` for `days` days after it. */
export function validFor(now: Date, days: number): Pick<CertificateSpec, 'notBefore' | 'notAfter'> {
  return { notBefore: new Date(now.getTime() - DAY_MS), notAfter: new Date(now.getTime() + days * DAY_MS) };
}
