import { describe, expect, it } from 'vitest';
import { Address } from '../../../../src/core/address.js';
import type { DesiredResource, DesiredState, LiveResource } from '../../../../src/core/resource.js';
import { Secret } from '../../../../src/core/secret.js';
import { diffResources } from '../../../../src/diff/diff.js';
import { ReadAheadWork } from '../../../../src/engine/read-ahead.js';
import type { LoginDirectorySettings } from '../../../../src/adapters/ldap/index.js';
import type { DirectoryRead, ReadScope } from '../../../../src/kinds/ldap-auth/access-review/directory.js';
import { startReviewAhead } from '../../../../src/kinds/ldap-auth/access-review/read-ahead.js';
import { aheadKey } from '../../../../src/kinds/ldap-auth/access-review/triggers.js';
import { readDirectoryAhead, reviewLdapAccess } from '../../../../src/kinds/ldap-auth/access-review/review.js';
import { ldapConfigDefaults } from '../../../../src/kinds/ldap-auth/normalise.js';
import { ldapAuthKind } from '../../../../src/kinds/ldap-auth/index.js';
import { settleNameCase } from '../../../../src/kinds/ldap-auth/name-case.js';

/**
 * The review's directory reads started while the plan still reads: once the config is read and
 * the manifest's update of it changes a field every login reads. The review must then make no
 * read of its own for them, and say exactly what it says without them.
 */
const method = new Address('east', 'auth/ldap');
const configAt = method.child('config');
const base = { ...ldapConfigDefaults(), binddn: 'cn=svc', userdn: 'ou=people', groupdn: 'ou=groups', token_policies: ['base'] };
const wantConfig = (attrs: Record<string, unknown>, bindpass: Secret | null = new Secret('pw', 'env:LDAP_BINDPASS')): DesiredResource => ({
  address: configAt,
  resourceType: 'ldap.config',
  attrs: { ...base, ...attrs },
  writeOnly: bindpass ? { bindpass } : {},
  sensitiveFields: ['bindpass'],
  dependsOn: [],
});
const liveConfig: LiveResource = { address: configAt, resourceType: 'ldap.config', attrs: base, lackedFields: [] };
const desiredOf = (want: DesiredResource): DesiredState => ({ resources: [want], collections: [] });

/** A directory that counts its reads: fry in crew, leela in none. */
function countingDirectory() {
  const reads: Array<{ settings: LoginDirectorySettings; scope: ReadScope['kind'] }> = [];
  const read = async (_c: unknown, settings: LoginDirectorySettings, scope: ReadScope): Promise<DirectoryRead> => {
    reads.push({ settings, scope: scope.kind });
    return { users: Promise.resolve(new Map<string, readonly string[] | null>([['fry', ['crew']], ['leela', []]])) };
  };
  return { reads, read };
}

/** What the plan's review says for `want` against the live config, with what the read started ahead (or not). */
async function review(want: DesiredResource, readAhead: ReadAheadWork | undefined, read: ReturnType<typeof countingDirectory>['read']) {
  const { changes } = diffResources(desiredOf(want), { resources: [liveConfig], observed: {}, notes: [] }, { syncSecrets: false });
  return reviewLdapAccess({ desired: desiredOf(want), observed: { [configAt.toString()]: base }, changes, readAhead }, read);
}

describe('the directory read started ahead of the review', () => {
  it('a deciding field changed (token_policies): one read of everyone starts at once, and the review takes it, saying the same', async () => {
    const want = wantConfig({ token_policies: ['base', 'extra'] });
    const directory = countingDirectory();
    const readAhead = new ReadAheadWork();
    readAhead.start(aheadKey(method), Promise.resolve(readDirectoryAhead([base, want.attrs], want, new AbortController().signal, directory.read)), () => undefined);
    expect(directory.reads).toEqual([{ settings: expect.objectContaining({ bindpass: 'pw', userdn: 'ou=people' }), scope: 'everyone' }]);
    const ahead = await review(want, readAhead, directory.read);
    expect(directory.reads).toHaveLength(1);
    const fresh = countingDirectory();
    expect(ahead).toEqual(await review(want, undefined, fresh.read));
    expect(fresh.reads).toHaveLength(1);
    expect(ahead.accessChanges).toEqual([{ method, policy: 'extra', gained: ['fry', 'leela'], lost: [] }]);
  });

  it('the directory settings changed (groupfilter): both sides read ahead, and both taken', async () => {
    const want = wantConfig({ groupfilter: '(member={{.UserDN}})' });
    const directory = countingDirectory();
    const readAhead = new ReadAheadWork();
    readAhead.start(aheadKey(method), Promise.resolve(readDirectoryAhead([base, want.attrs], want, new AbortController().signal, directory.read)), () => undefined);
    expect(directory.reads.map((r) => r.settings.groupfilter)).toEqual([ldapConfigDefaults()['groupfilter'], '(member={{.UserDN}})']);
    await review(want, readAhead, directory.read);
    expect(directory.reads).toHaveLength(2);
  });

  it('nothing starts when the review would read another scope or be skipped; the review then reads (or says why) itself', () => {
    const directory = countingDirectory();
    // deny_null_bind decides a login, but neither who is found nor which groups: the review reads the changed mappings' users only.
    expect(readDirectoryAhead([base, { ...base, deny_null_bind: false }], wantConfig({ deny_null_bind: false }), new AbortController().signal, directory.read)).toBe(directory.read);
    // No bind password in the manifest: the review is skipped, saying why.
    expect(readDirectoryAhead([base, { ...base, token_policies: [] }], wantConfig({ token_policies: [] }, null), new AbortController().signal, directory.read)).toBe(directory.read);
    expect(directory.reads).toEqual([]);
  });

  it('the reads started ahead carry the signal that abandons them', () => {
    const signals: Array<AbortSignal | undefined> = [];
    const abandoned = new AbortController();
    const want = wantConfig({ token_policies: [] });
    readDirectoryAhead([base, want.attrs], want, abandoned.signal, async (_c, _s, _scope, signal) => {
      signals.push(signal);
      return { users: Promise.resolve(new Map()) };
    });
    expect(signals).toEqual([abandoned.signal]);
  });

  it('a failed read ahead is the review\'s reason to skip, as without it; never an unhandled rejection', async () => {
    const want = wantConfig({ token_policies: [] });
    const refused = () => Promise.reject(new Error('connection refused'));
    const readAhead = new ReadAheadWork();
    readAhead.start(aheadKey(method), Promise.resolve(readDirectoryAhead([base, want.attrs], want, new AbortController().signal, refused)), () => undefined);
    await new Promise((r) => setImmediate(r));
    const result = await review(want, readAhead, () => Promise.reject(new Error('not called')));
    expect(result.skipped).toEqual([{ method, reason: 'connection refused' }]);
  });
});

describe('startReviewAhead: when the plan starts the directory read (as the diff and the review decide)', () => {
  const started = (want: DesiredResource | undefined, have: LiveResource = liveConfig): string[] => {
    const keys: string[] = [];
    const readAhead = new ReadAheadWork();
    readAhead.start = (key, work, abandon) => {
      keys.push(key);
      work.catch(() => undefined);
      // The read itself is not this test's: abandoned before it reaches anything.
      abandon();
    };
    startReviewAhead(method, { resources: want ? [want] : [], collections: [] }, have, readAhead);
    return keys;
  };

  it('a field every login reads, changed: started under the method\'s key', () => {
    expect(started(wantConfig({ token_policies: ['other'] }))).toEqual([aheadKey(method)]);
    expect(started(wantConfig({ userattr: 'uid' }))).toEqual([aheadKey(method)]);
  });

  it('decides as the plan will: the kind plans by the generic diff, and settling the desired state leaves configs as they are', () => {
    expect('plan' in ldapAuthKind).toBe(false);
    const want = wantConfig({ token_policies: ['other'] });
    const settled = settleNameCase({ resources: [want], collections: [] }, { resources: [{ ...liveConfig, attrs: { ...base, case_sensitive_names: true } }], observed: {}, notes: [] });
    expect(settled.resources.find((r) => r.resourceType === 'ldap.config')).toBe(want);
  });

  it('nothing changed, only a field no login reads (url, a TTL), a field the server lacks, or no config in the manifests: none', () => {
    expect(started(wantConfig({}))).toEqual([]);
    expect(started(wantConfig({ url: 'ldaps://elsewhere', token_ttl: 60 }))).toEqual([]);
    expect(started(wantConfig({ token_policies: ['other'] }), { ...liveConfig, lackedFields: ['token_policies'] })).toEqual([]);
    expect(started(undefined)).toEqual([]);
  });
});
