import { ACL_POLICY_RESOURCE_TYPE } from '../../core/acl-policy-path.js';
import { assertNever, type Change } from '../../core/plan.js';
import type { DesiredResource } from '../../core/resource.js';
import { decodesAsGoBase64 } from '../../values/index.js';
import type { ApplyContext } from '../kind.js';

/**
 * Carries out one ACL policy change: a create or update is a write (POST) of the whole text (idempotent,
 * so the client may retry it), a delete a DELETE (the rules never let `default` or `root` be
 * deleted: read.ts leaves them out of what a prune sees).
 */
export async function applyAclPolicyChange(change: Change, desired: DesiredResource | undefined, { client }: ApplyContext): Promise<void> {
  if (change.resourceType !== ACL_POLICY_RESOURCE_TYPE) throw new Error(`${change.address}: unknown ACL policy resource type ${change.resourceType}`);
  // The change's own segments, encoded by the client: never text split again.
  const path = change.address;
  switch (change.action) {
    case 'create':
    case 'update': {
      const text = desired?.attrs['policy'];
      if (typeof text !== 'string') throw new Error(`${change.address}: no desired policy text to write`);
      await client.write(path, { policy: sentForm(text) }, { idempotent: true });
      return;
    }
    case 'delete':
      await client.delete(path);
      return;
    case 'transition':
      throw new Error(`${change.address}: ACL policies have no transitions`);
    default:
      assertNever(change.action);
  }
}

/**
 * The text as sent: as written, unless the service would take it for base64 (a policy of only
 * comments such as `//ab` is valid base64) and store what it decodes to: then encoded, which the
 * service decodes back to exactly the text.
 */
export function sentForm(text: string): string {
  return decodesAsGoBase64(text) ? Buffer.from(text, 'utf8').toString('base64') : text;
}
