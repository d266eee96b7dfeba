import type { ClusterTarget } from '../../core/cluster.js';
import { jsonEqual, type JsonObject, type JsonValue } from '../../core/json.js';
import type { PlanNote } from '../../core/plan.js';
import type { ClusterClient } from '../../client/types.js';
import { configCollection } from './addresses.js';
import { addressableNames, listNames, readShaped } from '../live-read.js';
import { snapshotAttrs } from './attrs.js';
import { SNAPSHOT_CONFIG_SHAPE } from './live-shapes.js';
import { isStorageType, secretFieldsOf, snapshotFieldSpec } from './fields.js';
import { withSudoHint } from './sudo.js';
import { SNAPSHOT_POLICY_KIND } from './types.js';
import { formatBytesExact, formatDurationExact } from '../../values/index.js';
import { EnvReference } from '../../load/manifest-writer.js';

/**
 * Every snapshot configuration of the cluster (they live in the root namespace) as one
 * SnapshotPolicy document each. Optional fields at their defaults are left out (filled in again on load);
 * intervals and sizes are written the way people write them (`24h`, `10GiB`). Credentials the
 * server holds (read back as "redacted") become `${env:...}` references to fill in.
 */
export async function exportSnapshotPolicies(client: ClusterClient, cluster: ClusterTarget, notes: PlanNote[] = []): Promise<Record<string, unknown>[]> {
  const scope = { cluster: cluster.name, namespace: '' };
  const collection = configCollection(scope);
  const listed = await withSudoHint(cluster.name, () => listNames(client, collection.path));
  const names = addressableNames(listed, collection, 'a snapshot policy', notes);
  const docs = await Promise.all(
    names.sort().map(async (name) => {
      const data = await withSudoHint(cluster.name, () => readShaped(client, collection.child(name).path, SNAPSHOT_CONFIG_SHAPE));
      return data ? exportDocument(cluster, name, data) : undefined;
    }),
  );
  return docs.filter((d): d is Record<string, unknown> => d !== undefined);
}

/** One live configuration as a manifest document. */
export function exportDocument(cluster: ClusterTarget, name: string, data: JsonObject): Record<string, unknown> {
  const attrs = snapshotAttrs(data);
  const config: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(attrs)) {
    const spec = snapshotFieldSpec(field);
    if (!spec || (spec.default !== undefined && jsonEqual(value, spec.default))) continue;
    config[field] = writtenForm(field, value);
  }
  const type = attrs['storage_type'];
  for (const spec of isStorageType(type) ? secretFieldsOf(type) : []) {
    const held = typeof data[spec.name] === 'string' && data[spec.name] !== '';
    if (held || spec.required) config[spec.name] = new EnvReference(envName(cluster.name, name, spec.name));
  }
  const doc: Record<string, unknown> = { apiVersion: 'lockstep/v1', kind: SNAPSHOT_POLICY_KIND };
  if (cluster.name !== 'default') doc['cluster'] = cluster.name;
  doc['name'] = name;
  doc['config'] = config;
  return doc;
}

function writtenForm(field: string, value: JsonValue): unknown {
  if (field === 'interval' && typeof value === 'number') return formatDurationExact(value);
  if (field === 'local_max_space' && typeof value === 'number') return formatBytesExact(value);
  return value;
}

/** `EAST_SNAPSHOT_HOURLY_PROVA_SECRET_ACCESS_KEY` */
export function envName(cluster: string, name: string, field: string): string {
  return [cluster, 'snapshot', name, field].join('_').toUpperCase().replace(/[^A-Z0-9_]/g, '_');
}
