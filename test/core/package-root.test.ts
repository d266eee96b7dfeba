import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findPackageRoot, PACKAGE_ROOT } from '../../src/core/package-root.js';
import { ROOT } from '../support/cli.js';

const dir = mkdtempSync(path.join(tmpdir(), 'lockstep-root-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('findPackageRoot', () => {
  it('is the checkout when run from src/', () => {
    expect(PACKAGE_ROOT + path.sep).toBe(ROOT);
  });

  it('walks up from any depth to the folder holding package.json', () => {
    writeFileSync(path.join(dir, 'package.json'), '{}');
    const deep = path.join(dir, 'dist', 'cli-chunks');
    mkdirSync(deep, { recursive: true });
    expect(findPackageRoot(deep)).toBe(dir);
    expect(findPackageRoot(dir)).toBe(dir);
  });

  it('says so when there is none', () => {
    expect(() => findPackageRoot(path.parse(dir).root)).toThrow(/no package.json above/);
  });
});
