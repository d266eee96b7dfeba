import type { JsonObject } from '../../core/json.js';
import { NAMESPACE_RESOURCE_TYPE, namespaceAddress, namespaceCollection, parentNamespace } from '../../core/namespace-path.js';
import type { DesiredResource, DesiredState, ManagedCollection } from '../../core/resource.js';
import type { ResolvedDocument } from '../../load/document.js';
import type { KindContext } from '../kind.js';
import { asNamespaceDocuments, groupBySiblings, type NamespaceDocument } from './types.js';

/**
 * The desired namespaces (valid, placed): one `namespace` object per document, depending on its
 * parent's when that is declared too; and per cluster and parent the collection of child
 * namespaces (`<parent/>sys/namespaces`), pruned when `--prune` or one of its documents says
 * `prune: true` (the rules make them agree). Inputs are not mutated.
 */
export function desiredNamespaces(docs: ReadonlyArray<ResolvedDocument>, ctx: KindContext): DesiredState {
  const namespaceDocs = asNamespaceDocuments(docs);
  const resources: DesiredResource[] = [];
  const collections: ManagedCollection[] = [];
  for (const group of groupBySiblings(namespaceDocs)) {
    resources.push(...group.docs.map(desiredNamespace));
    collections.push({
      address: namespaceCollection(group.cluster, group.parent),
      memberType: NAMESPACE_RESOURCE_TYPE,
      prune: ctx.prune || group.docs.some((d) => d.data.prune === true),
      // Only an empty namespace is pruned (plan.ts refuses any other): nothing is lost.
      deleteLoses: undefined,
    });
  }
  return { resources, collections };
}

function desiredNamespace(doc: NamespaceDocument): DesiredResource {
  const { cluster, name } = doc.data;
  const parent = parentNamespace(name);
  return {
    address: namespaceAddress(cluster, name),
    resourceType: NAMESPACE_RESOURCE_TYPE,
    attrs: namespaceAttrs(doc.data.custom_metadata),
    writeOnly: {},
    sensitiveFields: [],
    // A parent declared in the run is made first; one that is not must exist already (commands/namespaces.ts).
    dependsOn: parent === '' ? [] : [namespaceAddress(cluster, parent)],
  };
}

/**
 * The comparable fields of a namespace, manifest or live: its custom metadata as the service
 * stores it, a map of strings (none is `{}`), keys sorted.
 */
export function namespaceAttrs(customMetadata: Readonly<Record<string, string>> | null | undefined): JsonObject {
  const metadata: Record<string, string> = {};
  for (const key of Object.keys(customMetadata ?? {}).sort()) metadata[key] = customMetadata![key]!;
  return { custom_metadata: metadata };
}
