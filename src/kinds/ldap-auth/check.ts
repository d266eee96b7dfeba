import type { DesiredState } from '../../core/resource.js';
import { checkLdapConfig } from '../../check/ldap.js';
import type { CheckFinding, CheckOptions } from '../kind.js';

/** `check` for each managed LDAP config: the chain each TLS URL presents, connect, bind, find the bases (and the user, with --user). */
export async function checkLdapAuth(desired: DesiredState, opts: CheckOptions): Promise<CheckFinding[]> {
  const configs = desired.resources.filter((r) => r.resourceType === 'ldap.config');
  const results = await Promise.all(
    configs.map(async (r) => {
      const cfg = { ...r.attrs, ...r.writeOnly } as unknown as Parameters<typeof checkLdapConfig>[0];
      const findings = await checkLdapConfig(cfg, opts);
      return findings.map((f) => ({ ...f, address: r.address }));
    }),
  );
  return results.flat();
}
