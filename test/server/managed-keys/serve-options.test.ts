/** `serve --kms-library NAME=PATH` and the environment the server reads its backend options from. */
import { Command } from 'commander';
import { afterEach, describe, expect, it } from 'vitest';
import { parseKmsLibrary, startServing } from '../../../src/commands/serve.js';
import { resolveKeyBackendOptions } from '../../../src/server/managed-keys/options.js';

describe('--kms-library', () => {
  const parse = (argv: string[]) => {
    const program = new Command().exitOverride().option('--kms-library <name=path>', '', parseKmsLibrary);
    program.configureOutput({ writeErr: () => undefined });
    return program.parse(argv, { from: 'user' }).opts().kmsLibrary as Record<string, string> | undefined;
  };

  it('is repeatable: NAME=PATH stanzas', () => {
    expect(parse(['--kms-library', 'softhsm=/usr/lib/softhsm/libsofthsm2.so', '--kms-library', 'other = /opt/x.so'])).toEqual({
      softhsm: '/usr/lib/softhsm/libsofthsm2.so',
      other: '/opt/x.so',
    });
  });

  it('refuses a missing name or path, a bad name and a name given twice', () => {
    for (const bad of [['x'], ['=/p'], ['n='], ['a/b=/p'], ['n=/a', 'n=/b']]) {
      expect(() => parse(bad.flatMap((v) => ['--kms-library', v])), bad.join(' ')).toThrow();
    }
  });

  it('reaches the server: a pkcs11 key may name the stanza', async () => {
    const server = await startServing(
      { port: 0, clusters: ['default'], host: '127.0.0.1', kmsLibrary: { softhsm: '/usr/lib/softhsm/libsofthsm2.so' } },
      () => undefined,
    );
    try {
      const c = server.clusters[0]!;
      const post = (library: string) =>
        fetch(`${c.baseUrl}/sys/managed-keys/pkcs11/k`, {
          method: 'POST',
          headers: { 'X-Vault-Token': c.rootToken },
          body: JSON.stringify({ library, mechanism: '0x1041', pin: '1234', key_label: 'k', slot: '0' }),
        });
      expect((await post('softhsm')).status).toBe(204);
      expect((await post('missing')).status).toBe(400);
    } finally {
      await server.close();
    }
  });
});

describe('backend options from the environment', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });

  it('LOCKSTEP_KMS_LIBRARIES, LOCKSTEP_PROVB_AUTHORITY_HOST, LOCKSTEP_PROVC_KMS_ENDPOINT; explicit stanzas win', () => {
    process.env.LOCKSTEP_KMS_LIBRARIES = 'a=/lib/a.so,b=/lib/b.so';
    process.env.LOCKSTEP_PROVB_AUTHORITY_HOST = 'https://localhost:9443';
    process.env.LOCKSTEP_PROVC_KMS_ENDPOINT = 'http://127.0.0.1:9000';
    const options = resolveKeyBackendOptions({ kmsLibraries: { b: '/opt/b.so' } });
    expect(options.kmsLibraries).toEqual({ a: '/lib/a.so', b: '/opt/b.so' });
    expect(options.azure?.authorityHost).toBe('https://localhost:9443');
    expect(options.gcp?.endpoint).toBe('http://127.0.0.1:9000');
  });

  it('explicit options replace the environment', () => {
    process.env.LOCKSTEP_PROVC_KMS_ENDPOINT = 'http://127.0.0.1:9000';
    expect(resolveKeyBackendOptions({ keyBackends: { env: {} } })).toEqual({ env: {}, kmsLibraries: {} });
  });

  it('a stanza name with a "/" is refused', () => {
    expect(() => resolveKeyBackendOptions({ keyBackends: {}, kmsLibraries: { 'a/b': '/p' } })).toThrow(/invalid kms_library name/);
  });
});
