import { afterAll, describe, it } from 'vitest';
import { ldapSettingsFor, startSlapd, type Slapd } from '../support/slapd.js';
import { FACT_SETS } from './fact-sets.js';
import { checkAnswer, runFact, startScenario } from './run-fact.js';

/**
 * #14.1: every conformance fact, run against the emulator over real HTTP. Each fact gets fresh
 * clusters, so no fact depends on another. A fact names the file of the real service it follows.
 */

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
