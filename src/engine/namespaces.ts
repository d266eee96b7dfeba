import { Diagnostics } from '../core/diagnostics.js';
import type { Prepared } from '../validate/types.js';
import type { ClientPool } from '../kinds/kind.js';

/**
 * The namespaces the manifests address that do not exist on their clusters, as diagnostics at
 * each document's `namespace:`. A namespace exists only once created (sys/namespaces), and
 * requests into a missing one are not served: a typo would otherwise plan creations that
 * fail at apply. Each (cluster, namespace) is asked once, parents first; an answer other than
 * found / not found (say a token that may not read the parent) leaves it unchecked.
 */
export async function missingNamespaces(prepared: Prepared, pool: ClientPool): Promise<Diagnostics> {
  const diags = new Diagnostics();
  const known = new Map<string, Promise<boolean | undefined>>();
  const exists = (cluster: string, namespace: string): Promise<boolean | undefined> => {
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
    if (kind === 'Cluster') continue;
    for (const doc of docs) {
      const { cluster, namespace } = doc.data as { cluster?: unknown; namespace?: unknown };
      if (typeof cluster !== 'string' || typeof namespace !== 'string' || namespace === '') continue;
      checks.push(
        exists(cluster, namespace).then((found) => {
          if (found !== false) return;
          diags.error(
            `namespace "${namespace}" does not exist on cluster "${cluster}"; create it first (POST sys/namespaces/${namespace})`,
            doc.source.pos(['namespace']),
          );
        }),
      );
    }
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
  const at = namespace.lastIndexOf('/');
  const parent = at === -1 ? '' : namespace.slice(0, at);
  if (parent !== '') {
    const parentFound = await exists(cluster, parent);
    if (parentFound !== true) return parentFound;
  }
  try {
    const entry = await pool.get(cluster).read(`${parent ? `${parent}/` : ''}sys/namespaces/${namespace.slice(at + 1)}`);
    return entry !== null;
  } catch {
    return undefined;
  }
}
