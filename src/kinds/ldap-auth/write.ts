import { assertNever, type Change } from '../../core/plan.js';
import type { DesiredResource } from '../../core/resource.js';
import type { ApplyContext } from '../kind.js';
import { applyAuthMountChange } from '../auth-mount/write.js';
import { AUTH_MOUNT_TYPE } from '../auth-mount/scope.js';
import { serverRelease } from '../server-release.js';
import { ldapFieldsLackedBy } from './schema-fields.js';

/** Carries out one LDAP change. Whole-object writes are idempotent, so the client may retry them. */
export async function applyLdapChange(change: Change, desired: DesiredResource | undefined, { client }: ApplyContext): Promise<void> {
  if (change.resourceType === AUTH_MOUNT_TYPE) return applyAuthMountChange(change, desired, client);
  // The change's own segments, encoded by the client: never text split again.
  const path = change.address;
  switch (change.action) {
    case 'create':
    case 'update': {
      if (!desired) throw new Error(`${change.address}: no desired object to write`);
      // What the server's release lacks is never sent (the plan did not compare it either).
      const lacking = desired.resourceType === 'ldap.config' ? ldapFieldsLackedBy(await serverRelease(client)) : new Set<string>();
      await client.write(path, bodyFor(desired, lacking), { idempotent: true });
      return;
    }
    case 'delete':
      await client.delete(path);
      return;
    case 'transition':
      throw new Error(`${change.address}: LDAP objects have no transitions`);
    default:
      assertNever(change.action);
  }
}

/** The request body: normalised fields in the server's accepted forms, plus write-only fields. */
function bodyFor(desired: DesiredResource, lacking: ReadonlySet<string>): Record<string, unknown> {
  const a = desired.attrs;
  switch (desired.resourceType) {
    case 'ldap.config': {
      // `policies` is the deprecated alias the server folds into token_policies; sending both is refused.
      const { policies: _alias, ...fields } = a;
      return Object.fromEntries(Object.entries({ ...fields, ...desired.writeOnly }).filter(([k]) => !lacking.has(k)));
    }
    case 'ldap.group':
      return { policies: joinList(a['policies']) };
    case 'ldap.user':
      return { policies: joinList(a['policies']), groups: joinList(a['groups']) };
    default:
      throw new Error(`${desired.address}: unknown LDAP resource type ${desired.resourceType}`);
  }
}

function joinList(v: unknown): string {
  return Array.isArray(v) ? v.join(',') : '';
}
