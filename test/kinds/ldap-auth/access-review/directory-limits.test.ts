import { Client, PagedResultsControl, SearchRequest } from 'ldapts';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { directoryUsers, type DirectoryConnectionSettings } from '../../../../src/kinds/ldap-auth/access-review/directory.js';
import { ldapSettingsFor, startSlapd, type Slapd } from '../../../support/slapd.js';
import { loginSettings } from './login-settings.support.js';

/**
 * The review's listings under each way slapd limits a search (slapd.conf(5) `limits`; limits.c
 * limits_check): paged searches count toward the hard limit unless size.prtotal says otherwise,
 * unpaged ones stop at the soft limit unless the request asks for more (up to the hard one).
 * Whatever the limits, the review reads every user and group the unlimited directory holds;
 * once a listing's first (paged) search showed a limit paging does not lift, its parts are sent
 * unpaged: a stopped part is one request (a page exactly the limit's size would take a second
 * request the limit stops), and any connection may carry it, not only one not paging already.
 */
const CONFIGS = [
  'size.soft=4 size.hard=4',
  // Unpaged searches stop at 3 unless they ask for more; paged ones at 6.
  'size.soft=3 size.hard=6',
  // Paging lifts the limit to 7: the parts, unpaged and asking for 7, stop at 4.
  'size.soft=4 size.hard=4 size.prtotal=7',
  // Paging lifts it altogether: one search a listing.
  'size.soft=4 size.hard=4 size.prtotal=unlimited',
  // Pages above 3 refused ("illegal pagedResults page size"): the listing asks again with half
  // the page, and keeps the page that was taken; its parts, stopped within the second page, stay paged.
  'size.soft=4 size.hard=4 size.pr=3',
] as const;

/** slapd's default limit (500 a search), which no listing of this directory reaches. */
const unlimited = { slapd: undefined as Slapd | undefined };
const limited = new Map<string, Slapd>();
beforeAll(async () => {
  const started = await Promise.all([startSlapd(), ...CONFIGS.map((sizeLimit) => startSlapd({ sizeLimit }))]);
  unlimited.slapd = started[0];
  CONFIGS.forEach((c, i) => limited.set(c, started[i + 1]!));
});
afterAll(async () => Promise.all([unlimited.slapd, ...limited.values()].flatMap((s) => (s ? [s.stop()] : []))));
afterEach(() => vi.restoreAllMocks());

function connection(slapd: Slapd): DirectoryConnectionSettings {
  return { url: slapd.url, tls: { starttls: false, insecureTls: false, caCert: '', clientCert: '', clientKey: '', minVersion: 'tls12', maxVersion: 'tls12' }, connectMs: 5000, requestMs: 5000 };
}

function settingsFor(slapd: Slapd) {
  const f = ldapSettingsFor(slapd);
  return loginSettings({ binddn: f.binddn, bindpass: f.bindpass, userdn: f.userdn, groupdn: f.groupdn });
}

function sorted(users: ReadonlyMap<string, readonly string[] | null>): Array<[string, string[] | null]> {
  return [...users].map(([name, groups]): [string, string[] | null] => [name, groups && [...groups].sort()]).sort(([a], [b]) => (a < b ? -1 : 1));
}

/** The searches sent while `run` runs: how many used the paged-results control, and the most entries one answered. */
async function counted<T>(run: () => Promise<T>): Promise<{ result: T; paged: number; largest: number }> {
  type Send = (message: unknown) => Promise<{ searchEntries?: unknown[] }>;
  const prototype = Client.prototype as unknown as { _send: Send };
  const send = prototype._send;
  let paged = 0;
  let largest = 0;
  vi.spyOn(prototype, '_send').mockImplementation(async function (this: Client, message: unknown) {
    const answer = await send.call(this, message);
    if (message instanceof SearchRequest) {
      if (message.controls?.some((c) => c instanceof PagedResultsControl)) paged++;
      largest = Math.max(largest, answer.searchEntries?.length ?? 0);
    }
    return answer;
  });
  const result = await run();
  return { result, paged, largest };
}

describe("the review's listings under slapd's size limits", () => {
  it.each(CONFIGS)('%s: every user with the groups of the unlimited directory, only the first search of each listing paged (unless pages are limited)', async (config) => {
    const slapd = limited.get(config)!;
    const expected = await directoryUsers(connection(unlimited.slapd!), settingsFor(unlimited.slapd!));
    const { result, paged, largest } = await counted(() => directoryUsers(connection(slapd), settingsFor(slapd)));
    expect(result.size).toBeGreaterThan(5);
    expect(sorted(result)).toEqual(sorted(expected));
    // The users' and the groups' listing: each one paged search, its parts (if any) unpaged.
    if (!config.includes('size.pr=')) expect(paged).toBe(2);
    if (config.endsWith('unlimited')) expect(largest).toBeGreaterThan(7);
    else expect(largest).toBeLessThanOrEqual(7);
  });
});
