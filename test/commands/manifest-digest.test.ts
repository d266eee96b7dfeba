import { describe, expect, it } from 'vitest';
import { manifestDigest } from '../../src/commands/manifest-digest.js';
import { prepare } from '../../src/validate/prepare.js';
import { useTempTrees } from '../support/temp-tree.js';

const tree = useTempTrees();

const ENV = { SERVICE_ADDR: 'http://127.0.0.1:9/v1', SERVICE_TOKEN: 'token-not-in-digest', LDAP_BINDPASS: 'bindpass-not-in-digest' };
const CONFIG = 'apiVersion: lockstep/v1\nkind: LdapAuth\nconfig: { url: ldap://a, bindpass: "${env:LDAP_BINDPASS}" }\n';
const USERS = 'apiVersion: lockstep/v1\nkind: LdapAuth\nusers: { alice: { policies: [dev] } }\n';

async function digestOf(files: Record<string, string>, env: Record<string, string> = ENV): Promise<string> {
  const root = await tree(files);
  const prepared = await prepare([root], { allowPlaintextSecrets: false, prune: false, requireClusters: true, env });
  expect(prepared.diags.format()).toEqual([]);
  return manifestDigest(prepared);
}

describe('manifestDigest', () => {
  it('is the same for the same documents wherever their files lie and however they are split', async () => {
    const here = await digestOf({ 'a.yaml': CONFIG, 'b.yaml': USERS });
    expect(await digestOf({ 'a.yaml': CONFIG, 'b.yaml': USERS })).toBe(here);
    expect(await digestOf({ 'all.yaml': `${USERS}---\n${CONFIG}` })).toBe(here);
    // Secrets are not in it: references are digested unresolved.
    expect(await digestOf({ 'a.yaml': CONFIG, 'b.yaml': USERS }, { ...ENV, LDAP_BINDPASS: 'another', SERVICE_TOKEN: 'another' })).toBe(here);
  });

  it('changes with any value of a document, and with a cluster address', async () => {
    const here = await digestOf({ 'a.yaml': CONFIG, 'b.yaml': USERS });
    expect(await digestOf({ 'a.yaml': CONFIG, 'b.yaml': USERS.replace('dev', 'ops') })).not.toBe(here);
    expect(await digestOf({ 'a.yaml': CONFIG, 'b.yaml': USERS }, { ...ENV, SERVICE_ADDR: 'http://127.0.0.1:10/v1' })).not.toBe(here);
  });
});
