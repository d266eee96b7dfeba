import type { ClusterTarget } from '../../core/cluster.js';
import { formatPos, type Diagnostics } from '../../core/diagnostics.js';
import { Secret } from '../../core/secret.js';
import type { ResolvedDocument } from '../../load/document.js';
import { apiPathProblem } from '../../core/path-segment.js';
import { parseCertificates } from '../../core/pem.js';
import { normaliseBaseUrl } from './base-url.js';
import type { ClusterCatalogue, KnownCluster } from './catalogue.js';
import { CLUSTER_NAME, type ClusterData } from './kind.js';

/**
 * The clusters defined by `Cluster` documents (schema-valid, references resolved). `brokenNames`
 * are the names of Cluster documents that failed earlier checks: still known, so documents
 * naming them get no second error.
 */
export function clustersFromDocuments(
  docs: ReadonlyArray<ResolvedDocument>,
  brokenNames: ReadonlyArray<KnownCluster>,
  diags: Diagnostics,
): ClusterCatalogue {
  const known = new Map<string, KnownCluster>();
  const targets = new Map<string, ClusterTarget>();
  for (const doc of docs) {
    const data = doc.data as ClusterData;
    const previous = known.get(data.name);
    if (previous) {
      diags.error(
        `name: cluster "${data.name}" is already defined at ${previous.declaredAt ? formatPos(previous.declaredAt()) : 'another document'}`,
        doc.source.pos(['name']),
      );
      continue;
    }
    const target = clusterTarget(doc, diags);
    known.set(data.name, { name: data.name, defaultNamespace: data.namespace ?? '', declaredAt: () => doc.source.pos([]) });
    if (target) targets.set(data.name, target);
  }
  for (const broken of brokenNames) if (!known.has(broken.name)) known.set(broken.name, broken);
  return { known, targets };
}

/** One document's ClusterTarget, or undefined when a field is invalid (reported). */
function clusterTarget(doc: ResolvedDocument, diags: Diagnostics): ClusterTarget | undefined {
  const data = doc.data as ClusterData;
  const at = (field: string) => doc.source.pos([field]);
  let ok = true;
  const problem = (field: string, message: string): void => {
    diags.error(`${field}: ${message}`, at(field));
    ok = false;
  };
  if (!CLUSTER_NAME.test(data.name)) problem('name', 'may contain only letters, digits, "_", "." and "-"');
  const address = normaliseBaseUrl(data.address);
  if (typeof address !== 'string') problem('address', address.problem);
  if (data.namespace !== undefined && data.namespace !== '') {
    const nsProblem = apiPathProblem(data.namespace);
    if (nsProblem) problem('namespace', nsProblem);
  }
  if (data.caCert !== undefined) {
    const certificates = parseCertificates(data.caCert);
    if (!Array.isArray(certificates)) problem('caCert', certificates.problem);
  }
  const token = data.token instanceof Secret ? data.token : undefined;
  if (!token) problem('token', 'must be a ${env:...} or ${file:...} reference');
  if (!ok || typeof address !== 'string' || !token) return undefined;
  return {
    name: data.name,
    address,
    token,
    caCert: data.caCert,
    insecureSkipVerify: data.insecureSkipVerify === true || data.insecureSkipVerify === 'true',
    defaultNamespace: data.namespace === '' ? undefined : data.namespace,
  };
}
