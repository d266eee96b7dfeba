import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FACT_SETS } from '../conformance/fact-sets.js';
import type { Fact } from '../conformance/fact.js';
import { checkAnswer, runFact, type FactCluster } from '../conformance/run-fact.js';
import { useRealServer, type RealServer } from '../support/real-server.js';
import { ldapSettingsFor, startSlapd, type Slapd } from '../support/slapd.js';
import { pollUntil } from '../support/wait.js';
import { FACTS_NOT_FOR_THE_REAL_SERVER } from './facts-excluded.js';

/**
 * #22: the conformance facts (test/conformance/facts/) run against the real server, so a fact
 * that is wrong about the service fails here and not only against serve. One real server serves
 * the whole file: after each fact, what it enabled, mounted or created is removed again. The
 * facts that cannot hold on it (Enterprise-only features, and answers where Vault's source and
 * OpenBao's differ) are listed, each with its reason, in facts-excluded.ts.
 */
const real = useRealServer();
let slapd: Slapd;
let directory: Map<string, string>;

beforeAll(async () => {
  slapd = await startSlapd();
  directory = new Map(Object.entries(ldapSettingsFor(slapd)).map(([k, v]) => [`ldap.${k}`, v]));
}, 60_000);

afterAll(async () => {
  await slapd?.stop();
});

afterEach(async () => {
  await restoreDefaults(real());
});

const excluded = new Map(FACTS_NOT_FOR_THE_REAL_SERVER.map((e) => [e.says, e]));

describe('#22 the exclusions', () => {
  it('each names a fact that exists', () => {
    const all = new Set(Object.values(FACT_SETS).flatMap((facts) => facts.map((f) => f.says)));
    expect([...excluded.keys()].filter((says) => !all.has(says))).toEqual([]);
  });
});

for (const [area, facts] of Object.entries(FACT_SETS)) {
  // Enterprise-only facts: the real server has nothing to ask (an area may have none left).
  const askable = facts.filter((fact) => excluded.get(fact.says)?.kind !== 'enterprise');
  if (askable.length === 0) continue;
  describe(`#22 the real server: ${area}`, () => {
    for (const fact of askable) {
      const exclusion = excluded.get(fact.says);
      if (exclusion?.kind === 'vault') {
        // Kept honest: once OpenBao answers as Vault does, the exclusion is stale.
        it(`${fact.says}: the real server answers otherwise (${exclusion.reason})`, async () => {
          await expect(check(fact)).rejects.toThrow();
        });
        continue;
      }
      it(`${fact.says} (${fact.source})`, () => check(fact));
    }
  });
}

async function check(fact: Fact): Promise<void> {
  const server = real();
  const target: FactCluster = { baseUrl: `${server.addr}/v1`, rootToken: server.token };
  const outcome = await runFact({ clusters: [target] }, fact, fact.directory ? directory : new Map());
  const unordered = /(^|\/)sys\/namespaces\/?$/.test(fact.request.path);
  checkAnswer(fact, unordered ? { ...outcome, answer: { ...outcome.answer, body: withSortedKeys(outcome.answer.body) } } : outcome);
}

/**
 * A namespace LIST's keys in sorted order: OpenBao lists namespaces in no fixed order (seen in
 * CI); the facts about namespaces are not about their order (lockstep sorts what it lists).
 */
function withSortedKeys(body: unknown): unknown {
  const data = (body as { data?: { keys?: unknown } } | null)?.data;
  if (!Array.isArray(data?.keys)) return body;
  return { ...(body as object), data: { ...data, keys: [...(data.keys as string[])].sort() } };
}

/** What `bao server -dev` starts with. */
const DEFAULT_AUTH = new Set(['token/']);
const DEFAULT_MOUNTS = new Set(['cubbyhole/', 'identity/', 'sys/', 'secret/']);

/**
 * Back to the dev server's state: auth methods and engines disabled, namespaces deleted. OpenBao
 * deletes a namespace in the background and refuses to delete one whose children are still
 * there, so each child is waited for before its parent goes.
 */
async function restoreDefaults(server: RealServer): Promise<void> {
  const auth = await server.raw('GET', 'sys/auth');
  for (const path of Object.keys(dataOf(auth.body))) if (!DEFAULT_AUTH.has(path)) await expectOk(server.raw('DELETE', `sys/auth/${path}`));
  const mounts = await server.raw('GET', 'sys/mounts');
  for (const path of Object.keys(dataOf(mounts.body))) if (!DEFAULT_MOUNTS.has(path)) await expectOk(server.raw('DELETE', `sys/mounts/${path}`));
  await deleteNamespacesIn(server, '');
}

/** Deletes every namespace in `parent` (`''` the root, else `a/`), children first. */
async function deleteNamespacesIn(server: RealServer, parent: string): Promise<void> {
  const names = await namespaceNames(server, parent);
  for (const name of names) {
    await deleteNamespacesIn(server, `${parent}${name}`);
    await expectOk(server.raw('DELETE', `${parent}sys/namespaces/${name}`));
  }
  if (names.length > 0) {
    await pollUntil(`the namespaces in "${parent}" to be deleted`, async () => (await namespaceNames(server, parent)).length === 0, { timeoutMs: 10_000, intervalMs: 10 });
  }
}

async function namespaceNames(server: RealServer, parent: string): Promise<string[]> {
  const res = await server.raw('LIST', `${parent}sys/namespaces`);
  return res.status === 404 ? [] : ((dataOf(res.body).keys ?? []) as string[]);
}

function dataOf(body: unknown): Record<string, unknown> {
  const data = (body as { data?: unknown } | null)?.data;
  return data !== null && typeof data === 'object' ? (data as Record<string, unknown>) : {};
}

async function expectOk(answer: Promise<{ status: number; text: string }>): Promise<void> {
  const { status, text } = await answer;
  if (status >= 300) throw new Error(`restoring the real server's defaults: ${status} ${text}`);
}

