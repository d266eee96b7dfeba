import type { ResolvedDocument } from '../../load/document.js';
import type { Secret } from '../../core/secret.js';

export const DR_REPLICATION_KIND = 'DrReplication';
export const DR_REPLICATION_SCHEMA_FILE = 'dr-replication.schema.json';

/** The desired replication set (one per document), at `<primary>:sys/replication/dr`. */
export const DR_SET = 'dr.set';
/** One cluster's DR status as read (`<cluster>:sys/replication/dr/status`). */
export const DR_STATUS = 'dr.status';
/** One step of a DR transition (enable, demote, promote, ...). */
export const DR_STEP = 'dr.transition';

/** Activation-token TTL when the document gives none (the spec's default). */
export const DEFAULT_SECONDARY_TOKEN_TTL_SECONDS = 30 * 60;

/** A secondary as written: a cluster name, or the name with its activation options. */
export type SecondaryEntry =
  | string
  | { cluster: string; primary_api_addr?: string; ca_file?: string; ca_path?: string };

/** A DrReplication document after schema validation and reference resolution. */
export interface DrReplicationData {
  apiVersion: string;
  kind: typeof DR_REPLICATION_KIND;
  name: string;
  primary: string;
  secondaries?: SecondaryEntry[];
  primaryClusterAddr?: string;
  /** cluster → DR operation token (Secret once resolved). */
  operationTokens?: Record<string, Secret>;
  /** Root key shares (Secrets once resolved). */
  keyShares?: Secret[];
  secondaryTokenTtl?: string | number;
  /** Rules of the spec accepted for this set (release-order.ts SKEW_ACKNOWLEDGEMENT). */
  acknowledge?: string[];
}

export type DrReplicationDocument = ResolvedDocument<DrReplicationData>;

/** Options a secondary is activated with (empty strings: not given). */
export interface SecondaryOptions {
  primary_api_addr: string;
  ca_file: string;
  ca_path: string;
}

/** One desired secondary, normalised. */
export interface DesiredSecondary extends SecondaryOptions {
  cluster: string;
}

/** The comparable attributes of a `dr.set` desired resource. */
export interface DrSetAttrs {
  name: string;
  primary: string;
  secondaries: DesiredSecondary[];
  primaryClusterAddr: string;
  /** Seconds. */
  secondaryTokenTtl: number;
  /**
   * Known clusters that no DrReplication document names. They are read too: a former member
   * (or an old primary dropped from the manifest) must be found to be removed or counted.
   */
  unassignedClusters: string[];
  /** The document's acknowledge list: refusals it turns into warnings. */
  acknowledge: string[];
}

export function asDrDocuments(docs: ReadonlyArray<ResolvedDocument>): DrReplicationDocument[] {
  return docs as unknown as DrReplicationDocument[];
}

/** The cluster name of a secondary entry. */
export function secondaryCluster(entry: SecondaryEntry): string {
  return typeof entry === 'string' ? entry : entry.cluster;
}
