import { beforeAll, describe, expect, test } from 'vitest';
import { prepare } from '../../src/validate/prepare.js';
import { schemaAcknowledges } from '../../src/validate/schemas.js';
import { DAY_MS, makeCertificate, validFor, type MadeCertificate } from '../support/certificates.js';
import { useTempTrees } from '../support/temp-tree.js';

const tree = useTempTrees();
const NOW = new Date('2031-03-01T12:00:00Z');
const TOKEN = 'cert-test-token-7d1e';

let sound: MadeCertificate;
let sha1: MadeCertificate;
let expiring: MadeCertificate;
let expired: MadeCertificate;
let future: MadeCertificate;
let sha1Client: MadeCertificate;
beforeAll(async () => {
  sound = await makeCertificate({ subject: 'CN=sound CA', ca: true, ...validFor(NOW, 365) });
  sha1 = await makeCertificate({ subject: 'CN=old CA', ca: true, digest: 'SHA-1', keyType: 'rsa', ...validFor(NOW, 365) });
  expiring = await makeCertificate({ subject: 'CN=ending CA', ca: true, ...validFor(NOW, 10) });
  expired = await makeCertificate({ subject: 'CN=client, O=expired', notBefore: new Date(NOW.getTime() - 90 * DAY_MS), notAfter: new Date(NOW.getTime() - 2 * DAY_MS) });
  future = await makeCertificate({ subject: 'CN=client, O=future', notBefore: new Date(NOW.getTime() + 2 * DAY_MS), notAfter: new Date(NOW.getTime() + 90 * DAY_MS) });
  sha1Client = await makeCertificate({ subject: 'CN=client, O=sha1', issuer: sound, digest: 'SHA-1', ...validFor(NOW, 365) });
});

/** `text` as a literal block scalar indented by `indent` spaces. */
const block = (text: string, indent: number) =>
  '|\n' + text.trimEnd().split('\n').map((l) => ' '.repeat(indent) + l).join('\n') + '\n';

async function validate(files: Record<string, string>, env: Record<string, string> = {}) {
  const root = await tree(files);
  const prepared = await prepare([root], { allowPlaintextSecrets: false, prune: false, requireClusters: false, env: { TOKEN, ...env }, now: NOW });
  return { prepared, lines: prepared.diags.format().map((l) => l.split(`${root}/`).join('')) };
}

const ldap = (config: string, extra = '') => `apiVersion: lockstep/v1\nkind: LdapAuth\n${extra}config:\n  url: ldaps://ldap.example.com\n${config}`;

/** The 1-based line of the n-th (from 0) BEGIN marker in `text`. */
function beginLine(text: string, n: number): number {
  const lines = text.split('\n');
  return lines.map((l, i) => (l.includes('-----BEGIN CERTIFICATE-----') ? i + 1 : 0)).filter((i) => i > 0)[n]!;
}

describe('validate: every PEM certificate of every document', () => {
  test('each certificate of a bundle is reported at its own line of the block scalar', async () => {
    const manifest = ldap(`  certificate: ${block(sound.pem + sha1.pem + expiring.pem, 4)}`);
    const { lines, prepared } = await validate({ 'ldap.yaml': manifest });
    expect(lines).toEqual([
      `ldap.yaml:${beginLine(manifest, 1)}:5: error: config.certificate: certificate 2 of 3 (CN=old CA) is signed with SHA-1 (sha1WithRSAEncryption): the service refuses SHA-1 certificates from 1.12 on: replace it with one signed with SHA-256 or better, or, to keep it, add sha1-certificate to the document's acknowledge list`,
      `ldap.yaml:${beginLine(manifest, 2)}:5: warning: config.certificate: certificate 3 of 3 (CN=ending CA) expires in 10 days (2031-03-11T12:00:00Z)`,
    ]);
    expect(prepared.desired.size).toBe(0);
  });

  test('acknowledged, a SHA-1 certificate is a warning and the document plans', async () => {
    const manifest = ldap(`  certificate: ${block(sha1.pem, 4)}`, 'acknowledge: [sha1-certificate]\n');
    const { lines, prepared } = await validate({ 'ldap.yaml': manifest });
    expect(lines).toEqual([
      `ldap.yaml:${beginLine(manifest, 0)}:5: warning: config.certificate: the certificate (CN=old CA) is signed with SHA-1 (sha1WithRSAEncryption): the service refuses SHA-1 certificates from 1.12 on; accepted: acknowledged as sha1-certificate`,
    ]);
    expect(prepared.desired.has('LdapAuth')).toBe(true);
  });

  test('client_tls_cert: expired, not yet valid and SHA-1-signed, each a finding of its own document', async () => {
    const client = (made: MadeCertificate, mount: string) =>
      ldap(`  client_tls_cert: ${block(made.pem, 4)}  client_tls_key: \${env:KEY_${mount}}\n`, `mount: ${mount}\n`);
    const files = { 'a.yaml': client(expired, 'a'), 'b.yaml': client(future, 'b'), 'c.yaml': client(sha1Client, 'c') };
    const { lines: ours } = await validate(files, { KEY_a: expired.keyPem, KEY_b: future.keyPem, KEY_c: sha1Client.keyPem });
    expect(ours).toEqual([
      `a.yaml:${beginLine(files['a.yaml'], 0)}:5: warning: config.client_tls_cert: the certificate (CN=client, O=expired) expired on 2031-02-27T12:00:00Z`,
      `b.yaml:${beginLine(files['b.yaml'], 0)}:5: warning: config.client_tls_cert: the certificate (CN=client, O=future) is not valid before 2031-03-03T12:00:00Z`,
      expect.stringMatching(new RegExp(`^c\\.yaml:${beginLine(files['c.yaml'], 0)}:5: error: config\\.client_tls_cert: the certificate \\(CN=client, O=sha1\\) is signed with SHA-1 \\(ecdsa-with-SHA1\\)`)),
    ]);
  });

  test("a Cluster's caCert: refused, acknowledgeable in the Cluster document", async () => {
    const cluster = (extra: string) => `apiVersion: lockstep/v1\nkind: Cluster\nname: east\naddress: https://east.example.com:8200\ntoken: \${env:TOKEN}\n${extra}caCert: ${block(sha1.pem, 2)}`;
    const refused = await validate({ 'c.yaml': cluster('') });
    expect(refused.lines).toEqual([
      `c.yaml:7:3: error: caCert: the certificate (CN=old CA) is signed with SHA-1 (sha1WithRSAEncryption): the service refuses SHA-1 certificates from 1.12 on: replace it with one signed with SHA-256 or better, or, to keep it, add sha1-certificate to the document's acknowledge list`,
    ]);
    const accepted = await validate({ 'c.yaml': cluster('acknowledge: [sha1-certificate]\n') });
    expect(accepted.lines).toEqual([expect.stringMatching(/^c\.yaml:8:3: warning: caCert: the certificate \(CN=old CA\) .*; accepted: acknowledged as sha1-certificate$/)]);
  });

  test('a bundle from a ${file:} reference: each certificate located at the reference, named by its place in the file', async () => {
    const manifest = ldap('  certificate: ${file:certs/ca.pem}\n');
    const { lines } = await validate({ 'ldap.yaml': manifest, 'certs/ca.pem': sound.pem + expired.pem + future.pem });
    expect(lines).toEqual([
      'ldap.yaml:5:16: warning: config.certificate: certificate 2 of 3 (CN=client, O=expired) expired on 2031-02-27T12:00:00Z',
      'ldap.yaml:5:16: warning: config.certificate: certificate 3 of 3 (CN=client, O=future) is not valid before 2031-03-03T12:00:00Z',
    ]);
  });

  test('sound certificates give nothing; the clock is the one given (the same certificates a year on are expired)', async () => {
    const manifest = ldap(`  certificate: ${block(sound.pem, 4)}`);
    expect((await validate({ 'ldap.yaml': manifest })).lines).toEqual([]);
    const root = await tree({ 'ldap.yaml': manifest });
    const later = await prepare([root], { allowPlaintextSecrets: false, prune: false, requireClusters: false, env: {}, now: new Date(NOW.getTime() + 400 * DAY_MS) });
    expect(later.diags.format()).toEqual([expect.stringContaining('warning: config.certificate: the certificate (CN=sound CA) expired on 2032-02-29T12:00:00Z')]);
    expect(later.now).toEqual(new Date(NOW.getTime() + 400 * DAY_MS));
  });
});

test('acknowledge takes sha1-certificate where a kind holds certificates, and nowhere else', () => {
  expect(schemaAcknowledges('ldap-auth.schema.json', 'sha1-certificate')).toBe(true);
  expect(schemaAcknowledges('cluster.schema.json', 'sha1-certificate')).toBe(true);
  for (const file of ['managed-key.schema.json', 'snapshot-policy.schema.json', 'dr-replication.schema.json', 'namespace.schema.json']) {
    expect(schemaAcknowledges(file, 'sha1-certificate')).toBe(false);
  }
});
