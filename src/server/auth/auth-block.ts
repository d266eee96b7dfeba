import type { JsonObject } from '../util/json.js';
import type { TokenEntry } from './token-store.js';

/**
 * The `auth` block of a login or token answer, as the service shapes it (sdk/logical
 * HTTPAuth, http/logical.go): `token_policies` and `identity_policies` are left out when empty
 * (omitempty); everything else is always there.
 */
export function authBlock(token: string, entry: TokenEntry, leaseDuration: number): JsonObject {
  const block: JsonObject = {
    client_token: token,
    accessor: entry.accessor,
    policies: entry.policies,
  };
  if (entry.policies.length > 0) block.token_policies = entry.policies;
  Object.assign(block, {
    metadata: entry.meta,
    lease_duration: leaseDuration,
    renewable: entry.renewable,
    entity_id: entry.entity_id,
    token_type: entry.type,
    orphan: entry.orphan,
    mfa_requirement: null,
    num_uses: entry.num_uses,
  });
  return block;
}
