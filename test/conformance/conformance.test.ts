import { afterAll, describe, it } from 'vitest';
import { ldapSettingsFor, startSlapd, type Slapd } from '../support/slapd.js';
import type { Fact } from './fact.js';
import { HELP_FACTS } from './facts/help.js';
import { LDAP_FACTS } from './facts/ldap.js';
import { LDAP_LOGIN_FACTS } from './facts/ldap-login.js';
import { MANAGED_KEY_FACTS } from './facts/managed-keys.js';
import { NAMESPACE_FACTS } from './facts/namespaces.js';
import { NAME_FACTS } from './facts/names.js';
import { SYS_FACTS } from './facts/sys.js';
import { TOKEN_FACTS } from './facts/tokens.js';
import { checkAnswer, runFact, startScenario } from './run-fact.js';

/**
 * #14.1: every conformance fact, run against the emulator over real HTTP. Each fact gets fresh
 * clusters, so no fact depends on another. A fact names the file of the real service it follows.
 */
const FACT_SETS: Record<string, readonly Fact[]> = {
  'LDAP auth method': LDAP_FACTS,
  'LDAP login': LDAP_LOGIN_FACTS,
  'system, health and replication': SYS_FACTS,
  'managed keys': MANAGED_KEY_FACTS,
  'token method': TOKEN_FACTS,
  namespaces: NAMESPACE_FACTS,
  'names and mount paths': NAME_FACTS,
  'help (?help=1)': HELP_FACTS,
};

/** The test directory, started on first need and shared by the facts that log in. */
let slapd: Promise<Slapd> | undefined;
afterAll(async () => {
  await (await slapd)?.stop();
});

async function directoryValues(): Promise<Map<string, string>> {
  slapd ??= startSlapd();
  const settings = ldapSettingsFor(await slapd);
  return new Map(Object.entries(settings).map(([k, v]) => [`ldap.${k}`, v]));
}

for (const [area, facts] of Object.entries(FACT_SETS)) {
  describe(`#14.1 conformance: ${area}`, () => {
    for (const fact of facts) {
      it(`${fact.says} (${fact.source})`, async () => {
        const server = await startScenario(fact.scenario ?? 'single');
        try {
          const given = fact.directory ? await directoryValues() : new Map<string, string>();
          checkAnswer(fact, await runFact(server, fact, given));
        } finally {
          await server.close();
        }
      });
    }
  });
}
