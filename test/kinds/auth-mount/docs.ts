import { expect } from 'vitest';
import { Diagnostics } from '../../../src/core/diagnostics.js';
import { parseManifest } from '../../../src/load/parse.js';
import type { MountedDocument } from '../../../src/kinds/auth-mount/mounts.js';

/** Documents of a made-up auth kind from one YAML text, placed as prepare would (cluster `default`, root namespace unless given). */
export function mountedDocs(text: string): MountedDocument[] {
  const diags = new Diagnostics();
  const parsed = parseManifest(text, 'f.yaml', '/tmp/f.yaml', diags);
  expect(diags.items).toEqual([]);
  return parsed.map((source) => ({ source, kind: 'UserpassAuth', data: { cluster: 'default', namespace: '', ...(source.value as object) } }));
}
