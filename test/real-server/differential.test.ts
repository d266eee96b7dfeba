import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestCluster } from '../support/server.js';
import { startRealServer, type RealServer } from '../support/real-server.js';
import { ldapSettingsFor, startSlapd, type Slapd } from '../support/slapd.js';
import type { Difference } from './compare.js';
import { CORPUS } from './corpus.js';
import { KNOWN_DIFFERENCES } from './differences.js';
import { stale, unexplained } from './explain.js';
import { runCorpus, type CorpusRun } from './run-corpus.js';
import { differencesTable } from './table.js';

/**
 * #22.3: the corpus sent to `lockstep serve` and to the real server (OpenBao), the answers
 * compared after normalise.ts; every difference is one differences.ts explains.
 */
const TOKEN = `root-${Math.random().toString(36).slice(2)}`;
let serve: TestCluster | undefined;
let real: RealServer | undefined;
let slapd: Slapd | undefined;
let run: CorpusRun;

beforeAll(async () => {
  [serve, real, slapd] = await Promise.all([startTestServer(TOKEN), startRealServer(TOKEN), startSlapd()]);
  const directory = new Map(Object.entries(ldapSettingsFor(slapd)).map(([k, v]) => [`ldap.${k}`, v]));
  run = await runCorpus(CORPUS, { addr: serve.baseUrl.replace(/\/v1$/, ''), rootToken: TOKEN }, { addr: real.addr, rootToken: TOKEN }, directory);
}, 60_000);

afterAll(async () => {
  await Promise.all([serve?.server.close(), real?.stop(), slapd?.stop()]);
});

function report(found: readonly Difference[]): string {
  return found.map((d) => `${d.case} ${d.at}: serve ${JSON.stringify(d.serve)}, real ${JSON.stringify(d.real)}`).join('\n');
}

describe('#22.3 serve against the real server', () => {
  it('every case id is unique', () => {
    const ids = CORPUS.map((c) => c.id);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it('every value a case captures is there on both sides', () => {
    expect(run.missing).toEqual([]);
  });

  it('every difference is a known one', () => {
    const left = unexplained(run.differences, KNOWN_DIFFERENCES);
    expect(left, `differences no entry of differences.ts explains:\n${report(left)}`).toEqual([]);
  });

  it('every known difference still differs', () => {
    expect(stale(run.differences, KNOWN_DIFFERENCES)).toEqual([]);
  });

  it('docs/real-server-differences.md is generated from differences.ts (vitest -u rewrites it)', async () => {
    await expect(differencesTable(KNOWN_DIFFERENCES)).toMatchFileSnapshot('../../docs/real-server-differences.md');
  });
});
