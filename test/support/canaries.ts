/**
 * Canary checks for end-to-end tests: collect everything lockstep printed or wrote, then prove
 * that no secret (canary) value occurs anywhere in it.
 */
import { expect } from 'vitest';
import { formsOf, RedactionSet, SHORT_SECRET_LENGTH } from '../../src/core/redaction.js';
import type { CliResult } from './cli.js';

export interface OutputRecorder {
  /** Keeps a run's stdout and stderr; returns the run, so a call can be wrapped in place. */
  record: (run: CliResult) => CliResult;
  /** Keeps any other text lockstep produced (a saved plan, an exported file...). */
  add: (text: string) => void;
  /**
   * Fails unless more than `minLength` characters were collected (an empty collection proves
   * nothing) or if any canary occurs in them, in any escaped form.
   */
  expectNoCanaries: (canaries: readonly string[], minLength: number) => void;
}

export function outputRecorder(): OutputRecorder {
  const outputs: string[] = [];
  return {
    record: (run) => {
      outputs.push(run.stdout, run.stderr);
      return run;
    },
    add: (text) => {
      outputs.push(text);
    },
    expectNoCanaries: (canaries, minLength) => {
      const all = outputs.join('\n');
      expect(all.length).toBeGreaterThan(minLength);
      // In any form a message can carry it: as it is, JSON-, Go-, URL-, HTML- or Markdown-escaped
      // (a short canary counts only standing alone, as redaction.ts says: the check below),
      for (const canary of canaries.filter((c) => c.length >= SHORT_SECRET_LENGTH)) for (const form of formsOf(canary)) expect(all).not.toContain(form);
      // and in any line that holds it once decoded, by the decoders redaction itself reads with.
      const set = new RedactionSet(canaries);
      expect(all.split('\n').filter((line) => set.reveals(line))).toEqual([]);
    },
  };
}
