import { namespaceCollection, parentNamespace } from '../../core/namespace-path.js';
import type { DesiredState } from '../../core/resource.js';
import type { ResolvedDocument } from '../../load/document.js';
import { asNamespaceDocuments, NAMESPACE_KIND, type NamespaceDocument } from './types.js';

/**
 * The namespaces the manifests of a run declare (Namespace documents), per cluster, and which
 * of their parents' collections a prune would empty of undeclared namespaces. The checks before
 * a plan (commands/namespaces.ts) take a declared namespace as present: apply creates it before
 * anything in it (order/order.ts).
 */
export class DeclaredNamespaces {
  readonly #docs = new Map<string, NamespaceDocument>();
  readonly #pruned = new Set<string>();

  constructor(documents: ReadonlyMap<string, readonly ResolvedDocument[]>, desired: ReadonlyMap<string, DesiredState>) {
    for (const doc of asNamespaceDocuments(documents.get(NAMESPACE_KIND) ?? [])) this.#docs.set(key(doc.data.cluster, doc.data.name), doc);
    for (const collection of desired.get(NAMESPACE_KIND)?.collections ?? []) {
      if (collection.prune) this.#pruned.add(collection.address.toString());
    }
  }

  /** The Namespace documents, in load order. */
  get documents(): NamespaceDocument[] {
    return [...this.#docs.values()];
  }

  has(cluster: string, namespace: string): boolean {
    return this.#docs.has(key(cluster, namespace));
  }

  /**
   * The first namespace on the way to `namespace` (itself included) that no document declares
   * but that a prune of its parent's collection would delete: a document in it would be
   * written into a namespace the same apply deletes.
   */
  prunedOnTheWay(cluster: string, namespace: string): string | undefined {
    const segments = namespace.split('/');
    for (let i = 1; i <= segments.length; i++) {
      const step = segments.slice(0, i).join('/');
      if (!this.has(cluster, step) && this.#pruned.has(namespaceCollection(cluster, parentNamespace(step)).toString())) return step;
    }
    return undefined;
  }
}

function key(cluster: string, namespace: string): string {
  return JSON.stringify([cluster, namespace]);
}
