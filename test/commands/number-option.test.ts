// One reading of every number on the command line (src/commands/number-option.ts): decimal
// digits within bounds, nothing else; every command's numeric options refuse the same forms
// with the same message, through the CLI. Generated texts of each class: hex, octal, binary,
// exponents, signs, spaces, underscores, fractions, other scripts' digits, empty, out of range.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { main } from '../../src/cli.js';
import { parseWholeNumber, type WholeNumberRule } from '../../src/commands/number-option.js';
import type { OutputSink } from '../../src/commands/output.js';
import { useTempTrees } from '../support/temp-tree.js';

const tree = useTempTrees();

interface NumericOption {
  option: string;
  rule: WholeNumberRule;
  /** Another text it takes ("auto", "0"). */
  also?: string;
  /** The command line around `--option=value`. */
  args: (flag: string, manifest: string) => string[];
  /** Whether a run with a good value may go on in-process (serve would start and wait for a signal). */
  runsInProcess: boolean;
}

const OPTIONS: NumericOption[] = [
  { option: '--retries', rule: { min: 0, max: 10 }, args: (f, m) => [f, 'validate', m], runsInProcess: true },
  { option: '--concurrency', rule: { min: 1, max: 1024, otherwise: 'auto' }, also: 'auto', args: (f, m) => ['plan', m, f], runsInProcess: true },
  { option: '--concurrency', rule: { min: 1, max: 1024, otherwise: 'auto' }, also: 'auto', args: (f, m) => ['graph', m, f], runsInProcess: true },
  { option: '--concurrency', rule: { min: 1, max: 1024, otherwise: 'auto' }, also: 'auto', args: (f, m) => ['apply', m, '--auto-approve', f], runsInProcess: true },
  { option: '--comment-limit', rule: { min: 2000, otherwise: '0 (no limit)' }, also: '0', args: (f, m) => ['plan', m, '--format', 'markdown', f], runsInProcess: true },
  { option: '--comment-limit', rule: { min: 2000, otherwise: '0 (no limit)' }, also: '0', args: (f) => ['show', 'no-such-plan.json', f], runsInProcess: true },
  { option: '--port', rule: { min: 0, max: 65535 }, args: (f) => ['serve', f], runsInProcess: false },
  { option: '--latency', rule: { min: 0, max: 60000 }, args: (f) => ['serve', f], runsInProcess: false },
  { option: '--rate-limit', rule: { min: 1, max: 1000000 }, args: (f) => ['serve', f], runsInProcess: false },
  { option: '--key-shares', rule: { min: 1, max: 255 }, args: (f) => ['serve', f], runsInProcess: false },
  { option: '--key-threshold', rule: { min: 1, max: 255 }, args: (f) => ['serve', f], runsInProcess: false },
];

/** Texts of every class, around numbers near the option's bounds. */
function candidates(rule: WholeNumberRule): fc.Arbitrary<string> {
  const inRange = fc.integer({ min: rule.min, max: Math.min(rule.max ?? rule.min + 100_000, rule.min + 100_000) });
  return fc.oneof(
    inRange.map(String),
    inRange.map((n) => `0${n}`), // leading zeros: still decimal
    fc.integer({ min: (rule.max ?? 2 ** 53) + 1, max: 2 ** 60 }).map(String),
    fc.integer({ min: -1000, max: rule.min - 1 }).map(String),
    inRange.map((n) => `0x${n.toString(16)}`),
    inRange.map((n) => `0X${n.toString(16).toUpperCase()}`),
    inRange.map((n) => `0o${n.toString(8)}`),
    inRange.map((n) => `0b${n.toString(2)}`),
    inRange.map((n) => `+${n}`),
    inRange.map((n) => ` ${n}`),
    inRange.map((n) => `${n} `),
    inRange.map((n) => `${n}.0`),
    inRange.map((n) => `${n}e0`),
    inRange.map((n) => `${n / 10}e1`),
    inRange.map((n) => (n >= 10 ? `${String(n)[0]}_${String(n).slice(1)}` : `${n}_`)),
    inRange.map((n) => [...String(n)].map((d) => String.fromCharCode(0x660 + Number(d))).join('')), // Arabic-Indic digits
    inRange.map((n) => `${n}ms`),
    fc.constantFrom('', ' ', 'Infinity', 'NaN', '-0', '9007199254740993', 'auto ', 'AUTO', '0.', '.5'),
    fc.string({ maxLength: 8 }),
  );
}

/** The model: decimal digits within bounds, or the option's other word. */
function accepted(o: NumericOption, text: string): boolean {
  if (o.also !== undefined && (text === o.also || (o.also === '0' && /^0+$/.test(text)))) return true;
  if (!/^[0-9]+$/.test(text)) return false;
  const n = Number(text);
  return Number.isSafeInteger(n) && n >= o.rule.min && (o.rule.max === undefined || n <= o.rule.max);
}

function refusal(o: NumericOption): string {
  const range = o.rule.max === undefined ? `of at least ${o.rule.min}` : `from ${o.rule.min} to ${o.rule.max}`;
  return `error: ${o.option} must be ${o.rule.otherwise ? `${o.rule.otherwise} or ` : ''}a whole number ${range} (got `;
}

const env = { SERVICE_ADDR: 'http://127.0.0.1:9/v1', SERVICE_TOKEN: 'number-option-token' };
beforeAll(() => Object.assign(process.env, env));
afterAll(() => {
  for (const key of Object.keys(env)) delete process.env[key];
});

async function cli(args: string[]): Promise<{ code: number; lines: string[] }> {
  const lines: string[] = [];
  const sink: OutputSink = { out: (t) => lines.push(t), err: (t) => lines.push(t), color: false, interactive: false, prompt: async () => '' };
  const code = await main(args, sink);
  return { code, lines };
}

describe('every numeric option of every command reads numbers one way', () => {
  test.each(OPTIONS.map((o) => [o.args(o.option, 'M').join(' '), o] as const))('%s: generated texts are taken exactly when decimal and in range', async (_, o) => {
    const dir = await tree({ 'm.yaml': 'apiVersion: lockstep/v1\nkind: LdapAuth\nmount: ldap\nconfig:\n  url: ldap://a\n' });
    const manifest = join(dir, 'm.yaml');
    await fc.assert(
      fc.asyncProperty(candidates(o.rule), async (text) => {
        const good = accepted(o, text);
        if (good && !o.runsInProcess) {
          // serve would start: the parser it uses is checked instead.
          expect(parseWholeNumber(o.option, text, o.rule)).toBe(Number(text));
          return;
        }
        const run = await cli(['--retries=0', ...o.args(`${o.option}=${text}`, manifest)].slice(o.option === '--retries' ? 1 : 0));
        const complaint = run.lines.find((l) => l.startsWith(`error: ${o.option} must be`));
        if (good) {
          expect(complaint, run.lines.join('\n')).toBeUndefined();
        } else {
          expect(run.code).toBe(1);
          expect(run.lines).toEqual([`${refusal(o)}${JSON.stringify(text)})`]);
        }
      }),
      { numRuns: 40 },
    );
  });

  test('a refused number stops the run before anything is read or sent', async () => {
    const dir = await tree({});
    const plan = join(dir, 'plan.json');
    await writeFile(plan, '{}');
    const run = await cli(['show', plan, '--comment-limit=']);
    expect(run).toEqual({ code: 1, lines: ['error: --comment-limit must be 0 (no limit) or a whole number of at least 2000 (got "")'] });
  });
});
