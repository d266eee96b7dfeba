import { describe, expect, test } from 'vitest';
import { KIND_NAMES, loadKinds } from '../../src/kinds/registry.js';
import { prepare, type PrepareOptions } from '../../src/validate/prepare.js';
import { useTempTrees } from '../support/temp-tree.js';

const tree = useTempTrees();

const SECRET = 'do-not-print-me-42';
const LDAP = 'apiVersion: lockstep/v1\nkind: LdapAuth\n';
const cluster = (name: string, extra = '') =>
  `apiVersion: lockstep/v1\nkind: Cluster\nname: ${name}\naddress: http://127.0.0.1:9/v1\ntoken: \${env:TOKEN}\n${extra}---\n`;

async function run(files: Record<string, string>, opts: Partial<PrepareOptions> = {}) {
  const root = await tree(files);
  const prepared = await prepare([root], {
    allowPlaintextSecrets: false,
    prune: false,
    requireClusters: true,
    env: { TOKEN: SECRET, SERVICE_ADDR: 'http://127.0.0.1:9', SERVICE_TOKEN: SECRET },
    ...opts,
  });
  const lines = prepared.diags.format().map((l) => l.split(`${root}/`).join(''));
  return { prepared, lines, root };
}

describe('kinds', () => {
  test('only the kinds the manifests use are loaded, in registry order', async () => {
    const snapshot = 'apiVersion: lockstep/v1\nkind: SnapshotPolicy\nname: daily\nconfig: { interval: 1h, storage_type: local, path_prefix: /tmp/s, local_max_space: 1000000 }\n';
    const ldapOnly = await run({ 'a.yaml': `${LDAP}config: { url: ldap://a }\n` });
    expect(ldapOnly.lines).toEqual([]);
    expect(ldapOnly.prepared.kinds.map((k) => k.kind)).toEqual(['LdapAuth']);
    const both = await run({ 'a.yaml': `${snapshot}---\n${LDAP}config: { url: ldap://a }\n` });
    expect(both.prepared.kinds.map((k) => k.kind)).toEqual(['LdapAuth', 'SnapshotPolicy']);
    expect([...both.prepared.desired.keys()]).toEqual(['LdapAuth', 'SnapshotPolicy']);
  });

  test('every registered kind loads, under its registered name', async () => {
    const modules = await loadKinds();
    expect(modules.map((k) => k.kind)).toEqual([...KIND_NAMES]);
    expect((await loadKinds(new Set(['DrReplication', 'LdapAuth', 'Cluster']))).map((k) => k.kind)).toEqual(['LdapAuth', 'DrReplication']);
  });
});

describe('envelope and schema', () => {
  test('apiVersion and kind', async () => {
    const { lines } = await run({
      'a.yaml': 'kind: LdapAuth\n---\napiVersion: lockstep/v2\nkind: LdapAuth\n---\napiVersion: lockstep/v1\nkind: LdapAuht\n---\n- a list\n',
    });
    expect(lines).toEqual([
      'a.yaml:1:1: error: missing required field "apiVersion"',
      'a.yaml:3:13: error: apiVersion: must be "lockstep/v1"',
      'a.yaml:7:7: error: kind: unknown kind "LdapAuht" (did you mean "LdapAuth"?); known kinds: Cluster, Namespace, AclPolicy, LdapAuth, SnapshotPolicy, ManagedKey, DrReplication',
      'a.yaml:9:1: error: a document must be a mapping with apiVersion and kind',
    ]);
  });

  test('unknown fields at the key, with a suggestion; type errors at the value, never quoting it', async () => {
    const { lines } = await run({
      'a.yaml': `${LDAP}mounts: x\nconfig:\n  bindpas: ${SECRET}\n  token_ttl: [${SECRET}]\n  starttls: yes\ngroups:\n  g: { polices: [a] }\nusers: [${SECRET}]\n`,
    });
    expect(lines).toEqual([
      'a.yaml:3:1: error: unknown field "mounts" (did you mean "mount"?)',
      'a.yaml:5:3: error: unknown field "bindpas" in config (did you mean "bindpass"?)',
      'a.yaml:6:14: error: config.token_ttl: must be a duration (e.g. 90s, 1h) or a whole number of seconds',
      'a.yaml:7:13: error: config.starttls: must be true or false',
      'a.yaml:9:8: error: unknown field "polices" in groups.g (did you mean "policies"?)',
      'a.yaml:10:8: error: users: must be a mapping',
    ]);
    expect(lines.join('\n')).not.toContain(SECRET);
  });

  test('#13.10: a document failing its schema still has its references and single values checked, but reaches no rule between fields', async () => {
    const { lines } = await run({
      'a.yaml': `${LDAP}config:\n  bindpass: \${env:MISSING}\n  userfilter: (x={{.Username}})\n  extra: \${env:ALSO_MISSING}\n  token_ttl: soon\n`,
    });
    // The userfilter lacks the userattr (a rule between two fields): not said until the document is whole.
    expect(lines).toEqual([
      'a.yaml:4:13: error: config.bindpass: environment variable "MISSING" is not set',
      'a.yaml:6:3: error: unknown field "extra" in config',
      'a.yaml:7:14: error: config.token_ttl: must be a duration (e.g. 90s, 1h) or a whole number of seconds',
    ]);
  });
});

describe('clusters and placement', () => {
  test('with no Cluster document, the implicit default cluster from SERVICE_*', async () => {
    const { prepared, lines } = await run({ 'a.yaml': `${LDAP}namespace: team-a\n` });
    expect(lines).toEqual([]);
    expect([...prepared.clusters.keys()]).toEqual(['default']);
    const doc = prepared.documents.get('LdapAuth')![0]!;
    expect([doc.data.cluster, doc.data.namespace]).toEqual(['default', 'team-a']);
    expect(prepared.desired.get('LdapAuth')!.resources.map((r) => r.address.toString())).toEqual(['default:team-a/sys/auth/ldap']);
  });

  test('SERVICE_NAMESPACE is the default namespace; namespace "" is the root', async () => {
    const env = { SERVICE_ADDR: 'http://127.0.0.1:9', SERVICE_TOKEN: 't', SERVICE_NAMESPACE: 'ns1' };
    const { prepared } = await run({ 'a.yaml': `${LDAP}---\n${LDAP}mount: root-ldap\nnamespace: ""\n` }, { env });
    expect(prepared.desired.get('LdapAuth')!.resources.map((r) => r.address.toString())).toEqual([
      'default:ns1/sys/auth/ldap',
      'default:sys/auth/root-ldap',
    ]);
  });

  test('Cluster documents: address normalised, token a Secret, documents placed by name', async () => {
    const { prepared, lines } = await run({
      'clusters.yaml': cluster('east', 'namespace: team-e\ninsecureSkipVerify: "true"\n') + cluster('west'),
      'ldap.yaml': `${LDAP}cluster: east\n---\n${LDAP}cluster: west\nnamespace: a/b\n`,
    });
    expect(lines).toEqual([]);
    const east = prepared.clusters.get('east')!;
    expect([east.address, east.auth.method === 'token' && east.auth.token.origin, east.insecureSkipVerify, east.defaultNamespace]).toEqual([
      'http://127.0.0.1:9/v1',
      'env:TOKEN',
      true,
      'team-e',
    ]);
    expect(prepared.desired.get('LdapAuth')!.resources.map((r) => r.address.toString())).toEqual([
      'east:team-e/sys/auth/ldap',
      'west:a/b/sys/auth/ldap',
    ]);
  });

  test('cluster problems', async () => {
    const { lines, prepared } = await run({
      'clusters.yaml': cluster('east') + cluster('east') + cluster('west', 'caCert: not-pem\n').replace('http://127.0.0.1:9/v1', 'west.example.com'),
      'ldap.yaml': `${LDAP}cluster: north\n---\n${LDAP}\n---\n${LDAP}cluster: east\nnamespace: /ns/\n`,
    });
    expect(lines).toEqual([
      'clusters.yaml:9:7: error: name: cluster "east" is already defined at clusters.yaml:1:1',
      'clusters.yaml:16:10: error: address: must be an http:// or https:// URL (e.g. https://vault.example.com:8200/v1)',
      'clusters.yaml:18:9: error: caCert: must be an x509 certificate in PEM form (-----BEGIN CERTIFICATE-----)',
      'ldap.yaml:3:10: error: cluster: unknown cluster "north"; known clusters: east, west',
      'ldap.yaml:5:1: error: cluster: required when several clusters are known (east, west)',
      'ldap.yaml:12:12: error: namespace: must not start or end with "/"',
    ]);
    expect(prepared.desired.size).toBe(0);
  });

  test('validate (requireClusters false) needs no server settings at all', async () => {
    const { lines, prepared } = await run({ 'a.yaml': LDAP }, { requireClusters: false, env: {} });
    expect(lines).toEqual([]);
    expect(prepared.clusters.size).toBe(0);
    expect(prepared.desired.get('LdapAuth')!.resources).toHaveLength(1);
  });

  test('a proxy the run cannot use is a problem of the environment, said before any request, naming the cluster and the variable', async () => {
    const proxy = { HTTP_PROXY: `http://ops:${SECRET}%zz@proxy.example.com:3128` };
    const { lines } = await run({ 'a.yaml': LDAP }, { env: { SERVICE_ADDR: 'http://vault.example.com:8200', SERVICE_TOKEN: SECRET, ...proxy } });
    expect(lines).toEqual(['error: cluster default: HTTP_PROXY: its user name or password holds a malformed %-escape']);
    // validate talks to no server: the proxy is not its business.
    expect((await run({ 'a.yaml': LDAP }, { requireClusters: false, env: proxy })).lines).toEqual([]);
  });

  test('plan (requireClusters true) needs a cluster', async () => {
    const { lines } = await run({ 'a.yaml': LDAP }, { env: {} });
    expect(lines).toEqual(['error: no cluster to talk to: add a Cluster document or set SERVICE_ADDR and SERVICE_TOKEN']);
  });
});

describe('references and secrets through prepare', () => {
  test('plaintext secrets: refused, or accepted with the flag', async () => {
    const files = { 'a.yaml': `${LDAP}config:\n  bindpass: ${SECRET}\n` };
    const refused = await run(files);
    expect(refused.lines).toEqual([
      'a.yaml:4:13: error: config.bindpass is a secret and must be a ${env:...} or ${file:...} reference (or pass --allow-plaintext-secrets)',
    ]);
    const allowed = await run(files, { allowPlaintextSecrets: true });
    expect(allowed.lines).toEqual([]);
    const config = allowed.prepared.desired.get('LdapAuth')!.resources[1]!;
    expect((config.writeOnly.bindpass as { origin: string }).origin).toBe('literal');
    expect(JSON.stringify([...allowed.prepared.desired])).not.toContain(SECRET);
  });

  test('file references are relative to the manifest; every problem of every file at once', async () => {
    const { lines } = await run({
      'team/pw.txt': `${SECRET}\n`,
      'team/a.yaml': `${LDAP}config:\n  bindpass: \${file:pw.txt}\n`,
      'b.yaml': `${LDAP}mount: b\nconfig:\n  bindpass: \${file:pw.txt}\n  binddn: \${env:NO_SUCH_VAR}\n`,
      'c.yaml': 'x: [\n',
    });
    expect(lines.map((l) => l.replace(/invalid YAML: .*/, 'invalid YAML: ...'))).toEqual([
      `b.yaml:5:13: error: config.bindpass: file "pw.txt" does not exist (paths are relative to the manifest's folder)`,
      'b.yaml:6:11: error: config.binddn: environment variable "NO_SUCH_VAR" is not set',
      'c.yaml:2:1: error: invalid YAML: ...',
    ]);
  });
});

describe('every problem of a document at once', () => {
  test('#13.10: a duplicate key, a bad reference and schema errors of one document are all reported, each where it is', async () => {
    const { lines } = await run({
      'a.yaml': `${LDAP}config:\n  binddn: \${env:NO_SUCH_VAR}\n  token_ttl: [1]\n  nope: 1\ngroups:\n  admins: {}\n  admins: {}\n`,
    });
    expect(lines).toEqual([
      'a.yaml:4:11: error: config.binddn: environment variable "NO_SUCH_VAR" is not set',
      'a.yaml:5:14: error: config.token_ttl: must be a duration (e.g. 90s, 1h) or a whole number of seconds',
      'a.yaml:6:3: error: unknown field "nope" in config',
      'a.yaml:9:3: error: duplicate key "admins"',
    ]);
  });

  test('#13.10: a value that is both a bad reference and of the wrong form is one problem, reported once', async () => {
    const { lines } = await run({ 'a.yaml': `${LDAP}config:\n  token_ttl: "1\${env:TTL}"\n` });
    expect(lines).toEqual([
      'a.yaml:4:14: error: config.token_ttl: not a whole-string reference: write the whole value as ${env:NAME} or ${file:path}, or a literal "${" as "$${"',
    ]);
  });
});

test('desired state only without errors; warnings do not block it', async () => {
  const warned = await run({ 'a.yaml': `${LDAP}config:\n  policies: [a]\n` });
  expect(warned.lines).toEqual(['a.yaml:4:13: warning: config.policies: is deprecated; use token_policies']);
  expect(warned.prepared.desired.get('LdapAuth')!.resources).toHaveLength(2);
  const failed = await run({ 'a.yaml': `${LDAP}config:\n  url: http://x\n` });
  expect(failed.prepared.diags.hasErrors()).toBe(true);
  expect(failed.prepared.desired.size).toBe(0);
});

describe('secret texts', () => {
  test('every secret a reference resolves to is gathered as it is read, a failing document\'s too, and no plain value', async () => {
    const { prepared } = await run(
      {
        'bind.txt': 'from-a-file-77',
        'a.yaml': `${cluster('c1')}${LDAP}cluster: c1\nconfig:\n  url: ldap://a\n  binddn: \${env:PLAIN}\n  bindpass: \${file:bind.txt}\n`,
        // An unknown field fails the schema: its bindpass was still read, so it is still redacted.
        'b.yaml': `${LDAP}cluster: c1\nmount: other\nbogus: 1\nconfig:\n  url: ldap://b\n  bindpass: \${env:BIND_B}\n`,
      },
      { env: { TOKEN: SECRET, PLAIN: 'cn=admin', BIND_B: 'env-secret-88' } },
    );
    expect(prepared.diags.hasErrors()).toBe(true);
    expect([...prepared.secretTexts].sort()).toEqual(['do-not-print-me-42', 'env-secret-88', 'from-a-file-77']);
  });
});
