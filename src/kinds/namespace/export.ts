import type { ClusterTarget } from '../../core/cluster.js';
import { namespaceCollection } from '../../core/namespace-path.js';
import type { PlanNote } from '../../core/plan.js';
import type { ClusterClient } from '../../client/types.js';
import { addressableNames, listNames, readShaped } from '../live-read.js';
import { NAMESPACE_SHAPE } from './live-shapes.js';
import { namespaceAttrs } from './normalise.js';
import { NAMESPACE_KIND } from './types.js';

/**
 * Every namespace of the cluster below the root, parents before their children, as one
 * Namespace document each (custom metadata only when it has some). Namespaces being deleted
 * (OpenBao's `tainted`) are left out; so are names that cannot be addressed (a warning says so).
 */
export async function exportNamespaces(client: ClusterClient, cluster: ClusterTarget, notes: PlanNote[] = []): Promise<Record<string, unknown>[]> {
  const docs: Record<string, unknown>[] = [];
  const visit = async (parent: string): Promise<void> => {
    const collection = namespaceCollection(cluster.name, parent);
    const listed = (await listNames(client, collection.path)).map((name) => name.replace(/\/$/, ''));
    const names = addressableNames(listed, collection, 'a namespace', notes).sort();
    const found = await Promise.all(names.map((name) => readShaped(client, collection.child(name).path, NAMESPACE_SHAPE)));
    for (const [i, name] of names.entries()) {
      const data = found[i];
      if (!data || data['tainted'] === true) continue;
      const path = parent === '' ? name : `${parent}/${name}`;
      docs.push(exportDocument(cluster, path, namespaceAttrs(data['custom_metadata'] as Record<string, string> | null | undefined)['custom_metadata'] as Record<string, string>));
      await visit(path);
    }
  };
  await visit('');
  return docs;
}

function exportDocument(cluster: ClusterTarget, path: string, metadata: Record<string, string>): Record<string, unknown> {
  const doc: Record<string, unknown> = { apiVersion: 'lockstep/v1', kind: NAMESPACE_KIND };
  if (cluster.name !== 'default') doc['cluster'] = cluster.name;
  doc['name'] = path;
  if (Object.keys(metadata).length > 0) doc['custom_metadata'] = metadata;
  return doc;
}
