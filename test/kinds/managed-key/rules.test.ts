/** Every ManagedKey rule, each with its diagnostic at the value's position; nothing is sent. */
import { describe, expect, test } from 'vitest';
import { AWS, AZURE, GCP, keyDoc, PKCS11, prepareTexts } from './docs.js';

async function lines(files: string[], env: NodeJS.ProcessEnv = {}): Promise<string[]> {
  return (await prepareTexts(files, { env })).lines;
}

describe('natural manifests', () => {
  test('one key of each type, with verify, are valid', async () => {
    const out = await prepareTexts([
      keyDoc('hsm', 'pkcs11', [...PKCS11, 'allow_generate_key: "true"', 'curve: P-256', 'usages: sign, verify'], ['verify: true']),
      keyDoc('aws', 'provAkms', [...AWS, 'region: eu-west-1', 'endpoint: https://kms.example.com'], ['verify: { hash_algorithm: sha2-384 }']),
      keyDoc('az', 'provBkeyvault', [...AZURE, 'key_bits: "2048"', 'allow_generate_key: True'], ['verify: { use_pss: true }']),
      keyDoc('gcp', 'provCckms', [...GCP, 'crypto_key_version: 2']),
    ]);
    expect(out.lines).toEqual([]);
    expect(out.prepared.desired.get('ManagedKey')!.resources).toHaveLength(4);
  });
});

describe('names', () => {
  test('lower-case, one path segment', async () => {
    expect(await lines([keyDoc('HSM-Signing', 'pkcs11', PKCS11), keyDoc('"a/b"', 'pkcs11', PKCS11)])).toEqual([
      'f0.yaml:3:7: error: name: must be lower-case (e.g. "hsm-signing")',
      'f1.yaml:3:7: error: name: "a/b" must not contain "/" (it would address another object)',
    ]);
  });
  test('unique across all types of a cluster and namespace, across files, naming the first', async () => {
    expect(await lines([keyDoc('signing', 'pkcs11', PKCS11), keyDoc('signing', 'provAkms', AWS)])).toEqual([
      'f1.yaml:3:7: error: name: managed key "signing" is already defined at f0.yaml:3:7 (type pkcs11); names are unique across all key types of a namespace (cluster default)',
    ]);
  });
  test('the same name in another namespace is another key', async () => {
    expect(await lines([keyDoc('signing', 'pkcs11', PKCS11), keyDoc('signing', 'pkcs11', PKCS11, ['namespace: team-a'])])).toEqual([]);
  });
});

describe('generic fields', () => {
  test('usages within the spec list; booleans as YAML booleans or text', async () => {
    expect(await lines([keyDoc('k', 'pkcs11', [...PKCS11, 'usages: [sign, sigh]', 'any_mount: "yes"', 'allow_store_key: "1"'])])).toEqual([
      'f0.yaml:4:7: error: config: does not fit type pkcs11 (see the errors that follow)',
      // A value's own rule still runs on a document that failed its schema elsewhere (every problem at once).
      'f0.yaml:11:11: error: config.usages: "sigh" is not a usage (one of encrypt, decrypt, sign, verify, wrap, unwrap, mac, random)',
      'f0.yaml:12:14: error: config.any_mount: must be true or false',
    ]);
    expect(await lines([keyDoc('k', 'pkcs11', [...PKCS11, 'usages: [sign, sigh]', 'any_mount: "True"', 'allow_store_key: F'])])).toEqual([
      'f0.yaml:11:11: error: config.usages: "sigh" is not a usage (one of encrypt, decrypt, sign, verify, wrap, unwrap, mac, random)',
    ]);
    expect(await lines([keyDoc('k', 'pkcs11', [...PKCS11, 'usages: ""'])])).toEqual(['f0.yaml:11:11: error: config.usages: must name at least one usage']);
  });
  test('a reference that resolves to a bad value is reported after resolution', async () => {
    expect(await lines([keyDoc('k', 'pkcs11', [...PKCS11, 'any_mount: ${env:B}', 'max_parallel: ${env:N}', 'usages: ${env:U}'])], { B: 'yes', N: '0', U: 'sign,nope' })).toEqual([
      'f0.yaml:11:14: error: config.any_mount: must be true or false',
      'f0.yaml:12:17: error: config.max_parallel: must be a whole number (1 or more)',
      'f0.yaml:13:11: error: config.usages: "nope" is not a usage (one of encrypt, decrypt, sign, verify, wrap, unwrap, mac, random)',
    ]);
  });
  test('verify: true or the test/sign options; it needs the sign usage', async () => {
    expect(await lines([keyDoc('k', 'pkcs11', [...PKCS11, 'usages: encrypt'], ['verify: true'])])).toEqual([
      'f0.yaml:12:9: error: verify: needs "sign" in config.usages (test/sign signs with the key)',
    ]);
    expect(await lines([keyDoc('k', 'pkcs11', PKCS11, ['verify: { hash_algorithm: md5, pss: true }'])])).toEqual([
      'f0.yaml:11:27: error: verify.hash_algorithm: must be one of sha1, sha2-224, sha2-256, sha2-384, sha2-512, sha3-224, sha3-256, sha3-384, sha3-512',
      'f0.yaml:11:32: error: unknown field "pss" in verify',
    ]);
    expect(await lines([keyDoc('k', 'pkcs11', PKCS11, ['verify: "yes"'])])).toEqual(['f0.yaml:11:9: error: verify: must be true or false (unquoted) or a mapping']);
  });
});

describe('pkcs11', () => {
  test('library, mechanism and pin are required', async () => {
    expect(await lines([keyDoc('k', 'pkcs11', ['key_label: a', 'token_label: t'])])).toEqual([
      'f0.yaml:4:7: error: config: does not fit type pkcs11 (see the errors that follow)',
      'f0.yaml:6:3: error: missing required field "library" in config',
      'f0.yaml:6:3: error: missing required field "mechanism" in config',
      'f0.yaml:6:3: error: missing required field "pin" in config',
    ]);
  });
  test('key_label or key_id; slot or token_label; an empty pin is missing', async () => {
    expect(await lines([keyDoc('k', 'pkcs11', ['library: softhsm', 'mechanism: "0x1041"', 'pin: ""'])])).toEqual([
      'f0.yaml:6:3: error: config: needs key_label or key_id (which key of the token to use)',
      'f0.yaml:6:3: error: config: needs slot or token_label (which token to use)',
      'f0.yaml:8:8: error: config.pin: must not be empty',
    ]);
    expect(await lines([keyDoc('k', 'pkcs11', ['library: softhsm', 'mechanism: "0x1041"', 'pin: ${env:PIN}', 'key_id: "01"', 'slot: 0'])])).toEqual([]);
  });
  test('mechanism is hexadecimal with 0x; slot is decimal; max_parallel at least 1; key_bits from the list', async () => {
    expect(await lines([keyDoc('k', 'pkcs11', [...PKCS11.filter((l) => !l.startsWith('mechanism')), 'mechanism: "4161"', 'slot: "0x1"', 'max_parallel: 0', 'key_bits: 1024'])])).toEqual([
      'f0.yaml:4:7: error: config: does not fit type pkcs11 (see the errors that follow)',
      'f0.yaml:10:14: error: config.mechanism: must be hexadecimal prefixed by 0x (e.g. 0x1041)',
      'f0.yaml:11:9: error: config.slot: must be a slot number in decimal (not hexadecimal)',
      'f0.yaml:12:17: error: config.max_parallel: must be a whole number (1 or more)',
      'f0.yaml:13:13: error: config.key_bits: must be 2048, 3072 or 4096',
    ]);
  });
  test('with allow_generate_key: curve for CKM_ECDSA, key_bits for RSA mechanisms', async () => {
    const base = PKCS11.filter((l) => !l.startsWith('mechanism'));
    expect(await lines([keyDoc('k', 'pkcs11', [...base, 'mechanism: "0x1041"', 'allow_generate_key: true'])])).toEqual([
      'f0.yaml:11:23: error: config.allow_generate_key: needs curve (P256, P384 or P521) to generate an EC key for mechanism CKM_ECDSA (0x1041)',
    ]);
    expect(await lines([keyDoc('k', 'pkcs11', [...base, 'mechanism: "0x000D"', 'allow_generate_key: "true"'])])).toEqual([
      'f0.yaml:11:23: error: config.allow_generate_key: needs key_bits (2048, 3072 or 4096) to generate an RSA key for mechanism CKM_RSA_PKCS_PSS (0x000d)',
    ]);
    expect(await lines([keyDoc('k', 'pkcs11', [...base, 'mechanism: "0x1"', 'allow_generate_key: true', 'key_bits: 3072'])])).toEqual([]);
    expect(await lines([keyDoc('k', 'pkcs11', [...base, 'mechanism: "0x80001234"', 'allow_generate_key: true', 'curve: P256'])])).toEqual([
      'f0.yaml:10:14: warning: config.mechanism: 0x80001234 is not a signing mechanism lockstep knows; key generation works only with supported mechanisms',
    ]);
  });
});

describe('provAkms', () => {
  test('key_type RSA or ECDSA in any case; RSA needs key_bits, ECDSA needs curve', async () => {
    expect(await lines([keyDoc('k', 'provAkms', ['key_type: rsa', 'kms_key: alias/x']), keyDoc('e', 'provAkms', ['key_type: Ecdsa', 'kms_key: alias/x'])])).toEqual([
      'f0.yaml:6:13: error: config.key_type: RSA needs key_bits (2048, 3072 or 4096)',
      'f1.yaml:6:13: error: config.key_type: ECDSA needs curve (P256, P384 or P521)',
    ]);
    expect(await lines([keyDoc('k', 'provAkms', ['key_type: DSA', 'kms_key: alias/x', 'curve: P192'])])).toEqual([
      'f0.yaml:4:7: error: config: does not fit type provAkms (see the errors that follow)',
      'f0.yaml:6:13: error: config.key_type: must be RSA or ECDSA (any case)',
      'f0.yaml:8:10: error: config.curve: must be one of P256, P384, P521',
    ]);
  });
  test('with allow_generate_key, kms_key is an alias; access_key and secret_key together; endpoint a URL', async () => {
    expect(await lines([keyDoc('k', 'provAkms', ['key_type: ECDSA', 'curve: P384', 'kms_key: 1234abcd', 'allow_generate_key: true', 'secret_key: ${env:AWS_SECRET}', 'endpoint: kms.local'])])).toEqual([
      'f0.yaml:8:12: error: config.kms_key: must be an alias (alias/NAME) when allow_generate_key is true (a generated key gets that alias)',
      "f0.yaml:10:15: error: config.secret_key: needs access_key (give both, or neither, to use the server's environment or profile)",
      'f0.yaml:11:13: error: config.endpoint: must be an http:// or https:// URL',
    ]);
  });
  test('no credentials at all is fine (the plan notes the server environment is used)', async () => {
    expect(await lines([keyDoc('k', 'provAkms', ['key_type: ECDSA', 'curve: P256', 'kms_key: alias/x'])])).toEqual([]);
  });
});

describe('provBkeyvault', () => {
  test('tenant_id, vault_name, key_name and key_type are required; key_type only RSA-HSM', async () => {
    expect(await lines([keyDoc('k', 'provBkeyvault', ['key_type: RSA'])])).toEqual([
      'f0.yaml:4:7: error: config: does not fit type provBkeyvault (see the errors that follow)',
      'f0.yaml:6:3: error: missing required field "tenant_id" in config',
      'f0.yaml:6:3: error: missing required field "vault_name" in config',
      'f0.yaml:6:3: error: missing required field "key_name" in config',
      'f0.yaml:6:13: error: config.key_type: must be RSA-HSM (the only supported value)',
    ]);
  });
  test('key_bits with allow_generate_key; client_id and client_secret together; vault_name syntax', async () => {
    expect(await lines([keyDoc('k', 'provBkeyvault', [...AZURE.filter((l) => !l.startsWith('client_secret') && !l.startsWith('vault_name')), 'vault_name: my.vault', 'allow_generate_key: true'])])).toEqual([
      'f0.yaml:7:14: error: config.client_id: needs client_secret (give both, or neither, to use the managed identity)',
      'f0.yaml:10:15: error: config.vault_name: may only contain letters, digits and hyphens',
      'f0.yaml:11:23: error: config.allow_generate_key: needs key_bits (2048, 3072 or 4096) to generate a key',
    ]);
  });
});

describe('provCckms', () => {
  test('credentials, crypto_key, key_ring, project, region and algorithm are required; algorithm from the list', async () => {
    expect(await lines([keyDoc('k', 'provCckms', ['algorithm: EC_SIGN_P999'])])).toEqual([
      'f0.yaml:4:7: error: config: does not fit type provCckms (see the errors that follow)',
      'f0.yaml:6:3: error: missing required field "crypto_key" in config',
      'f0.yaml:6:3: error: missing required field "key_ring" in config',
      'f0.yaml:6:3: error: missing required field "project" in config',
      'f0.yaml:6:3: error: missing required field "region" in config',
      'f0.yaml:6:3: error: missing required field "credentials" in config',
      expect.stringMatching(/^f0\.yaml:6:14: error: config\.algorithm: must be one of EC_SIGN_P256_SHA256, .*RSA_SIGN_PKCS1_4096_SHA512$/),
    ]);
  });
  test('resource names are single segments; credentials may be an absolute path on the server', async () => {
    expect(await lines([keyDoc('k', 'provCckms', [...GCP.filter((l) => !l.startsWith('project') && !l.startsWith('credentials')), 'project: my/project', 'credentials: /etc/provc/sa.json'])])).toEqual([
      'f0.yaml:10:12: error: config.project: may only contain letters, digits, _ and -',
    ]);
  });
});

describe('secrets', () => {
  test('pin, secret_key, client_secret and inline credentials must be references; no message quotes them', async () => {
    const out = await lines([
      keyDoc('p', 'pkcs11', [...PKCS11.filter((l) => !l.startsWith('pin')), 'pin: hunter2-pin']),
      keyDoc('a', 'provAkms', [...AWS.filter((l) => !l.startsWith('secret_key')), 'secret_key: hunter2-aws']),
      keyDoc('b', 'provBkeyvault', [...AZURE.filter((l) => !l.startsWith('client_secret')), 'client_secret: hunter2-azure']),
      keyDoc('c', 'provCckms', [...GCP.filter((l) => !l.startsWith('credentials')), 'credentials: \'{"private_key": "hunter2-gcp"}\'']),
    ]);
    expect(out).toEqual([
      'f0.yaml:10:8: error: config.pin is a secret and must be a ${env:...} or ${file:...} reference (or pass --allow-plaintext-secrets)',
      'f1.yaml:10:15: error: config.secret_key is a secret and must be a ${env:...} or ${file:...} reference (or pass --allow-plaintext-secrets)',
      'f2.yaml:11:18: error: config.client_secret is a secret and must be a ${env:...} or ${file:...} reference (or pass --allow-plaintext-secrets)',
      'f3.yaml:11:16: error: config.credentials is a secret and must be a ${env:...} or ${file:...} reference (or pass --allow-plaintext-secrets)',
    ]);
    expect(out.join('\n')).not.toContain('hunter2');
  });
});

describe('managedElsewhere', () => {
  test('#14.3: names secret fields of the key type, none also set; a required one may be named instead', async () => {
    const pinElsewhere = PKCS11.filter((l) => !l.startsWith('pin:'));
    expect(await lines([keyDoc('k', 'pkcs11', pinElsewhere, ['managedElsewhere: [pin]'])])).toEqual([]);
    expect(await lines([keyDoc('k', 'pkcs11', PKCS11, ['managedElsewhere: [pin, client_secret]'])])).toEqual([
      'f0.yaml:11:20: error: managedElsewhere[0]: pin is also set at config.pin: a field is either set here or managed elsewhere',
      'f0.yaml:11:25: error: managedElsewhere[1]: "client_secret" is not a write-only field of this object (one of pin)',
    ]);
  });
});
