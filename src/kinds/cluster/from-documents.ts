import { DEFAULT_AUTH_MOUNT, type ClusterAuth, type ClusterTarget } from '../../core/cluster.js';
import { formatPos, type Diagnostics } from '../../core/diagnostics.js';
import { Secret } from '../../core/secret.js';
import type { ResolvedDocument } from '../../load/document.js';
import { apiPathProblem } from '../../core/path-segment.js';
import { parseCertificates } from '../../core/pem.js';
import { normaliseBaseUrl } from './base-url.js';
import type { ClusterCatalogue, KnownCluster } from './catalogue.js';
import { CLUSTER_NAME, type ClusterAuthData, type ClusterData } from './kind.js';

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

/**
 * The rules about single values of one Cluster document: its name, address, namespace and CA
 * certificates, each reported at its value; true when none failed. Any shape: prepare runs them
 * alone on what is left of a Cluster document that failed its schema or a reference
 * (validate/salvage.ts), as it runs KindModule.checkValues for the other kinds.
 */
export function checkClusterValues(doc: ResolvedDocument, diags: Diagnostics): boolean {
  const data = doc.data as Partial<Record<'name' | 'address' | 'namespace' | 'caCert', unknown>>;
  let ok = true;
  const problem = (field: string, message: string): void => {
    diags.error(`${field}: ${message}`, doc.source.pos([field]));
    ok = false;
  };
  if (typeof data.name === 'string' && !CLUSTER_NAME.test(data.name)) problem('name', 'may contain only letters, digits, "_", "." and "-"');
  if (typeof data.address === 'string') {
    const address = normaliseBaseUrl(data.address);
    if (typeof address !== 'string') problem('address', address.problem);
  }
  if (typeof data.namespace === 'string' && data.namespace !== '') {
    const nsProblem = apiPathProblem(data.namespace);
    if (nsProblem) problem('namespace', nsProblem);
  }
  if (typeof data.caCert === 'string') {
    const certificates = parseCertificates(data.caCert);
    if (!Array.isArray(certificates)) problem('caCert', certificates.problem);
  }
  return ok;
}

/** One document's ClusterTarget, or undefined when a field is invalid (reported). */
function clusterTarget(doc: ResolvedDocument, diags: Diagnostics): ClusterTarget | undefined {
  const data = doc.data as ClusterData;
  const ok = checkClusterValues(doc, diags);
  const address = normaliseBaseUrl(data.address);
  const auth = clusterAuth(data, doc, diags, data.namespace);
  if (!ok || typeof address !== 'string' || !auth) return undefined;
  return {
    name: data.name,
    address,
    auth,
    authSource: `Cluster document ${formatPos(doc.source.pos([data.auth !== undefined ? 'auth' : 'token']))}`,
    caCert: data.caCert,
    insecureSkipVerify: data.insecureSkipVerify === true || data.insecureSkipVerify === 'true',
    defaultNamespace: data.namespace === '' ? undefined : data.namespace,
  };
}

/** Which fields of `auth` each method reads. */
const METHOD_FIELDS: Record<ClusterAuthData['method'], readonly string[]> = {
  token: ['method', 'token'],
  jwt: ['method', 'role', 'jwt', 'mount', 'namespace'],
  approle: ['method', 'roleId', 'secretId', 'mount', 'namespace'],
};

/**
 * The document's ClusterAuth: `token` (today's form) or `auth`, exactly one; each field of
 * `auth` one its method reads; credentials references; mount and namespace addressable.
 * Undefined when a problem was reported.
 */
function clusterAuth(data: ClusterData, doc: ResolvedDocument, diags: Diagnostics, clusterNamespace: string | undefined): ClusterAuth | undefined {
  const fail = (path: string[], message: string): undefined => {
    diags.error(message, doc.source.pos(path));
    return undefined;
  };
  const secretAt = (path: string[], value: unknown): Secret | undefined =>
    value instanceof Secret ? value : fail(path, `${path.join('.')}: must be a \${env:...} or \${file:...} reference`);

  if (data.auth === undefined) {
    if (data.token === undefined) return fail([], 'missing required field "token" (or "auth", to log in with jwt or approle)');
    const token = secretAt(['token'], data.token);
    return token && { method: 'token', token };
  }
  if (data.token !== undefined) return fail(['token'], 'token: give either token or auth, not both (auth: {method: token, token: ...} is the same as token)');

  const auth = data.auth;
  const allowed = METHOD_FIELDS[auth.method];
  let ok = true;
  for (const field of Object.keys(auth)) {
    if (allowed.includes(field)) continue;
    // At the key, as an unknown field is reported.
    diags.error(`auth.${field}: not a field of method ${auth.method} (its fields: ${allowed.filter((f) => f !== 'method').join(', ')})`, doc.source.keyPos(['auth', field]));
    ok = false;
  }
  for (const field of ['mount', 'namespace'] as const) {
    const value = auth[field];
    const problem = value === undefined || (field === 'namespace' && value === '') ? undefined : apiPathProblem(value);
    if (problem) {
      fail(['auth', field], `auth.${field}: ${problem}`);
      ok = false;
    }
  }
  const namespace = auth.namespace ?? clusterNamespace;
  const where = namespace ? { namespace } : {};
  switch (auth.method) {
    case 'token': {
      const token = secretAt(['auth', 'token'], auth.token);
      return ok && token ? { method: 'token', token } : undefined;
    }
    case 'jwt': {
      const jwt = secretAt(['auth', 'jwt'], auth.jwt);
      const role = auth.role ?? '';
      if (role === '') fail(['auth', 'role'], 'auth.role: must not be empty');
      return ok && jwt && role !== '' ? { method: 'jwt', mount: auth.mount ?? DEFAULT_AUTH_MOUNT.jwt, role, jwt, ...where } : undefined;
    }
    case 'approle': {
      const roleId = secretAt(['auth', 'roleId'], auth.roleId);
      const secretId = secretAt(['auth', 'secretId'], auth.secretId);
      return ok && roleId && secretId ? { method: 'approle', mount: auth.mount ?? DEFAULT_AUTH_MOUNT.approle, roleId, secretId, ...where } : undefined;
    }
  }
}
