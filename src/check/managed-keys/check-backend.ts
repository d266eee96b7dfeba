/**
 * `lockstep check` for managed keys: probes a key's backend directly (no server), read-only:
 *  - pkcs11: the library loads, the slot / token label exists, the PIN logs in, the key (label
 *    or id) exists, may sign and fits the mechanism, the token offers the signing mechanism,
 *    and the public key is there;
 *  - provAkms: the key or alias exists, is Enabled, has usage SIGN_VERIFY and the configured
 *    key spec;
 *  - provBkeyvault: the key exists, is RSA-HSM of the configured size, enabled, may sign;
 *  - provCckms: the crypto key and version exist, the purpose is ASYMMETRIC_SIGN, the version
 *    is ENABLED with the configured algorithm.
 * A missing key that test/sign would generate (allow_generate_key) is reported ok.
 * Findings never contain secrets: every message is scrubbed of the Secret values in the
 * configuration and of the plain values of the secret fields.
 */
import { createKeyBackend, isKeyBackendType, secretValues } from '../../adapters/kms/signer.js';
import type { KeyBackendOptions, KeyConfigByType } from '../../adapters/kms/types.js';
import { collectSecretTexts, revealDeep, scrub } from '../../core/secret.js';

export interface Finding {
  ok: boolean;
  subject: string;
  message: string;
}

export interface CheckManagedKeyOptions extends KeyBackendOptions {
  /** The managed key's name, to prefix subjects with (`managed key NAME: ...`). */
  name?: string;
}

export async function checkManagedKeyBackend(
  type: string,
  config: Record<string, unknown>,
  opts: CheckManagedKeyOptions = {},
): Promise<Finding[]> {
  const { name, ...options } = opts;
  const prefix = name ? `managed key ${name}: ` : '';
  const revealed = revealDeep(config) as Record<string, unknown>;
  const secrets = new Set([...collectSecretTexts(config), ...secretValues(revealed)]);
  const clean = (f: Finding): Finding => ({ ok: f.ok, subject: scrub(prefix + f.subject, secrets), message: scrub(f.message, secrets) });
  if (!isKeyBackendType(type)) {
    return [clean({ ok: false, subject: 'type', message: `unknown managed key type ${JSON.stringify(type)} (pkcs11, provAkms, provBkeyvault, provCckms)` })];
  }
  const backend = createKeyBackend(type, revealed as unknown as KeyConfigByType[typeof type], options);
  return (await backend.inspect()).map(clean);
}
