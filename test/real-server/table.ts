/** docs/real-server-differences.md, generated from differences.ts. */
import type { DifferenceKind, KnownDifference } from './differences.js';

const KIND: Record<DifferenceKind, string> = { vault: 'Vault wins', setup: 'test setup', open: 'open: serve to fix' };

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const code = (items: readonly string[]): string => items.map((item) => `\`${item}\``).join(', ');

export function differencesTable(known: readonly KnownDifference[]): string {
  const rows = known.map((k) => `| ${KIND[k.kind]} | ${code(k.cases)} | ${code(k.at)} | ${cell(k.differs)} | ${cell(k.reason)} | ${cell(k.source)} |`);
  return [
    '# Where `lockstep serve` and the real server differ',
    '',
    '<!-- Generated from test/real-server/differences.ts by test/real-server/differential.test.ts',
    '     (`npx vitest run --config test/vitest.config.ts test/real-server/differential.test.ts -u`); do not edit. -->',
    '',
    'The differential test (`test/real-server/differential.test.ts`) sends one corpus of requests',
    '(`test/real-server/corpus.ts`) to `lockstep serve` and to the real server, OpenBao 2.6.2',
    '(`bao server -dev`), and compares status, envelope, `data`, `warnings` and error texts once',
    'what is random is normalised (`test/real-server/normalise.ts`). `serve` follows Vault',
    'Enterprise 1.21.0: where OpenBao answers otherwise, Vault\'s source wins and the difference is',
    'listed here with the source that says so ("Vault wins"). Rows marked "open" are places where',
    '`serve` is still wrong or unchecked; they are listed so that nothing differs unexplained, and',
    'each is to be fixed in `src/server/`. Any other difference fails the test, and so does a row',
    'that no longer matches a difference.',
    '',
    '| Kind | Cases | Member | What differs (serve / OpenBao) | Why | Source |',
    '|---|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}
