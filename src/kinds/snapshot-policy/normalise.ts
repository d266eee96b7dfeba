import type { DesiredResource, DesiredState, ManagedCollection } from '../../core/resource.js';
import type { Secret } from '../../core/secret.js';
import type { ResolvedDocument } from '../../load/document.js';
import type { KindContext } from '../kind.js';
import { configAddress, configCollection } from './addresses.js';
import { snapshotAttrs } from './attrs.js';
import { isStorageType, secretFieldsOf } from './fields.js';
import { groupByScope, scopeOf } from './policies.js';
import { asSnapshotDocuments, SNAPSHOT_CONFIG, type SnapshotPolicyDocument } from './types.js';

/**
 * The desired objects of all SnapshotPolicy documents (valid, placed): one `snapshot.config`
 * per document, and per cluster the collection of configurations (root namespace), pruned when
 * `--prune` or any of its documents says `prune: true` (the rules make them agree).
 * Inputs are not mutated.
 */
export function desiredSnapshotPolicies(docs: ReadonlyArray<ResolvedDocument>, ctx: KindContext): DesiredState {
  const resources: DesiredResource[] = [];
  const collections: ManagedCollection[] = [];
  for (const group of groupByScope(asSnapshotDocuments(docs))) {
    resources.push(...group.docs.map(desiredConfig));
    collections.push({
      address: configCollection(group.scope),
      memberType: SNAPSHOT_CONFIG,
      prune: ctx.prune || group.docs.some((d) => d.data.prune === true),
    });
  }
  return { resources, collections };
}

function desiredConfig(doc: SnapshotPolicyDocument): DesiredResource {
  const { name, config } = doc.data;
  const type = config['storage_type'];
  const secretFields = isStorageType(type) ? secretFieldsOf(type).map((f) => f.name) : [];
  const writeOnly: Record<string, Secret | string> = {};
  for (const field of secretFields) {
    const value = config[field];
    if (value !== undefined && value !== null) writeOnly[field] = value as Secret;
  }
  return {
    address: configAddress(scopeOf(doc), name),
    resourceType: SNAPSHOT_CONFIG,
    attrs: snapshotAttrs(config),
    writeOnly,
    sensitiveFields: [...secretFields].sort(),
    dependsOn: [],
  };
}
