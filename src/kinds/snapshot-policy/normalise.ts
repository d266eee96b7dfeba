import type { DesiredResource, DesiredState, ManagedCollection } from '../../core/resource.js';
import type { ResolvedDocument } from '../../load/document.js';
import type { KindContext } from '../kind.js';
import { writeOnlyValues } from '../write-only.js';
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
      // A schedule goes; the snapshots it took stay where they are.
      deleteLoses: undefined,
    });
  }
  return { resources, collections };
}

function desiredConfig(doc: SnapshotPolicyDocument): DesiredResource {
  const { name, config } = doc.data;
  const type = config['storage_type'];
  const secretFields = isStorageType(type) ? secretFieldsOf(type).map((f) => f.name) : [];
  // A write replaces the whole configuration, so a credential cannot be kept by leaving it
  // out: one the manifest does not set is sent empty and shown as cleared.
  const writeOnly = writeOnlyValues(config, secretFields, undefined);
  return {
    address: configAddress(scopeOf(doc), name),
    resourceType: SNAPSHOT_CONFIG,
    attrs: snapshotAttrs(config),
    writeOnly,
    sensitiveFields: [...secretFields].sort(),
    dependsOn: [],
  };
}
