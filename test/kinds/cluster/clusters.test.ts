import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Diagnostics } from '../../../src/core/diagnostics.js';
import { clusterFromEnvironment, normaliseBaseUrl } from '../../../src/kinds/cluster/index.js';
import { makeTree, removeTree } from '../../support/temp-tree.js';

const CA = readFileSync(new URL('../ldap-auth/fixtures/ca.pem', import.meta.url), 'utf8');

describe('normaliseBaseUrl', () => {
  test.each([
    ['https://east.example.com:8200', 'https://east.example.com:8200/v1'],
    ['https://east.example.com:8200/', 'https://east.example.com:8200/v1'],
    ['https://east.example.com:8200/v1', 'https://east.example.com:8200/v1'],
    ['http://127.0.0.1:8200/v1/', 'http://127.0.0.1:8200/v1'],
    ['https://lb.example.com/vault', 'https://lb.example.com/vault/v1'],
  ])('%s → %s', (input, expected) => expect(normaliseBaseUrl(input)).toBe(expected));

  test.each(['east.example.com', 'ftp://x', 'https://u:p@x', 'https://x/v1?a=1', ''])('%j is refused', (input) => {
    expect(typeof normaliseBaseUrl(input)).toBe('object');
  });
});

describe('the implicit cluster from the environment', () => {
  let root: string;
  beforeAll(async () => {
    root = await makeTree({ 'ca.pem': CA, 'bad.pem': 'nope' });
  });
  afterAll(() => removeTree(root));

  async function resolve(env: NodeJS.ProcessEnv, requireClusters = true) {
    const diags = new Diagnostics();
    const catalogue = await clusterFromEnvironment({ env, requireClusters }, diags);
    return { catalogue, lines: diags.format() };
  }

  test('SERVICE_ADDR, SERVICE_TOKEN (a Secret from env), SERVICE_NAMESPACE, SERVICE_CACERT', async () => {
    const { catalogue, lines } = await resolve({
      SERVICE_ADDR: 'https://v.example.com:8200',
      SERVICE_TOKEN: 'tok-123',
      SERVICE_NAMESPACE: '/team-a/',
      SERVICE_CACERT: join(root, 'ca.pem'),
    });
    expect(lines).toEqual([]);
    const target = catalogue.targets.get('default')!;
    expect(target.address).toBe('https://v.example.com:8200/v1');
    expect(target.auth.method === 'token' && [target.auth.token.origin, target.auth.token.reveal()]).toEqual(['env:SERVICE_TOKEN', 'tok-123']);
    expect(target.defaultNamespace).toBe('team-a');
    expect(target.caCert).toBe(CA);
    expect(target.insecureSkipVerify).toBe(false);
    expect(catalogue.known.get('default')!.defaultNamespace).toBe('team-a');
  });

  test('commands that talk to servers need it', async () => {
    expect((await resolve({})).lines).toEqual(['error: no cluster to talk to: add a Cluster document or set SERVICE_ADDR and SERVICE_TOKEN']);
    expect((await resolve({ SERVICE_ADDR: 'http://x:1' })).lines).toEqual(['error: SERVICE_TOKEN is not set (the token for SERVICE_ADDR; or set SERVICE_AUTH_METHOD to jwt or approle to log in)']);
    expect((await resolve({ SERVICE_ADDR: 'x', SERVICE_TOKEN: 't' })).lines).toEqual([
      'error: SERVICE_ADDR: must be an http:// or https:// URL (e.g. https://vault.example.com:8200/v1)',
    ]);
    const badCa = await resolve({ SERVICE_ADDR: 'http://x:1', SERVICE_TOKEN: 't', SERVICE_CACERT: join(root, 'bad.pem') });
    expect(badCa.lines).toHaveLength(1);
    expect(badCa.lines[0]).toMatch(/^error: SERVICE_CACERT: .* must be an x509 certificate in PEM form/);
  });

  test('validate does not: the name default is still known', async () => {
    const { catalogue, lines } = await resolve({ SERVICE_NAMESPACE: 'ns' }, false);
    expect(lines).toEqual([]);
    expect(catalogue.targets.size).toBe(0);
    expect([...catalogue.known.keys()]).toEqual(['default']);
  });
});
