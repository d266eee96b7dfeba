import { Diagnostics } from '../core/diagnostics.js';
import { parentNamespace } from '../core/namespace-path.js';
import { DeclaredNamespaces } from '../kinds/namespace/declared.js';
import type { Prepared } from '../validate/types.js';
import type { ClientPool } from '../kinds/kind.js';

/** The namespaces the run's Namespace documents declare (present for the checks below). */
function declaredNamespaces(prepared: Pick<Prepared, 'documents' | 'desired'>): DeclaredNamespaces {
  return new DeclaredNamespaces(prepared.documents, prepared.desired);
}

/**
 * The namespaces the manifests address that do not exist on their clusters, as diagnostics at
 * each document's `namespace:` (a Namespace document's parent, at its `name:`). A namespace
 * exists once created (sys/namespaces) or when a Namespace document of the run declares it
 * (apply creates it first); requests into a missing one are not served: a typo would otherwise
 * plan creations that fail at apply. A document in an undeclared namespace that a prune of
 * Namespace documents would delete is refused too. Each (cluster, namespace) is asked once,
 * parents first; an answer other than found / not found (say a token that may not read the
 * parent) leaves it unchecked.
 */
export async function missingNamespaces(prepared: Prepared, pool: ClientPool, declared: DeclaredNamespaces = declaredNamespaces(prepared)): Promise<Diagnostics> {
  const diags = new Diagnostics();
  const known = new Map<string, Promise<boolean | undefined>>();
  const exists = (cluster: string, namespace: string): Promise<boolean | undefined> => {
    if (namespace === '' || declared.has(cluster, namespace)) return Promise.resolve(true);
    const key = `${cluster}\0${namespace}`;
    let answer = known.get(key);
    if (!answer) {
      answer = namespaceExists(pool, cluster, namespace, exists);
      known.set(key, answer);
    }
    return answer;
  };
  const checks: Array<Promise<void>> = [];
  for (const [kind, docs] of prepared.documents) {
    if (kind === 'Cluster' || kind === 'Namespace') continue;
    for (const doc of docs) {
      const { cluster, namespace } = doc.data as { cluster?: unknown; namespace?: unknown };
      if (typeof cluster !== 'string' || typeof namespace !== 'string' || namespace === '') continue;
      const pruned = declared.prunedOnTheWay(cluster, namespace);
      if (pruned !== undefined) {
        diags.error(
          `namespace "${pruned}" is declared by no Namespace document, and the Namespace documents of cluster "${cluster}" prune the namespaces none declares: declare it (kind: Namespace, name: ${pruned}) or leave prune off`,
          doc.source.pos(['namespace']),
        );
        continue;
      }
      checks.push(
        exists(cluster, namespace).then((found) => {
          if (found !== false) return;
          diags.error(
            `namespace "${namespace}" does not exist on cluster "${cluster}"; declare it (kind: Namespace, name: ${namespace}) or create it first (POST sys/namespaces/${namespace})`,
            doc.source.pos(['namespace']),
          );
        }),
      );
    }
  }
  for (const doc of declared.documents) {
    const { cluster, name } = doc.data;
    const parent = parentNamespace(name);
    checks.push(
      exists(cluster, parent).then((found) => {
        if (found !== false) return;
        diags.error(`parent namespace "${parent}" does not exist on cluster "${cluster}"; declare it (kind: Namespace, name: ${parent}) or create it first`, doc.source.pos(['name']));
      }),
    );
  }
  await Promise.all(checks);
  return diags;
}

async function namespaceExists(
  pool: ClientPool,
  cluster: string,
  namespace: string,
  exists: (cluster: string, namespace: string) => Promise<boolean | undefined>,
): Promise<boolean | undefined> {
  const parent = parentNamespace(namespace);
  if (parent !== '') {
    const parentFound = await exists(cluster, parent);
    if (parentFound !== true) return parentFound;
  }
  try {
    const entry = await pool.get(cluster).read(`${parent ? `${parent}/` : ''}sys/namespaces/${namespace.slice(namespace.lastIndexOf('/') + 1)}`);
    return entry !== null;
  } catch {
    return undefined;
  }
}
