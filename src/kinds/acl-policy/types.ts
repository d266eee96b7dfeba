import type { ResolvedDocument } from '../../load/document.js';
import type { Placement } from '../cluster/placement.js';

export const ACL_POLICY_KIND = 'AclPolicy';
export const ACL_POLICY_SCHEMA_FILE = 'acl-policy.schema.json';

/**
 * An AclPolicy document after schema validation, reference resolution and placement (`cluster`
 * and `namespace` filled in by prepare). `name` as written (the service lower-cases it: see
 * names.ts); `policy` the text as written.
 */
type AclPolicyData = Placement & {
  apiVersion: string;
  kind: typeof ACL_POLICY_KIND;
  name: string;
  policy: string;
  prune?: boolean;
};

export type AclPolicyDocument = ResolvedDocument<AclPolicyData>;

/** The documents as AclPolicy documents (the schema has vouched for their shape). */
export function asAclPolicyDocuments(docs: ReadonlyArray<ResolvedDocument>): AclPolicyDocument[] {
  return docs as unknown as AclPolicyDocument[];
}

/** The AclPolicy documents of one cluster and namespace: one collection (`<ns/>sys/policies/acl`). */
export interface PolicyScope {
  cluster: string;
  /** '' for the root namespace. */
  namespace: string;
  /** In load order. */
  docs: AclPolicyDocument[];
}

/** Groups documents by cluster and namespace, in order of first appearance. */
export function groupByScope(docs: readonly AclPolicyDocument[]): PolicyScope[] {
  const groups = new Map<string, PolicyScope>();
  for (const doc of docs) {
    const { cluster, namespace } = doc.data;
    const key = JSON.stringify([cluster, namespace]);
    let group = groups.get(key);
    if (!group) {
      group = { cluster, namespace, docs: [] };
      groups.set(key, group);
    }
    group.docs.push(doc);
  }
  return [...groups.values()];
}
