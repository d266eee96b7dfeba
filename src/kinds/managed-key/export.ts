import type { ClusterTarget } from '../../core/cluster.js';
import { jsonEqual } from '../../core/json.js';
import type { PlanNote } from '../../core/plan.js';
import type { ClusterClient } from '../../client/types.js';
import { addressableNames, listNames, readShaped } from '../live-read.js';
import { collectionAddress } from './addresses.js';
import { keyAttrs } from './attrs.js';
import { MANAGED_KEY_SHAPES } from './live-shapes.js';
import { comparedFieldsOf, REQUIRED_FIELDS, secretFieldsOf } from './fields.js';
import { KEY_TYPES, MANAGED_KEY_KIND, type KeyType } from './types.js';
import { EnvReference } from '../../load/manifest-writer.js';

/**
 * Every managed key of the cluster's namespace as one ManagedKey document each. Fields equal to
 * their defaults are left out (they are filled in again on load); secret fields the server
 * holds (it reads them back "redacted") become `${env:...}` references to fill in.
 */
export async function exportManagedKeys(client: ClusterClient, cluster: ClusterTarget, notes: PlanNote[] = []): Promise<Record<string, unknown>[]> {
  const perType = await Promise.all(
    KEY_TYPES.map(async (type) => {
      const collection = collectionAddress({ cluster: cluster.name, namespace: cluster.defaultNamespace ?? '' }, type);
      const names = addressableNames(await listNames(client, collection.path), collection, 'a managed key', notes).sort();
      const docs = await Promise.all(
        names.map(async (name) => {
          const data = await readShaped(client, collection.child(name).path, MANAGED_KEY_SHAPES[type]);
          return data ? exportKey(cluster, type, name, data) : undefined;
        }),
      );
      return docs.filter((d): d is Record<string, unknown> => d !== undefined);
    }),
  );
  return perType.flat().sort((a, b) => (String(a['name']) < String(b['name']) ? -1 : 1));
}

function exportKey(cluster: ClusterTarget, type: KeyType, name: string, data: Record<string, unknown>): Record<string, unknown> {
  const attrs = keyAttrs(type, data);
  const config: Record<string, unknown> = {};
  for (const spec of comparedFieldsOf(type)) {
    const value = attrs[spec.name];
    if (REQUIRED_FIELDS[type].includes(spec.name) || !jsonEqual(value, spec.default ?? '')) config[spec.name] = value;
  }
  for (const spec of secretFieldsOf(type)) {
    const held = data[spec.name] !== undefined && data[spec.name] !== null && data[spec.name] !== '';
    if (held || REQUIRED_FIELDS[type].includes(spec.name)) config[spec.name] = new EnvReference(envName(cluster.name, name, spec.name));
  }
  const doc: Record<string, unknown> = { apiVersion: 'lockstep/v1', kind: MANAGED_KEY_KIND };
  if (cluster.name !== 'default') doc['cluster'] = cluster.name;
  if (cluster.defaultNamespace) doc['namespace'] = cluster.defaultNamespace;
  doc['name'] = name;
  doc['type'] = type;
  doc['config'] = config;
  return doc;
}

/** `DEFAULT_HSM_SIGNING_PIN`: the variable an exported secret reference names. */
function envName(cluster: string, key: string, field: string): string {
  return [cluster, key, field].join('_').toUpperCase().replace(/[^A-Z0-9_]/g, '_');
}
