/**
 * Finding 13.10 (saved plans), end to end: a saved plan with null or missing fields is refused
 * by `apply` and `show` naming the file and each field, exit 1, no stack, and not one request
 * sent (the server sits behind a recording proxy).
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { EXAMPLE_LDAP_AUTH as LDAP } from '../support/ldap-e2e.js';
import { useProxiedServer } from '../support/proxied-server.js';

const BINDPASS = 'canary-bindpass-planfile-77c2';

const served = useProxiedServer({ LDAP_BINDPASS: BINDPASS });
const { cli } = served;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'lockstep-planfile-e2e-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

it('#13.10: apply and show refuse a saved plan with null fields, naming file and fields, sending nothing', async () => {
  await writeFile(path.join(dir, 'ldap.yaml'), LDAP);
  const planFile = path.join(dir, 'plan.json');
  const planned = await cli(['plan', path.join(dir, 'ldap.yaml'), '--out', planFile]);
  expect(planned.code, planned.stderr).toBe(0);
  const saved = JSON.parse(await readFile(planFile, 'utf8'));
  saved.plan.changes[1].address = null;
  saved.plan.changes[0].dependsOn = null;
  delete saved.fingerprints;
  await writeFile(planFile, JSON.stringify(saved));

  served.proxy.requests.length = 0;
  for (const args of [['apply', planFile, '--auto-approve'], ['show', planFile]]) {
    const run = await cli(args);
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(run.stderr).toContain(`${planFile}: fingerprints: is missing`);
    expect(run.stderr).toContain(`${planFile}: plan.changes[0].dependsOn: is null, expected a list`);
    expect(run.stderr).toContain(`${planFile}: plan.changes[1].address: is null, expected an address`);
    expect(run.stderr).not.toMatch(/Cannot read|TypeError|\n\s+at /);
    expect(run.stderr + run.stdout).not.toContain(BINDPASS);
  }
  expect(served.proxy.requests).toEqual([]);
}, 120_000);
