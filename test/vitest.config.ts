import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/bench/**', 'node_modules/**'],
    // forks, not threads: native libraries (SoftHSM) need the real process environment.
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
