import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD_NOT_KEPT } from '../../../src/server/ldap/renew.js';
import { ldapEntriesFor, ldapSettingsFor, startSlapd, type Slapd } from '../../support/slapd.js';
import { apiClient, startTestServer } from '../helpers.js';

/**
 * The renewal of an LDAP login token runs the login again with the password it was made with
 * (builtin/credential/ldap/path_login.go pathLoginRenew; its answers are conformance facts run
 * against serve and the real server). Vault keeps that password in the token's InternalData;
 * serve keeps it in memory only: never in a `--data` file, never in a log line, and a token
 * that outlives a restart is refused its renewal (serve's own answer) rather than renewed
 * without the check.
 */
const CANARY_PASSWORD = 'canary-renew-pw-7d21e9';
let slapd: Slapd;
let dataDir: string;

beforeAll(async () => {
  const ldif = ldapEntriesFor('dc=example,dc=com', { users: [{ uid: 'renata', cn: 'Renata Renew', password: CANARY_PASSWORD }] });
  [slapd, dataDir] = await Promise.all([startSlapd({ ldif }), mkdtemp(join(tmpdir(), 'lockstep-renew-'))]);
});
afterAll(async () => {
  await Promise.all([slapd?.stop(), rm(dataDir, { recursive: true, force: true })]);
});

async function filesHolding(text: string): Promise<string[]> {
  const files = (await readdir(dataDir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile());
  const holding: string[] = [];
  for (const f of files) if ((await readFile(join(f.parentPath, f.name))).includes(text)) holding.push(f.name);
  return holding;
}

describe('renewal of an LDAP login token', () => {
  it('renews while serve runs, keeps the password out of --data and the logs, and refuses after a restart', async () => {
    const first = await startTestServer({ dataDir });
    let token: string;
    try {
      const api = apiClient(first.clusters[0]!);
      await api.post('sys/auth/ldap', { type: 'ldap' });
      const { url, binddn, bindpass, userdn } = ldapSettingsFor(slapd);
      await api.post('auth/ldap/config', { url, binddn, bindpass, userdn, userattr: 'uid', token_ttl: '1h' });
      await api.post('auth/ldap/users/renata', { policies: 'dev' });
      const login = await apiClient(first.clusters[0]!, null).post('auth/ldap/login/renata', { password: CANARY_PASSWORD });
      expect(login.status).toBe(200);
      token = login.body.auth.client_token;
      const renewed = await apiClient(first.clusters[0]!, token).post('auth/token/renew-self', {});
      expect(renewed).toMatchObject({ status: 200, body: { auth: { client_token: token, policies: ['default', 'dev'], lease_duration: 3600 } } });
      expect(first.logs.join('\n')).not.toContain(CANARY_PASSWORD);
    } finally {
      await first.close();
    }
    expect(await filesHolding(CANARY_PASSWORD)).toEqual([]);

    const second = await startTestServer({ dataDir });
    try {
      const self = apiClient(second.clusters[0]!, token);
      expect((await self.get('auth/token/lookup-self')).status).toBe(200);
      expect(await self.post('auth/token/renew-self', {})).toEqual({
        status: 500,
        body: { errors: [`1 error occurred:\n\t* failed to renew entry: ${PASSWORD_NOT_KEPT}\n\n`] },
      });
    } finally {
      await second.close();
    }
  });

});
