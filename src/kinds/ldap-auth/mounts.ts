import { boolOf } from '../../values/index.js';
import { groupByAuthMount, type AuthMountGroup } from '../auth-mount/mounts.js';
import { DEFAULT_MOUNT, type LdapAuthDocument } from './types.js';

/** All LdapAuth documents of one cluster + namespace + mount: they merge into one method. */
export interface MountGroup extends AuthMountGroup<LdapAuthDocument> {
  /** The first document with `config` (rules refuse a second one). */
  configDoc?: LdapAuthDocument;
  /** From that config; names are lower-cased unless true. Default false. */
  caseSensitiveNames: boolean;
}

/** Groups documents by cluster, namespace and mount, in order of first appearance. */
export function groupByMount(docs: readonly LdapAuthDocument[]): MountGroup[] {
  return groupByAuthMount(docs, DEFAULT_MOUNT).map((group) => {
    const configDoc = group.docs.find((doc) => doc.data.config !== undefined);
    if (configDoc === undefined) return { ...group, caseSensitiveNames: false };
    return { ...group, configDoc, caseSensitiveNames: boolOf(configDoc.data.config?.case_sensitive_names) ?? false };
  });
}
