/**
 * Broken manifests: each folder of test/cases/invalid holds manifests (any layout) and
 * expected.txt, the exact diagnostic lines `prepare` must print (paths relative to the case
 * folder). SERVICE_ADDR points at a listener that counts connections: prepare must never
 * open one. Set LOCKSTEP_WRITE_EXPECTED=1 to rewrite expected.txt (then review the diff).
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { prepare } from '../../src/validate/prepare.js';

const CASES = fileURLToPath(new URL('../cases/invalid/', import.meta.url));
const caseNames = readdirSync(CASES, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
  .sort();

/** Values that must never appear in any diagnostic. */
const SECRETS = ['case-service-token', 'case-bindpass-s3cr3t', 'case-east-token', 'case-west-token', 'hunter2', 's.plaintext-case-token', 'PLAINTEXT', 'S0VZLU1BVEVSSUFM', 'UExBSU5URVhULUtFWQ'];

let listener: Server;
let connections = 0;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  listener = createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  env = {
    SERVICE_ADDR: `http://127.0.0.1:${(listener.address() as AddressInfo).port}`,
    SERVICE_TOKEN: 'case-service-token',
    LDAP_BINDPASS: 'case-bindpass-s3cr3t',
    LDAP_HOST: 'ldap.example.com',
    EAST_TOKEN: 'case-east-token',
    WEST_TOKEN: 'case-west-token',
    BAD_TTL: 'soon',
    BAD_BOOL: 'yes',
    HSM_PIN: 'case-hsm-pin',
  };
});

afterAll(async () => {
  await new Promise((resolve) => listener.close(resolve));
});

describe('invalid manifests', () => {
  test('there are at least 30 cases', () => {
    expect(caseNames.length).toBeGreaterThanOrEqual(30);
  });

  test.each(caseNames)('%s', async (name) => {
    const folder = relative(process.cwd(), join(CASES, name));
    const prepared = await prepare([folder], { allowPlaintextSecrets: false, prune: false, requireClusters: true, env });
    const actual = prepared.diags.format().map((line) => line.split(`${folder}/`).join(''));
    const expectedFile = join(CASES, name, 'expected.txt');
    if (process.env.LOCKSTEP_WRITE_EXPECTED === '1') writeFileSync(expectedFile, `${actual.join('\n')}\n`);
    expect(existsSync(expectedFile), `${name}/expected.txt`).toBe(true);
    const expected = readFileSync(expectedFile, 'utf8').split('\n').filter((l) => l.trim() !== '');
    expect(actual).toEqual(expected);
    expect(prepared.diags.hasErrors()).toBe(true);
    expect(prepared.desired.size).toBe(0);
    for (const secret of SECRETS) expect(actual.join('\n')).not.toContain(secret);
  });

  test('prepare never contacted the server', () => {
    expect(connections).toBe(0);
  });
});
