import { drReplicationKind } from './dr-replication/index.js';
import type { KindModule } from './kind.js';
import { ldapAuthKind } from './ldap-auth/index.js';
import { managedKeyKind } from './managed-key/index.js';
import { snapshotPolicyKind } from './snapshot-policy/index.js';

/**
 * Every resource kind, in the order their changes are planned. `Cluster` documents are not
 * here: they name servers and are resolved by validate/prepare (see kinds/cluster).
 */
export const kinds: KindModule[] = [ldapAuthKind, snapshotPolicyKind, managedKeyKind, drReplicationKind];

export function kindByName(name: string): KindModule | undefined {
  return kinds.find((k) => k.kind === name);
}
