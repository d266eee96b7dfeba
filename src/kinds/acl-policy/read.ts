import type { Address } from '../../core/address.js';
import { ACL_POLICY_RESOURCE_TYPE } from '../../core/acl-policy-path.js';
import { AddressMap } from '../../core/address.js';
import type { DesiredState, LiveState, ManagedCollection } from '../../core/resource.js';
import type { ClientPool } from '../kind.js';
import { addressableNames, listNames, readShaped } from '../live-read.js';
import { ACL_POLICY_SHAPE } from './live-shapes.js';
import { DEFAULT_POLICY, ROOT_POLICY } from './names.js';
import { aclPolicyAttrs } from './normalise.js';

/**
 * Reads every collection of ACL policies the desired state manages (LIST, then one GET each),
 * so undeclared ones show as unmanaged or pruned. `root` (listed, never stored) is not an
 * object; `default` (every namespace has it, the service never deletes it) is read only when a
 * document declares it: otherwise it is neither unmanaged nor pruned.
 */
export async function readAclPolicies(desired: DesiredState, clients: ClientPool): Promise<LiveState> {
  const live: LiveState = { resources: [], observed: {}, notes: [] };
  const declared = new AddressMap<true>();
  for (const r of desired.resources) declared.set(r.address, true);
  await Promise.all(desired.collections.map((collection) => readCollection(collection, declared, clients, live)));
  // Declared policies the server does not have: read and found missing.
  for (const r of desired.resources) if (!(r.address.toString() in live.observed)) live.observed[r.address.toString()] = null;
  return live;
}

async function readCollection(collection: ManagedCollection, declared: AddressMap<true>, clients: ClientPool, live: LiveState): Promise<void> {
  const client = clients.get(collection.address.cluster);
  const listed = await listNames(client, collection.address.path);
  live.observed[collection.address.toString()] = [...listed].sort();
  const names = addressableNames(listed, collection.address, 'an ACL policy', live.notes).filter(
    (name) => name !== ROOT_POLICY && (name !== DEFAULT_POLICY || declared.has(collection.address.child(name))),
  );
  await Promise.all(
    names.map(async (name) => {
      const address: Address = collection.address.child(name);
      const data = await readShaped(client, address.path, ACL_POLICY_SHAPE);
      if (data === null) {
        live.observed[address.toString()] = null;
        return;
      }
      const attrs = aclPolicyAttrs(data['policy'] as string);
      live.resources.push({ address, resourceType: ACL_POLICY_RESOURCE_TYPE, attrs });
      live.observed[address.toString()] = attrs;
    }),
  );
}
