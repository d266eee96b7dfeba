import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

const dir = fileURLToPath(new URL('./golden/', import.meta.url));

/**
 * Compares rendered text with test/render/golden/<name> (stored with one final newline).
 * `UPDATE_GOLDEN=1` rewrites the file instead; review the git diff before keeping it.
 */
export function expectGolden(name: string, actual: string): void {
  const file = dir + name;
  if (process.env['UPDATE_GOLDEN'] === '1') {
    writeFileSync(file, `${actual}\n`);
    return;
  }
  if (!existsSync(file)) throw new Error(`golden file ${name} is missing; run with UPDATE_GOLDEN=1 to create it`);
  expect(actual).toBe(readFileSync(file, 'utf8').replace(/\n$/, ''));
}
