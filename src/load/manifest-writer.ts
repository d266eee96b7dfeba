import { escapeLiteral } from './literal-text.js';
import { yamlLibrary } from './yaml-library.js';

/**
 * A `${env:NAME}` reference that `export` writes on purpose: a secret the server never returns,
 * to be filled in. Everything else an exported document holds came from the server and is
 * written as a literal.
 */
export class EnvReference {
  constructor(readonly name: string) {}
}

/**
 * The YAML text of documents for a manifest file (`---` between them). The one writer of
 * manifests: every string is escaped (`${` as `$${`) so a server value is read back as the same
 * literal text, never as a reference; only an EnvReference is written as one.
 */
export function manifestText(documents: readonly unknown[]): string {
  const { stringify } = yamlLibrary();
  return documents.map((d) => stringify(writtenForm(d), { lineWidth: 0 })).join('---\n');
}

/**
 * The documents with every `${env:...}` name used once: export derives names from cluster,
 * mount and field with everything but letters and digits turned into `_`, so `team/ldap` and
 * `team_ldap` would both ask for `…_TEAM_LDAP_BINDPASS` and one variable would fill two
 * different secrets. The first use (in document order) keeps its name; each later one gets
 * `_2`, `_3`, … (a suffix no other reference holds). Inputs are not mutated.
 */
export function withUniqueEnvNames(documents: readonly unknown[]): { documents: unknown[]; renamed: Array<{ from: string; to: string }> } {
  const taken = new Set<string>();
  collectEnvNames(documents, taken);
  const seen = new Set<string>();
  const renamed: Array<{ from: string; to: string }> = [];
  const rename = (value: unknown): unknown => {
    if (value instanceof EnvReference) {
      if (!seen.has(value.name)) {
        seen.add(value.name);
        return value;
      }
      let n = 2;
      while (taken.has(`${value.name}_${n}`)) n++;
      const to = `${value.name}_${n}`;
      taken.add(to);
      seen.add(to);
      renamed.push({ from: value.name, to });
      return new EnvReference(to);
    }
    if (Array.isArray(value)) return value.map(rename);
    if (value !== null && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) Object.defineProperty(out, k, { value: rename(v), enumerable: true, writable: true, configurable: true });
      return out;
    }
    return value;
  };
  return { documents: documents.map(rename), renamed };
}

function collectEnvNames(value: unknown, into: Set<string>): void {
  if (value instanceof EnvReference) into.add(value.name);
  else if (Array.isArray(value)) for (const v of value) collectEnvNames(v, into);
  else if (value !== null && typeof value === 'object') for (const v of Object.values(value)) collectEnvNames(v, into);
}

function writtenForm(value: unknown): unknown {
  if (typeof value === 'string') return escapeLiteral(value);
  if (value instanceof EnvReference) return `\${env:${value.name}}`;
  if (Array.isArray(value)) return value.map(writtenForm);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    // defineProperty: a key named __proto__ (a name from the server) stays an own key.
    for (const [k, v] of Object.entries(value)) Object.defineProperty(out, k, { value: writtenForm(v), enumerable: true, writable: true, configurable: true });
    return out;
  }
  return value;
}
