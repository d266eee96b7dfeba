import { afterAll, beforeAll, describe, it } from 'vitest';
import { HELP_FACTS } from '../conformance/facts/help.js';
import { LDAP_LOGIN_FACTS } from '../conformance/facts/ldap-login.js';
import type { Fact } from '../conformance/fact.js';
import { checkAnswer, runFact, type FactCluster } from '../conformance/run-fact.js';
import { startRealServer, type RealServer } from '../support/real-server.js';
import { ldapSettingsFor, startSlapd, type Slapd } from '../support/slapd.js';

/**
 * Conformance facts whose answers are the same on the real server as on the emulator (which
 * conformance.test.ts runs them against): each run here against OpenBao's `bao server -dev`,
 * the server's auth mounts other than token/ disabled between facts so each starts fresh.
 */
const REAL_SERVER_FACTS: Record<string, readonly Fact[]> = {
  'help (?help=1)': HELP_FACTS,
  'LDAP login group names': LDAP_LOGIN_FACTS.filter((f) => f.source.includes('sdk/helper/ldaputil/client.go')),
  'LDAP login renewal': LDAP_LOGIN_FACTS.filter((f) => f.source.includes('pathLoginRenew')),
};

let bao: RealServer;
let slapd: Slapd;
beforeAll(async () => {
  [bao, slapd] = await Promise.all([startRealServer(), startSlapd()]);
}, 60_000);
afterAll(async () => {
  await Promise.all([bao?.stop(), slapd?.stop()]);
});

async function disableAuthMounts(): Promise<void> {
  const listed = await bao.raw('GET', 'sys/auth');
  const mounts = Object.keys((listed.body as { data: Record<string, unknown> }).data).filter((m) => m !== 'token/');
  for (const mount of mounts) await bao.raw('DELETE', `sys/auth/${mount}`);
}

for (const [area, facts] of Object.entries(REAL_SERVER_FACTS)) {
  describe(`conformance against the real server: ${area}`, () => {
    for (const fact of facts) {
      it(`${fact.says} (${fact.source})`, async () => {
        await disableAuthMounts();
        const cluster: FactCluster = { baseUrl: `${bao.addr}/v1`, rootToken: bao.token };
        const given = new Map(Object.entries(ldapSettingsFor(slapd)).map(([k, v]) => [`ldap.${k}`, v]));
        checkAnswer(fact, await runFact({ clusters: [cluster] }, fact, given));
      });
    }
  });
}
