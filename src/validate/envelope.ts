import type { Diagnostics } from '../core/diagnostics.js';
import type { LoadedDocument } from '../load/document.js';
import { didYouMean } from '../core/suggest.js';

const API_VERSION = 'lockstep/v1';

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
