import { parentNamespace } from '../../core/namespace-path.js';
import type { ResolvedDocument } from '../../load/document.js';
import type { Placement } from '../cluster/placement.js';

export const NAMESPACE_KIND = 'Namespace';
export const NAMESPACE_SCHEMA_FILE = 'namespace.schema.json';

/**
 * A Namespace document after schema validation, reference resolution and placement. `name` is
 * the namespace's whole path from the root (`team-a`, `team-a/apps`), as other documents'
 * `namespace` field names it; placement's `namespace` (a cluster's default) does not apply.
 */
type NamespaceData = Placement & {
  apiVersion: string;
  kind: typeof NAMESPACE_KIND;
  name: string;
  custom_metadata?: Record<string, string>;
  prune?: boolean;
};

export type NamespaceDocument = ResolvedDocument<NamespaceData>;

/** The documents as Namespace documents (the schema has vouched for their shape). */
export function asNamespaceDocuments(docs: ReadonlyArray<ResolvedDocument>): NamespaceDocument[] {
  return docs as unknown as NamespaceDocument[];
}

/** The namespaces of one cluster that share a parent: one collection (`<parent/>sys/namespaces`). */
export interface SiblingGroup {
  cluster: string;
  /** '' for the root namespace. */
  parent: string;
  /** In load order. */
  docs: NamespaceDocument[];
}

/** Groups documents by cluster and parent, in order of first appearance. */
export function groupBySiblings(docs: readonly NamespaceDocument[]): SiblingGroup[] {
  const groups = new Map<string, SiblingGroup>();
  for (const doc of docs) {
    const { cluster, name } = doc.data;
    const parent = parentNamespace(name);
    const key = JSON.stringify([cluster, parent]);
    let group = groups.get(key);
    if (!group) {
      group = { cluster, parent, docs: [] };
      groups.set(key, group);
    }
    group.docs.push(doc);
  }
  return [...groups.values()];
}
