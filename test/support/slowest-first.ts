import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The slowest files of the last run (npm pack + install, the e2e files), for a machine with no
 * timing cache yet: Vitest then orders by file size, which starts the package test last.
 */
const KNOWN_SLOW = [
  'test/package/install.test.ts',
  'test/e2e/snapshot-policy.test.ts',
  'test/e2e/managed-keys.test.ts',
  'test/e2e/ldap.test.ts',
  'test/e2e/dr-replication.test.ts',
  'test/load/fuzz.test.ts',
  'test/ci/templates.test.ts',
  'test/e2e/cases.test.ts',
  'test/client/transport-fuzz.test.ts',
];

/**
 * Longest first across every project (Vitest's own order takes one project after another), by
 * the duration of each file's last run, so that on two workers no long file starts near the end.
 */
export class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const cache = this.ctx.cache;
    const root = this.ctx.config.root;
    const estimate = (spec: TestSpecification): number => {
      const file = relative(root, spec.moduleId);
      const last = cache.getFileTestResults(`${spec.project.name}:${file}`)?.duration;
      if (last !== undefined) return last;
      const known = KNOWN_SLOW.indexOf(file);
      // Unknown files: the known slow ones in their order, then larger files first (a few ms a kB).
      return known >= 0 ? 1e9 - known : (cache.getFileStats(`${spec.project.name}:${file}`)?.size ?? 0) / 1000;
    };
    const groupOrder = (spec: TestSpecification): number => spec.project.config.sequence.groupOrder ?? 0;
    return [...files].sort((a, b) => groupOrder(a) - groupOrder(b) || estimate(b) - estimate(a));
  }
}
