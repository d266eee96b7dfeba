import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS, makeCertificate, validFor, type MadeCertificate } from '../support/certificates.js';
import { runCli } from '../support/cli.js';
import { expectNoChanges, writeManifestFolder } from '../support/e2e.js';
import { startTestServer, type TestCluster } from '../support/server.js';
import { ldapSettingsFor, startSlapd, type Slapd } from '../support/slapd.js';

// #26.4 end to end: the built CLI judges the certificates of manifests (validate, plan, apply)
// and the chains real directories present (check against slapd with a SHA-1 and a SHA-256
// server certificate). Certificates are made here, dated from the real clock with wide margins.

let dir: string;
let cluster: TestCluster;
let sha1Slapd: Slapd;
let sha256Slapd: Slapd;
const made: Record<'sound' | 'sha1' | 'tenDays' | 'expired' | 'future', MadeCertificate> = {} as never;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'lockstep-certs-'));
  const now = new Date();
  made.sound = await makeCertificate({ subject: 'CN=sound CA', ca: true, ...validFor(now, 365) });
  made.sha1 = await makeCertificate({ subject: 'CN=old CA', ca: true, digest: 'SHA-1', keyType: 'rsa', ...validFor(now, 365) });
  made.tenDays = await makeCertificate({ subject: 'CN=ending CA', ca: true, notBefore: new Date(now.getTime() - DAY_MS), notAfter: new Date(now.getTime() + 10 * DAY_MS + 3_600_000) });
  made.expired = await makeCertificate({ subject: 'CN=gone CA', ca: true, notBefore: new Date(now.getTime() - 90 * DAY_MS), notAfter: new Date(now.getTime() - 30 * DAY_MS) });
  made.future = await makeCertificate({ subject: 'CN=coming CA', ca: true, notBefore: new Date(now.getTime() + 30 * DAY_MS), notAfter: new Date(now.getTime() + 300 * DAY_MS) });
  [cluster, sha1Slapd, sha256Slapd] = await Promise.all([startTestServer(), startSlapd({ serverCertDigest: 'sha1' }), startSlapd()]);
}, 60_000);

afterAll(async () => {
  await Promise.all([cluster?.server.close(), sha1Slapd?.stop(), sha256Slapd?.stop()]);
  await rm(dir, { recursive: true, force: true });
});

const cli = (args: string[]) => runCli(args, { env: { ...cluster.env, LDAP_BINDPASS: ldapSettingsFor(sha256Slapd).bindpass } });

/** `pem` as a literal block scalar under `certificate:` (4 spaces in). */
const block = (pem: string) => '|\n' + pem.trimEnd().split('\n').map((l) => `    ${l}`).join('\n') + '\n';

function ldapAuth(slapd: Slapd, certificate: string, extra = ''): string {
  const s = ldapSettingsFor(slapd);
  return `apiVersion: lockstep/v1
kind: LdapAuth
${extra}config:
  url: ${slapd.ldapsUrl}
  binddn: ${s.binddn}
  bindpass: \${env:LDAP_BINDPASS}
  userdn: ${s.userdn}
  certificate: ${block(certificate)}`;
}

/** 1-based lines of the BEGIN markers of `text`. */
const beginLines = (text: string) =>
  text.split('\n').flatMap((l, i) => (l.includes('-----BEGIN CERTIFICATE-----') ? [i + 1] : []));

describe('validate: the certificates of a manifest, located', () => {
  it('a bundle: SHA-1 an error, expired, not yet valid and ending in 10 days warnings, each at its own line; nothing applied', async () => {
    const bundle = [made.sound, made.sha1, made.tenDays, made.expired, made.future].map((m) => m.pem).join('');
    const text = ldapAuth(sha256Slapd, bundle);
    const folder = await writeManifestFolder(path.join(dir, 'bundle'), { 'ldap.yaml': text });
    const [, sha1, ten, expired, future] = beginLines(text);
    const result = await cli(['validate', folder]);
    expect(result.code).toBe(1);
    const lines = result.stderr.split('\n').filter((l) => l.includes('ldap.yaml:')).map((l) => l.slice(l.indexOf('ldap.yaml:')));
    expect(lines).toEqual([
      `ldap.yaml:${sha1}:5: error: config.certificate: certificate 2 of 5 (CN=old CA) is signed with SHA-1 (sha1WithRSAEncryption): the service refuses SHA-1 certificates from 1.12 on: replace it with one signed with SHA-256 or better, or, to keep it, add sha1-certificate to the document's acknowledge list`,
      expect.stringMatching(new RegExp(`^ldap\\.yaml:${ten}:5: warning: config\\.certificate: certificate 3 of 5 \\(CN=ending CA\\) expires in 10 days \\(\\d{4}-`)),
      expect.stringMatching(new RegExp(`^ldap\\.yaml:${expired}:5: warning: config\\.certificate: certificate 4 of 5 \\(CN=gone CA\\) expired on \\d{4}-`)),
      expect.stringMatching(new RegExp(`^ldap\\.yaml:${future}:5: warning: config\\.certificate: certificate 5 of 5 \\(CN=coming CA\\) is not valid before \\d{4}-`)),
    ]);
    const apply = await cli(['apply', folder, '--auto-approve']);
    expect(apply.code).toBe(1);
    expect(apply.stdout + apply.stderr).not.toMatch(/\.\.\. done|Apply complete/);
  });

  it('acknowledged, the SHA-1 certificate is a warning: validate passes, apply writes it, the next plan is empty', async () => {
    const folder = await writeManifestFolder(path.join(dir, 'acknowledged'), {
      'ldap.yaml': ldapAuth(sha256Slapd, made.sha1.pem + made.sound.pem, 'acknowledge: [sha1-certificate]\n'),
    });
    const validated = await cli(['validate', folder]);
    expect(validated.code, validated.stderr).toBe(0);
    expect(validated.stdout).toContain('Valid: 1 document.');
    expect(validated.stderr).toMatch(/ldap\.yaml:\d+:5: warning: config\.certificate: certificate 1 of 2 \(CN=old CA\) is signed with SHA-1 .*; accepted: acknowledged as sha1-certificate/);
    const applied = await cli(['apply', folder, '--auto-approve']);
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    await expectNoChanges(cli, folder);
  });
});

describe('check: the chain each LDAP URL presents', () => {
  it('slapd with a SHA-1 server certificate: the certificate fails, over ldaps:// and StartTLS', async () => {
    const starttls = ldapAuth(sha1Slapd, sha1Slapd.caCert).replace(`url: ${sha1Slapd.ldapsUrl}`, `url: ${sha1Slapd.url}\n  starttls: true`);
    for (const [name, text, url] of [['ldaps', ldapAuth(sha1Slapd, sha1Slapd.caCert), sha1Slapd.ldapsUrl], ['starttls', starttls, sha1Slapd.url]] as const) {
      const folder = await writeManifestFolder(path.join(dir, `check-sha1-${name}`), { 'ldap.yaml': text });
      const result = await cli(['check', folder]);
      expect(result.code, result.stdout).toBe(1);
      expect(result.stdout).toContain(
        `FAIL default:auth/ldap/config ${url}: presented certificate 1 of 2 (CN=localhost) is signed with SHA-1 (ecdsa-with-SHA1): the service refuses SHA-1 certificates from 1.12 on`,
      );
      expect(result.stdout).toMatch(/FAIL \S+ \S+: presented chain is not trusted by the configured certificate: /);
    }
  });

  it('slapd with a SHA-256 server certificate: sound and trusted, check passes', async () => {
    const folder = await writeManifestFolder(path.join(dir, 'check-sha256'), { 'ldap.yaml': ldapAuth(sha256Slapd, sha256Slapd.caCert) });
    const result = await cli(['check', folder]);
    expect(result.code, result.stdout).toBe(0);
    const url = sha256Slapd.ldapsUrl;
    expect(result.stdout).toContain(`ok   default:auth/ldap/config ${url}: presented chain CN=localhost <- CN=lockstep test CA: no SHA-1 signature, each valid for more than 30 days`);
    expect(result.stdout).toContain(`ok   default:auth/ldap/config ${url}: presented chain is trusted by the configured certificate`);
  });
});
