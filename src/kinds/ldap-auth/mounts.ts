import { boolOf } from '../../values/index.js';
import { DEFAULT_MOUNT, type LdapAuthDocument } from './types.js';

/** All LdapAuth documents of one cluster + namespace + mount: they merge into one method. */
export interface MountGroup {
  cluster: string;
  namespace: string;
  mount: string;
  /** In load order. */
  docs: LdapAuthDocument[];
  /** The first document with `config` (rules refuse a second one). */
  configDoc?: LdapAuthDocument;
  /** From that config; names are lower-cased unless true. Default false. */
  caseSensitiveNames: boolean;
}

function mountOf(doc: LdapAuthDocument): string {
  return doc.data.mount ?? DEFAULT_MOUNT;
}

/** Groups documents by cluster, namespace and mount, in order of first appearance. */
export function groupByMount(docs: readonly LdapAuthDocument[]): MountGroup[] {
  const groups = new Map<string, MountGroup>();
  for (const doc of docs) {
    const { cluster, namespace } = doc.data;
    const mount = mountOf(doc);
    const key = JSON.stringify([cluster, namespace, mount]);
    let group = groups.get(key);
    if (!group) {
      group = { cluster, namespace, mount, docs: [], caseSensitiveNames: false };
      groups.set(key, group);
    }
    group.docs.push(doc);
    if (doc.data.config !== undefined && group.configDoc === undefined) {
      group.configDoc = doc;
      group.caseSensitiveNames = boolOf(doc.data.config.case_sensitive_names) ?? false;
    }
  }
  return [...groups.values()];
}

/** `cluster default, mount ldap` (+ namespace): how messages name a mount. */
export function describeMount(group: Pick<MountGroup, 'cluster' | 'namespace' | 'mount'>): string {
  const ns = group.namespace === '' ? '' : `, namespace ${group.namespace}`;
  return `mount "${group.mount}" (cluster ${group.cluster}${ns})`;
}
