import type { ValuePath } from '../../load/document.js';
import { SECRET_FIELD_NAMES } from './fields.js';

/**
 * Paths of the secret fields present in a raw ManagedKey document: config.pin, secret_key,
 * client_secret and credentials. `credentials` is special: the spec makes it the path of a
 * credentials file on the server, which is not a secret and may be written literally as an
 * absolute path; a reference (`${file:sa.json}` gives the file's content) or any other literal
 * is the secret itself, and must be a reference.
 */
export function managedKeySecretPaths(value: unknown): ValuePath[] {
  const config = (value as { config?: unknown } | null)?.config;
  if (config === null || typeof config !== 'object' || Array.isArray(config)) return [];
  const c = config as Record<string, unknown>;
  return SECRET_FIELD_NAMES.filter((f) => f in c && (f !== 'credentials' || !isServerPath(c[f]))).map((f) => ['config', f]);
}

/**
 * A literal credentials value that names a file on the server: an absolute path. Anything else
 * written literally (JSON content, or text that could be a pasted credential) counts as the
 * secret itself and must be a reference.
 */
function isServerPath(value: unknown): boolean {
  return typeof value === 'string' && !value.includes('${') && /^(\/|[A-Za-z]:[\\/])[^\n]*$/.test(value.trim());
}
