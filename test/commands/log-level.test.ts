import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import { logLevelOf } from '../../src/commands/log-level.js';
import type { OutputSink } from '../../src/commands/output.js';

function recorder(): OutputSink & { text(): string } {
  const lines: string[] = [];
  return { out: (t) => lines.push(t), err: (t) => lines.push(t), color: false, interactive: false, prompt: async () => '', text: () => lines.join('\n') };
}

describe('the log level', () => {
  it('the flag, else LOCKSTEP_LOG (any case, spaces around), else info', () => {
    expect(logLevelOf('error', { LOCKSTEP_LOG: 'debug' })).toBe('error');
    expect(logLevelOf(undefined, { LOCKSTEP_LOG: ' DEBUG ' })).toBe('debug');
    expect(logLevelOf(undefined, { LOCKSTEP_LOG: '' })).toBe('info');
    expect(logLevelOf(undefined, {})).toBe('info');
  });

  it('LOCKSTEP_LOG naming no level is a usage error, naming the levels', () => {
    expect(() => logLevelOf(undefined, { LOCKSTEP_LOG: 'verbose' })).toThrow('LOCKSTEP_LOG must be one of error, warn, info, debug (got "verbose")');
  });

  it('on every command, before it does anything, as a bad --log-level is', async () => {
    const saved = process.env['LOCKSTEP_LOG'];
    process.env['LOCKSTEP_LOG'] = 'trace';
    try {
      const out = recorder();
      expect(await main(['fmt', '--check', 'no-such-dir'], out)).toBe(1);
      expect(out.text()).toBe('error: LOCKSTEP_LOG must be one of error, warn, info, debug (got "trace")');
    } finally {
      if (saved === undefined) delete process.env['LOCKSTEP_LOG'];
      else process.env['LOCKSTEP_LOG'] = saved;
    }
    const writes: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = (chunk: string) => (writes.push(String(chunk)), true);
    try {
      expect(await main(['validate', '--log-level', 'trace', 'no-such-dir'], recorder())).toBe(1);
    } finally {
      process.stderr.write = write;
    }
    expect(writes.join('')).toContain("option '--log-level <level>' argument 'trace' is invalid. Allowed choices are error, warn, info, debug.");
  });
});
