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
