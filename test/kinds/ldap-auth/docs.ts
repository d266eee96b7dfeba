import { Diagnostics } from '../../../src/core/diagnostics.js';
import type { ResolvedDocument } from '../../../src/load/document.js';
import { parseManifest } from '../../../src/load/parse.js';
import { resolveReferences } from '../../../src/load/references.js';
import { ldapSecretPaths } from '../../../src/kinds/ldap-auth/secrets.js';
import type { KindContext } from '../../../src/kinds/kind.js';

export const ctx: KindContext = { clusters: new Map(), prune: false };

/**
 * LdapAuth documents from YAML texts (one file each, named f0.yaml, f1.yaml, ...), resolved
 * (plaintext secrets allowed) and placed as prepare would: cluster `default` unless named,
 * namespace '' unless given. Throws on YAML or reference problems: rule tests need valid input.
 */
export async function ldapDocs(files: string[], env: NodeJS.ProcessEnv = {}): Promise<ResolvedDocument[]> {
  const out: ResolvedDocument[] = [];
  for (const [i, text] of files.entries()) {
    const diags = new Diagnostics();
    for (const source of parseManifest(text, `f${i}.yaml`, `/tmp/f${i}.yaml`, diags)) {
      const data = (await resolveReferences(source, ldapSecretPaths(source.value), { allowPlaintextSecrets: true, env }, diags)) as Record<string, unknown>;
      out.push({ source, kind: 'LdapAuth', data: { cluster: 'default', namespace: '', ...data } });
    }
    if (diags.items.length > 0) throw new Error(diags.format().join('\n'));
  }
  return out;
}

export const HEADER = 'apiVersion: lockstep/v1\nkind: LdapAuth\n';

/** A document with just `config:` holding the given lines (each indented by two spaces). */
export function configDoc(...lines: string[]): string {
  return `${HEADER}config:\n${lines.map((l) => `  ${l}`).join('\n')}\n`;
}
