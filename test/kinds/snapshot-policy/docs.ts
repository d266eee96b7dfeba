import { Diagnostics } from '../../../src/core/diagnostics.js';
import type { ResolvedDocument } from '../../../src/load/document.js';
import { parseManifest } from '../../../src/load/parse.js';
import { resolveReferences } from '../../../src/load/references.js';
import { snapshotSecretPaths } from '../../../src/kinds/snapshot-policy/secrets.js';
import type { KindContext } from '../../../src/kinds/kind.js';

export const ctx: KindContext = { clusters: new Map(), prune: false };

/**
 * SnapshotPolicy documents from YAML texts (one file each, named f0.yaml, f1.yaml, ...),
 * resolved (plaintext secrets allowed) and placed as prepare would: cluster `default` unless
 * named, namespace '' unless given. Throws on YAML or reference problems.
 */
export async function snapshotDocs(files: string[], env: NodeJS.ProcessEnv = {}): Promise<ResolvedDocument[]> {
  const out: ResolvedDocument[] = [];
  for (const [i, text] of files.entries()) {
    const diags = new Diagnostics();
    for (const source of parseManifest(text, `f${i}.yaml`, `/tmp/f${i}.yaml`, diags)) {
      const data = (await resolveReferences(source, snapshotSecretPaths(source.value), { allowPlaintextSecrets: true, env }, diags)) as Record<string, unknown>;
      out.push({ source, kind: 'SnapshotPolicy', data: { cluster: 'default', namespace: '', ...data } });
    }
    if (diags.items.length > 0) throw new Error(diags.format().join('\n'));
  }
  return out;
}

/** A SnapshotPolicy named `name` whose config holds the given lines (each indented by two spaces). */
export function policy(name: string, ...lines: string[]): string {
  return `apiVersion: lockstep/v1\nkind: SnapshotPolicy\nname: ${name}\nconfig:\n${lines.map((l) => `  ${l}`).join('\n')}\n`;
}

export const LOCAL = ['interval: 1h', 'storage_type: local', 'path_prefix: /var/snap', 'local_max_space: 10GiB'];
