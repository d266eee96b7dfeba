import { renewLdapLogin } from '../ldap/renew.js';
import type { ClusterServices } from '../services.js';
import type { MountEntry } from '../sys/mount-table.js';
import type { MethodRenewal } from './method-renewal.js';
import type { TokenEntry } from './token-store.js';

/**
 * The methods whose logins are checked again at renewal, by mount type; a token of any other
 * renews on its own terms (token-store.ts renew).
 */
const RENEWALS: Readonly<Record<string, MethodRenewal>> = { ldap: renewLdapLogin };

/**
 * The renewal of the method that issued this token, with its mount: the token's path
 * (`auth/ldap/login/alice`) in its namespace names the mount, as Vault's lease path does
 * (vault/expiration.go renewAuthEntry routes a RenewAuthRequest to it).
 */
export function issuingMethod(cluster: ClusterServices, entry: TokenEntry): { renew: MethodRenewal; mount: MountEntry } | undefined {
  if (!entry.path.startsWith('auth/')) return undefined;
  const found = cluster.mounts.resolveAuth(entry.path.slice('auth/'.length));
  const renew = found && RENEWALS[found.mount.type];
  return renew ? { renew, mount: found.mount } : undefined;
}
