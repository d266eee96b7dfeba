import { keyBackendOptionsFromEnv } from '../../adapters/kms/signer.js';
import type { KeyBackendOptions } from '../../adapters/kms/types.js';
import { checkManagedKeyBackend } from '../../check/managed-keys/index.js';
import type { DesiredState } from '../../core/resource.js';
import type { CheckFinding, CheckOptions } from '../kind.js';
import { isDesiredManagedKey } from './desired.js';

/**
 * `check` for each managed key: probes its backend directly, without the server (the HSM's
 * slot, PIN and key; the cloud key's existence, state, usage and spec). How to reach the
 * backends comes from the environment, as for `serve`: LOCKSTEP_KMS_LIBRARIES (NAME=PATH,...),
 * LOCKSTEP_PROVB_AUTHORITY_HOST, LOCKSTEP_PROVB_CA_FILE, LOCKSTEP_PROVC_KMS_ENDPOINT.
 */
export async function checkManagedKeys(desired: DesiredState, _opts: CheckOptions): Promise<CheckFinding[]> {
  const keys = desired.resources.filter(isDesiredManagedKey);
  if (keys.length === 0) return [];
  let options: KeyBackendOptions;
  try {
    options = keyBackendOptionsFromEnv(process.env);
  } catch (err) {
    return [{ ok: false, subject: 'managed keys', message: `backend options from the environment: ${(err as Error).message}` }];
  }
  const results = await Promise.all(
    keys.map(async (key) => {
      const config = { ...key.attrs, ...key.writeOnly };
      const findings = await checkManagedKeyBackend(key.keyType, config, { ...options, name: key.name });
      return findings.map((f): CheckFinding => ({ ok: f.ok, subject: f.subject, message: f.message, address: key.address }));
    }),
  );
  return results.flat();
}
