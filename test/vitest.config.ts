import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { SlowestFirst } from './support/slowest-first.js';

/**
 * Folders whose tests leave nothing behind in their process (servers closed, environment and
 * timers restored): their files share one module cache per worker instead of each paying a fresh
 * process and import. Not among them: SoftHSM (read once per process: test/server/managed-keys,
 * adapters, check), vi.mock (test/server/ldap), and the environment a file sets for its SDKs.
 */
const IN_PROCESS = [
  ...['architecture', 'apply', 'build', 'client', 'commands', 'core', 'diff', 'kinds', 'load', 'order', 'planfile', 'render', 'validate', 'values'].map((d) => `test/${d}/**/*.test.ts`),
  'test/server/*.test.ts',
  ...['http', 'replication', 'snapshots', 'storage', 'util'].map((d) => `test/server/${d}/**/*.test.ts`),
];
/** Measures how lockstep adapts to real latency: it runs alone, after the rest, so no other test's load is in its figures. */
const ALONE = ['test/e2e/distance.test.ts'];

export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    exclude: ['test/bench/**', 'node_modules/**'],
    // forks, not threads: native libraries (SoftHSM) need the real process environment.
    pool: 'forks',
    // Vitest's default is one worker less than the cores: one on the 2-core machine. Most files
    // wait on servers and child processes, so two keep both cores busy.
    maxWorkers: 2,
    sequence: { sequencer: SlowestFirst },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      { extends: true, test: { name: 'in-process', include: IN_PROCESS, isolate: false } },
      { extends: true, test: { name: 'processes', include: ['test/**/*.test.ts'], exclude: ['test/bench/**', 'node_modules/**', ...IN_PROCESS, ...ALONE] } },
      { extends: true, test: { name: 'alone', include: ALONE, maxWorkers: 1, sequence: { groupOrder: 1 } } },
    ],
  },
});
