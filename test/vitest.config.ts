import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { SlowestFirst } from './support/slowest-first.js';

/**
 * Files whose tests leave nothing behind in their process (servers closed, environment and
 * timers restored): they share one module cache per worker instead of each paying a fresh
 * process and its import (about a second each: most import the emulator). Not among them
 * (OWN_PROCESS and the folders not listed): SoftHSM (read once per process), vi.mock, fake
 * timers, and the environment a file sets for its SDKs or the CLI.
 */
const IN_PROCESS = [
  ...['architecture', 'apply', 'build', 'client', 'commands', 'core', 'diff', 'kinds', 'load', 'order', 'planfile', 'render', 'validate', 'values'].map((d) => `test/${d}/**/*.test.ts`),
  'test/server/*.test.ts',
  ...['http', 'replication', 'snapshots', 'storage', 'util'].map((d) => `test/server/${d}/**/*.test.ts`),
  ...['cli', 'ci', 'e2e', 'engine', 'fakes', 'real-server'].map((d) => `test/${d}/**/*.test.ts`),
  'test/clients/{bao-cli,hvac}.test.ts',
  'test/adapters/{ldap-*,slapd-fixture}.test.ts',
  'test/adapters/kms/{aws,azure,gcp}.test.ts',
  'test/adapters/storage/{blob,gcs,local,naming,on-first-use}.test.ts',
  'test/check/{ldap,managed-keys/cloud,snapshot/*}.test.ts',
  'test/server/{ldap,policies}/*.test.ts',
  'test/server/managed-keys/{aws,gcp,namespaces}.test.ts',
  'test/package/docs.test.ts',
];
/** Of the folders above, the files that set the process's environment, load SoftHSM or fake timers. */
const OWN_PROCESS = ['test/e2e/{addressing.property,server-names.property,live-shapes,managed-keys}.test.ts', 'test/real-server/enterprise-kinds.test.ts', 'test/server/ldap/issued-token.test.ts'];
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
      { extends: true, test: { name: 'in-process', include: IN_PROCESS, exclude: ['test/bench/**', 'node_modules/**', ...OWN_PROCESS, ...ALONE], isolate: false } },
      { extends: true, test: { name: 'processes', include: ['test/**/*.test.ts'], exclude: ['test/bench/**', 'node_modules/**', ...IN_PROCESS, ...ALONE] } },
      { extends: true, test: { name: 'own processes', include: OWN_PROCESS } },
      { extends: true, test: { name: 'alone', include: ALONE, maxWorkers: 1, sequence: { groupOrder: 1 } } },
    ],
  },
});
