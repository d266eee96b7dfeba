import type { ResolvedDocument } from '../../load/document.js';
import type { Placement } from '../cluster/placement.js';

export const SNAPSHOT_POLICY_KIND = 'SnapshotPolicy';
export const SNAPSHOT_POLICY_SCHEMA_FILE = 'snapshot-policy.schema.json';
/** Resource type of one automated-snapshot configuration (Change.resourceType). */
export const SNAPSHOT_CONFIG = 'snapshot.config';

/**
 * A SnapshotPolicy document after schema validation, reference resolution and placement
 * (`cluster` and `namespace` always filled in by prepare). Config values are as written
 * (resolved); secret fields are Secret objects.
 */
type SnapshotPolicyData = Placement & {
  apiVersion: string;
  kind: typeof SNAPSHOT_POLICY_KIND;
  name: string;
  config: Record<string, unknown>;
  prune?: boolean;
};

export type SnapshotPolicyDocument = ResolvedDocument<SnapshotPolicyData>;

/** The documents as SnapshotPolicy documents (the schema has vouched for their shape). */
export function asSnapshotDocuments(docs: ReadonlyArray<ResolvedDocument>): SnapshotPolicyDocument[] {
  return docs as unknown as SnapshotPolicyDocument[];
}
