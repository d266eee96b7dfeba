import { Diagnostics } from '../../../src/core/diagnostics.js';
import type { ResolvedDocument } from '../../../src/load/document.js';
import { parseManifest } from '../../../src/load/parse.js';
import { resolveReferences } from '../../../src/load/references.js';
import type { KindContext } from '../../../src/kinds/kind.js';

export const ctx: KindContext = { clusters: new Map(), prune: false };

/** Namespace documents from YAML texts (one file each, f0.yaml, ...), placed as prepare would (cluster `default` unless named). */
export async function namespaceDocs(files: string[]): Promise<ResolvedDocument[]> {
  const out: ResolvedDocument[] = [];
  for (const [i, text] of files.entries()) {
    const diags = new Diagnostics();
    for (const source of parseManifest(text, `f${i}.yaml`, `/tmp/f${i}.yaml`, diags)) {
      const data = (await resolveReferences(source, [], { allowPlaintextSecrets: true, env: {} }, diags)) as Record<string, unknown>;
      out.push({ source, kind: 'Namespace', data: { cluster: 'default', namespace: '', ...data } });
    }
    if (diags.items.length > 0) throw new Error(diags.format().join('\n'));
  }
  return out;
}

/** A Namespace document named `name`, with the given extra lines. */
export function namespace(name: string, ...lines: string[]): string {
  return `apiVersion: lockstep/v1\nkind: Namespace\nname: ${name}\n${lines.map((l) => `${l}\n`).join('')}`;
}
