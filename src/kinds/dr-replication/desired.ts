import type { JsonObject } from '../../core/json.js';
import type { DesiredResource, DesiredState } from '../../core/resource.js';
import { isSecret, Secret } from '../../core/secret.js';
import type { ResolvedDocument } from '../../load/document.js';
import type { KindContext } from '../kind.js';
import { setAddress } from './addresses.js';
import { durationSeconds } from '../../values/index.js';
import { keyShareKey, operationTokenKey } from './secrets.js';
import { normaliseShare } from './shares.js';
import {
  asDrDocuments,
  DEFAULT_SECONDARY_TOKEN_TTL_SECONDS,
  DR_SET,
  secondaryCluster,
  type DesiredSecondary,
  type DrReplicationDocument,
  type DrSetAttrs,
  type SecondaryEntry,
} from './types.js';

/**
 * One `dr.set` per document at `<primary>:sys/replication/dr`: the roles as comparable attrs,
 * the operation tokens and key shares as write-only Secrets. Inputs are not mutated.
 */
export function desiredDrReplication(docs: ReadonlyArray<ResolvedDocument>, ctx: KindContext): DesiredState {
  const drDocs = asDrDocuments(docs);
  const assigned = new Set(drDocs.flatMap((d) => [d.data.primary, ...(d.data.secondaries ?? []).map(secondaryCluster)]));
  const unassigned = [...ctx.clusters.keys()].filter((c) => !assigned.has(c)).sort();
  return { resources: drDocs.map((doc) => desiredSet(doc, unassigned)), collections: [] };
}

function desiredSet(doc: DrReplicationDocument, unassignedClusters: string[]): DesiredResource {
  const d = doc.data;
  const attrs: DrSetAttrs = {
    name: d.name,
    primary: d.primary,
    secondaries: (d.secondaries ?? []).map(normaliseSecondary),
    primaryClusterAddr: d.primaryClusterAddr ?? '',
    secondaryTokenTtl: durationSeconds(d.secondaryTokenTtl ?? DEFAULT_SECONDARY_TOKEN_TTL_SECONDS) ?? DEFAULT_SECONDARY_TOKEN_TTL_SECONDS,
    unassignedClusters,
    acknowledge: [...(d.acknowledge ?? [])].sort(),
  };
  const writeOnly: Record<string, Secret> = {};
  for (const [cluster, token] of Object.entries(d.operationTokens ?? {})) {
    if (isSecret(token)) writeOnly[operationTokenKey(cluster)] = token;
  }
  (d.keyShares ?? []).forEach((share, i) => {
    if (isSecret(share)) writeOnly[keyShareKey(i)] = new Secret(normaliseShare(share.reveal()), share.origin);
  });
  return {
    address: setAddress(d.primary),
    resourceType: DR_SET,
    attrs: attrs as unknown as JsonObject,
    writeOnly,
    sensitiveFields: Object.keys(writeOnly).sort(),
    dependsOn: [],
  };
}

function normaliseSecondary(entry: SecondaryEntry): DesiredSecondary {
  if (typeof entry === 'string') return { cluster: entry, primary_api_addr: '', ca_file: '', ca_path: '' };
  return { cluster: entry.cluster, primary_api_addr: entry.primary_api_addr ?? '', ca_file: entry.ca_file ?? '', ca_path: entry.ca_path ?? '' };
}

/** A `dr.set`'s attrs, as desiredDrReplication built them. */
export function setAttrsOf(attrs: JsonObject): DrSetAttrs {
  return attrs as unknown as DrSetAttrs;
}
