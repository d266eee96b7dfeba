import type { Diagnostics } from '../core/diagnostics.js';
import type { LoadedDocument } from '../load/document.js';
import { didYouMean } from '../core/suggest.js';

const API_VERSION = 'lockstep/v1';

/** A document that says it is lockstep's (`apiVersion: lockstep/...`), whatever its version. */
export function isLockstepDocument(doc: LoadedDocument): boolean {
  const value = doc.value;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const { apiVersion } = value as Record<string, unknown>;
  return typeof apiVersion === 'string' && apiVersion.startsWith('lockstep/');
}

/**
 * No manifest found under the paths given (an empty folder, a folder of other YAML, a path
 * mistyped): one error saying so, instead of a valid run of nothing or an error per foreign
 * document. Undefined when a lockstep document is there, or when reading the paths already
 * failed (that error says what is wrong).
 */
export function noManifestFound(paths: readonly string[], loaded: readonly LoadedDocument[], diags: Diagnostics): string | undefined {
  if (loaded.some(isLockstepDocument) || diags.hasErrors()) return undefined;
  const where = paths.join(', ');
  if (loaded.length === 0) return `no manifest found in ${where}: no YAML document (.yaml or .yml files)`;
  const files = new Set(loaded.map((d) => d.file)).size;
  const read = `${loaded.length} YAML document${loaded.length === 1 ? '' : 's'} in ${files} file${files === 1 ? '' : 's'}`;
  return `no manifest found in ${where}: none of the ${read} has apiVersion: ${API_VERSION}`;
}

/**
 * Checks what every document must have before its kind's schema can apply: a mapping with
 * `apiVersion: lockstep/v1` and a known `kind`. Returns the kind, or undefined (reported).
 */
export function checkEnvelope(doc: LoadedDocument, knownKinds: readonly string[], diags: Diagnostics): string | undefined {
  const value = doc.value;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    diags.error('a document must be a mapping with apiVersion and kind', doc.pos([]));
    return undefined;
  }
  const { apiVersion, kind } = value as Record<string, unknown>;
  let ok = true;
  if (apiVersion === undefined) {
    diags.error('missing required field "apiVersion"', doc.pos([]));
    ok = false;
  } else if (apiVersion !== API_VERSION) {
    diags.error(`apiVersion: must be "${API_VERSION}"`, doc.pos(['apiVersion']));
    ok = false;
  }
  if (kind === undefined) {
    diags.error('missing required field "kind"', doc.pos([]));
    return undefined;
  }
  if (typeof kind !== 'string' || !knownKinds.includes(kind)) {
    const name = typeof kind === 'string' ? `"${kind}"` : 'value';
    const hint = typeof kind === 'string' ? didYouMean(kind, knownKinds) : '';
    diags.error(`kind: unknown kind ${name}${hint}; known kinds: ${knownKinds.join(', ')}`, doc.pos(['kind']));
    return undefined;
  }
  return ok ? kind : undefined;
}
