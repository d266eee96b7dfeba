/** How the server reaches managed-key backends: its kms_library stanzas and endpoint overrides. */
import { keyBackendOptionsFromEnv } from '../../adapters/kms/signer.js';
import type { KeyBackendOptions } from '../../adapters/kms/types.js';

const STANZA_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

export interface KeyBackendSettings {
  /** kms_library stanzas, NAME → PATH (`serve --kms-library NAME=PATH`). */
  kmsLibraries?: Record<string, string>;
  /** Backend options; default: from the environment (see keyBackendOptionsFromEnv). */
  keyBackends?: KeyBackendOptions;
}

/**
 * The options every managed key of the server uses. Without explicit ones they come from the
 * server's environment: LOCKSTEP_KMS_LIBRARIES, LOCKSTEP_PROVB_AUTHORITY_HOST,
 * LOCKSTEP_PROVB_CA_FILE, LOCKSTEP_PROVC_KMS_ENDPOINT, and the spec's PROVA_* / PROVC_*
 * fallbacks. Explicit kmsLibraries are added to (and win over) the others.
 */
export function resolveKeyBackendOptions(settings: KeyBackendSettings): KeyBackendOptions {
  const base = settings.keyBackends ?? keyBackendOptionsFromEnv(process.env);
  const kmsLibraries = { ...base.kmsLibraries, ...settings.kmsLibraries };
  for (const name of Object.keys(kmsLibraries)) {
    if (!STANZA_NAME.test(name)) throw new Error(`invalid kms_library name "${name}" (letters, digits, "_", ".", "-")`);
  }
  return { ...base, kmsLibraries };
}
