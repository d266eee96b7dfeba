import v8 from 'node:v8';

/**
 * V8's interrupt budget for this process: twice its default (67,584 bytes of bytecode run
 * between checks whether a function is hot). A run of lockstep lives a second or two, and V8's
 * optimising compiler (TurboFan), on threads that compete with the server for the cores, was
 * 31-44% of a plan's instructions: with a larger budget fewer functions are compiled, and only
 * those that stay hot. Instruction counts of a plan (test/bench/README.md, issue 27): twice
 * the default 6.79 → 6.07 G at 1,000 users (-11%), 16.70 → 16.67 G at 10,000 (level); three
 * times -19% at 1,000 but +2% at 10,000, six times +19% there (code left unoptimised longer).
 */
export const INTERRUPT_BUDGET = 2 * 67_584;

/**
 * Sets the budget, unless the user gave node one of their own (NODE_OPTIONS or node's flags).
 * Called by the CLI's entry before any command runs; V8 reads the budget each time it resets a
 * function's counter, so it applies from here on.
 */
export function tuneV8ForShortRun(
  nodeFlags: readonly string[],
  setFlags: (flags: string) => void = v8.setFlagsFromString,
  v8Version: string = process.versions.v8,
): void {
  if (nodeFlags.some((flag) => flag.startsWith('--interrupt-budget'))) return;
  // Measured on V8 11 (Node 20) only. Later V8s dropped the flag (Node 24's prints
  // "unrecognized flag" on stderr), and their tiering is another: left as they are.
  if (v8Major(v8Version) !== MEASURED_V8_MAJOR) return;
  setFlags(`--interrupt-budget=${INTERRUPT_BUDGET}`);
}

const MEASURED_V8_MAJOR = 11;

function v8Major(version: string): number {
  return Number.parseInt(version.split('.')[0] ?? '', 10);
}
