import { AddressMap, type Address } from '../../core/address.js';
import { NAMESPACE_RESOURCE_TYPE, namespaceAtAddress, namespaceOf } from '../../core/namespace-path.js';
import type { DesiredState, LiveState, ManagedCollection } from '../../core/resource.js';
import type { ClientPool } from '../kind.js';
import { addressableNames, listNames, readShaped } from '../live-read.js';
import { namespaceHoldings } from './holdings.js';
import { NAMESPACE_SHAPE } from './live-shapes.js';
import { namespaceAttrs } from './normalise.js';

/**
 * The live namespaces, and what each one that a prune would delete holds: the plan refuses to
 * delete a namespace that is not empty (plan.ts).
 */
export interface NamespaceLiveState extends LiveState {
  /** By namespace address: what it holds (holdings.ts), for each namespace a prune would delete. */
  holdings: AddressMap<string[]>;
}

/**
 * Reads every collection of child namespaces the desired state manages (LIST, then one GET
 * each), so undeclared ones are shown as unmanaged or pruned. A namespace OpenBao is deleting
 * (`tainted`) is left out, with a note: it is already on its way out. The parent of a
 * collection may not exist yet (declared in this run): its LIST answers 404, no children.
 */
export async function readNamespaces(desired: DesiredState, clients: ClientPool): Promise<NamespaceLiveState> {
  const live: NamespaceLiveState = { resources: [], observed: {}, notes: [], holdings: new AddressMap() };
  const declared = new AddressMap<true>();
  for (const r of desired.resources) declared.set(r.address, true);
  await Promise.all(desired.collections.map((collection) => readCollection(collection, declared, clients, live)));
  // Declared namespaces the server does not have: read and found missing.
  for (const r of desired.resources) if (!(r.address.toString() in live.observed)) live.observed[r.address.toString()] = null;
  return live;
}

async function readCollection(collection: ManagedCollection, declared: AddressMap<true>, clients: ClientPool, live: NamespaceLiveState): Promise<void> {
  const client = clients.get(collection.address.cluster);
  const listed = await listNames(client, collection.address.path);
  // The service lists each child with a trailing "/".
  const names = listed.map((name) => name.replace(/\/$/, ''));
  live.observed[collection.address.toString()] = [...names].sort();
  await Promise.all(
    addressableNames(names, collection.address, 'a namespace', live.notes).map(async (name) => {
      const address = collection.address.child(name);
      const data = await readShaped(client, address.path, NAMESPACE_SHAPE);
      if (data === null) {
        live.observed[address.toString()] = null;
        return;
      }
      if (data['tainted'] === true) {
        live.notes.push({ severity: 'info', address, message: 'the server is deleting this namespace (tainted); it is left alone' });
        live.observed[address.toString()] = { tainted: true };
        return;
      }
      const attrs = namespaceAttrs(data['custom_metadata'] as Record<string, string> | null | undefined);
      live.resources.push({ address, resourceType: NAMESPACE_RESOURCE_TYPE, attrs });
      if (!collection.prune || declared.has(address)) {
        live.observed[address.toString()] = attrs;
        return;
      }
      const holds = await namespaceHoldings(client, pathOf(address));
      live.holdings.set(address, holds);
      // What it holds is part of what the plan read: a saved plan is stale once that changes.
      live.observed[address.toString()] = { ...attrs, '(holds)': holds };
    }),
  );
}

/** The namespace path a namespace object's address stands for. */
function pathOf(address: Address): string {
  const path = namespaceAtAddress(address);
  if (path === undefined) throw new Error(`${address}: not the address of a namespace (parent ${namespaceOf(address) || 'root'})`);
  return path;
}
