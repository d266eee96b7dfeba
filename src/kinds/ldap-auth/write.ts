import { assertNever, type Change } from '../../core/plan.js';
import type { DesiredResource } from '../../core/resource.js';
import type { ApplyContext } from '../kind.js';
import { scopeOfMount } from './scope.js';

/** Carries out one LDAP change. Whole-object writes are idempotent, so the client may retry them. */
export async function applyLdapChange(change: Change, desired: DesiredResource | undefined, { client }: ApplyContext): Promise<void> {
  const path = change.address.path;
  switch (change.action) {
    case 'create':
    case 'update': {
      if (!desired) throw new Error(`${change.address}: no desired object to write`);
      await client.write(endpointFor(change, path), bodyFor(desired), { idempotent: change.resourceType !== 'auth.mount' });
      return;
    }
    case 'delete':
      if (change.resourceType === 'auth.mount') throw new Error(`${change.address}: lockstep never disables auth methods`);
      await client.delete(path);
      return;
    case 'transition':
      throw new Error(`${change.address}: LDAP objects have no transitions`);
    default:
      assertNever(change.action);
  }
}

function endpointFor(change: Change, path: string): string {
  // sys/auth/<mount> is written as is; the mount's own path is not a config path.
  if (change.resourceType === 'auth.mount') {
    const scope = scopeOfMount(change.address);
    return [scope.namespace, 'sys/auth', scope.mount].filter(Boolean).join('/');
  }
  return path;
}

/** The request body: normalised fields in the server's accepted forms, plus write-only fields. */
function bodyFor(desired: DesiredResource): Record<string, unknown> {
  const a = desired.attrs;
  switch (desired.resourceType) {
    case 'auth.mount':
      return { type: a['type'] };
    case 'ldap.config': {
      // `policies` is the deprecated alias the server folds into token_policies; sending both is refused.
      const { policies: _alias, ...fields } = a;
      return { ...fields, ...desired.writeOnly };
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
