import { formatPos, type Diagnostics, type SourcePos } from '../../core/diagnostics.js';
import { isSecret } from '../../core/secret.js';
import type { ResolvedDocument, ValuePath } from '../../load/document.js';
import { atPath, formatValuePath } from '../../load/value-path.js';
import type { KindContext } from '../kind.js';
import { readDuration } from '../../values/index.js';
import { listNames } from './sequence-builder.js';
import { shareEncoding } from './shares.js';
import { asDrDocuments, secondaryCluster, type DrReplicationDocument } from './types.js';

/**
 * The DrReplication rules, each reported at the value it is about: clusters exist, a cluster
 * appears once per set and in one set only, a primary is never its own secondary, and every
 * cluster that may need a DR operation token has one (or key shares can make one).
 */
export function validateDrReplication(docs: ReadonlyArray<ResolvedDocument>, diags: Diagnostics, ctx: KindContext): void {
  const owners = new Map<string, { set: string; at: () => SourcePos }>();
  const setNames = new Map<string, () => SourcePos>();
  for (const doc of asDrDocuments(docs)) {
    const d = doc.data;
    const err = (path: ValuePath, message: string): void => diags.error(atPath(path, message), doc.source.pos(path));

    const firstName = setNames.get(d.name);
    if (firstName) err(['name'], `replication set "${d.name}" is already declared at ${formatPos(firstName())}`);
    else setNames.set(d.name, () => doc.source.pos(['name']));

    const known = (cluster: string, path: ValuePath): boolean => {
      if (ctx.clusters.has(cluster)) return true;
      err(path, `unknown cluster "${cluster}"; known clusters: ${[...ctx.clusters.keys()].join(', ') || '(none)'}`);
      return false;
    };
    const claim = (cluster: string, path: ValuePath): void => {
      const owner = owners.get(cluster);
      if (owner && owner.set !== d.name) {
        err(path, `${cluster} is already in replication set "${owner.set}" (${formatPos(owner.at())}); a cluster belongs to one replication set`);
      } else if (!owner) {
        owners.set(cluster, { set: d.name, at: () => doc.source.pos(path) });
      }
    };

    if (known(d.primary, ['primary'])) claim(d.primary, ['primary']);
    const inSet = new Map<string, ValuePath>([[d.primary, ['primary']]]);
    (d.secondaries ?? []).forEach((entry, i) => {
      const path: ValuePath = typeof entry === 'string' ? ['secondaries', i] : ['secondaries', i, 'cluster'];
      const cluster = secondaryCluster(entry);
      if (!known(cluster, path)) return;
      if (cluster === d.primary) return err(path, `${cluster} is the primary of set "${d.name}"; a primary is never its own secondary`);
      const first = inSet.get(cluster);
      if (first) return err(path, `${cluster} appears twice in set "${d.name}" (also at ${formatValuePath(first)})`);
      inSet.set(cluster, path);
      claim(cluster, path);
      if (typeof entry !== 'string' && entry.primary_api_addr) checkUrl(entry.primary_api_addr, [...path.slice(0, -1), 'primary_api_addr'], err);
    });

    for (const cluster of Object.keys(d.operationTokens ?? {})) known(cluster, ['operationTokens', cluster]);
    checkTokenSources(doc, err);
    checkValueRules(doc, err);
  }
}

/**
 * The rules about single values of one document (KindModule.checkValues): its key shares, its
 * token TTL and the primary's cluster address. Any shape.
 */
export function checkDrValues(source: ResolvedDocument, diags: Diagnostics): void {
  const doc = asDrDocuments([source])[0]!;
  checkValueRules(doc, (path, message) => diags.error(atPath(path, message), doc.source.pos(path)));
}

function checkValueRules(doc: DrReplicationDocument, err: (path: ValuePath, message: string) => void): void {
  const d = doc.data;
  (d.keyShares ?? []).forEach((share, i) => {
    const text = isSecret(share) ? share.reveal() : String(share);
    if (!shareEncoding(text)) err(['keyShares', i], 'a root key share must be hex or base64');
  });
  if (d.secondaryTokenTtl !== undefined) {
    const read = readDuration(d.secondaryTokenTtl);
    if (read.kind === 'refused' || read.value.truncated || read.value.seconds === 0) err(['secondaryTokenTtl'], 'must be a positive duration in whole seconds (e.g. 30m)');
  }
  if (d.primaryClusterAddr) checkUrl(d.primaryClusterAddr, ['primaryClusterAddr'], err);
}

/**
 * Each secondary may need its DR operation token at any time (a failover to it, update-primary
 * after a failover, its removal). The primary's own token is checked when a plan needs it.
 */
function checkTokenSources(doc: DrReplicationDocument, err: (path: ValuePath, message: string) => void): void {
  const d = doc.data;
  const secondaries = (d.secondaries ?? []).map(secondaryCluster);
  if (secondaries.length === 0 || (d.keyShares?.length ?? 0) > 0) return;
  if (d.operationTokens === undefined) {
    err(['secondaries'], 'neither operationTokens nor keyShares is given: a failover, a change of primary or a removal needs each secondary\'s DR operation token');
    return;
  }
  const missing = secondaries.filter((s) => !(s in d.operationTokens!));
  if (missing.length > 0) {
    err(
      ['operationTokens'],
      `no DR operation token for ${listNames(missing)}, which ${missing.length === 1 ? 'needs one' : 'need one'} for a failover or a change of primary; add ${missing.length === 1 ? 'it' : 'them'} or give keyShares`,
    );
  }
}

function checkUrl(value: string, path: ValuePath, err: (path: ValuePath, message: string) => void): void {
  try {
    const url = new URL(value);
    if (url.host === '') err(path, 'must be an address with a host, e.g. https://east.example.com:8201');
  } catch {
    err(path, 'must be an address such as https://east.example.com:8201');
  }
}
