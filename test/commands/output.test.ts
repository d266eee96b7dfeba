import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_DIAGNOSTIC_LINE, processOutput, redacting, shortenLines, type OutputSink } from '../../src/commands/output.js';
import { RedactionSet } from '../../src/core/redaction.js';

const wasTty = process.stderr.isTTY;
afterEach(() => {
  Object.defineProperty(process.stderr, 'isTTY', { value: wasTty, configurable: true });
  vi.restoreAllMocks();
});

describe('processOutput', () => {
  it('has a status line only when stderr is a terminal, and it overwrites itself in place', () => {
    Object.defineProperty(process.stderr, 'isTTY', { value: false, configurable: true });
    expect(processOutput({}).status).toBeUndefined();

    Object.defineProperty(process.stderr, 'isTTY', { value: true, configurable: true });
    const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const out = processOutput({});
    out.status?.('Reading live state: 3 requests sent…');
    out.status?.('');
    expect(write.mock.calls.map((c) => c[0])).toEqual(['\r\u001b[KReading live state: 3 requests sent…', '\r\u001b[K']);
  });
});

describe('redacting: diagnostics cut, plans whole', () => {
  const sinkOf = (): { sink: OutputSink; out: string[]; err: string[] } => {
    const out: string[] = [];
    const err: string[] = [];
    return { out, err, sink: { out: (t) => out.push(t), err: (t) => err.push(t), color: false, interactive: false, prompt: async () => '' } };
  };

  it('cuts each long line of stderr after redaction, says how much was left out, and leaves stdout whole', () => {
    const secret = 'canary-s3cr3t-value';
    const { sink, out, err } = sinkOf();
    const output = redacting(sink, new RedactionSet([secret]));
    // The secret straddles the cut: redacted first, so no part of it is left to print.
    const long = `${'x'.repeat(MAX_DIAGNOSTIC_LINE - 5)}${secret}${'y'.repeat(10_000)}`;
    output.err(`error: short line\n${long}`);
    output.out(long);
    const [first, second] = err[0]!.split('\n');
    expect(first).toBe('error: short line');
    expect(second!.length).toBeLessThan(MAX_DIAGNOSTIC_LINE + 60);
    expect(second).toMatch(/\.\.\. \(\d+ more characters not shown\)$/);
    expect(err.join('')).not.toContain('canary');
    expect(out[0]!.length).toBeGreaterThan(10_000);
    expect(out[0]).not.toContain(secret);
  });

  it('never cuts a surrogate pair in half', () => {
    const line = `${'a'.repeat(MAX_DIAGNOSTIC_LINE - 1)}😀${'b'.repeat(10)}`;
    const cut = shortenLines(line);
    expect(cut.startsWith(`${'a'.repeat(MAX_DIAGNOSTIC_LINE - 1)}...`)).toBe(true);
    expect(shortenLines('short')).toBe('short');
  });
});
