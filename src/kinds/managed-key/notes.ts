import type { Change, PlanNote } from '../../core/plan.js';
import type { DesiredManagedKey } from './desired.js';

/**
 * Keys that match but hold secrets: those were not compared. (The pipeline says this for kinds
 * planned by the generic diff only; this kind's secrets are object fields all the same.)
 */
export function writeOnlyNotes(keys: readonly DesiredManagedKey[], changes: readonly Change[]): PlanNote[] {
  return keys.flatMap((key): PlanNote[] => {
    // Cleared ones are compared: the server says whether it holds a secret.
    const fields = Object.keys(key.writeOnly)
      .filter((f) => key.writeOnly[f] !== '')
      .sort();
    if (fields.length === 0 || changes.some((c) => c.address.equals(key.address))) return [];
    const it = fields.length === 1 ? 'it' : 'them';
    return [{ severity: 'info', address: key.address, message: `write-only ${fields.join(', ')} compared only as set (the server reads ${it} back only as "redacted"); apply --sync-secrets re-sends ${it}` }];
  });
}

/** Keys whose backend credentials come from the server's own environment: say so. */
export function credentialNotes(keys: readonly DesiredManagedKey[]): PlanNote[] {
  return keys.flatMap((key): PlanNote[] => {
    if (key.keyType === 'provAkms' && key.attrs['access_key'] === '' && key.writeOnly['secret_key'] === '') {
      return [{ severity: 'info', address: key.address, message: "access_key and secret_key are not set: the server takes its credentials from its environment (PROVA_ACCESS_KEY_ID, PROVA_SECRET_ACCESS_KEY) or profile" }];
    }
    if (key.keyType === 'provBkeyvault' && key.attrs['client_id'] === '' && key.writeOnly['client_secret'] === '') {
      return [{ severity: 'info', address: key.address, message: 'client_id and client_secret are not set: the server authenticates with its managed identity' }];
    }
    return [];
  });
}
