import type { KindModule } from './kind.js';

/**
 * Every resource kind, in the order their changes are planned. `Cluster` documents are not
 * here: they name servers and are resolved by validate/prepare (see kinds/cluster). A kind's
 * module is loaded only when the manifests hold documents of it (or a command wants them all):
 * most runs use one or two kinds, and loading every module is a third of the CLI's start-up.
 */
const REGISTRY: ReadonlyArray<{ kind: string; load: () => Promise<KindModule> }> = [
  { kind: 'Namespace', load: async () => (await import('./namespace/index.js')).namespaceKind },
  { kind: 'AclPolicy', load: async () => (await import('./acl-policy/index.js')).aclPolicyKind },
  { kind: 'LdapAuth', load: async () => (await import('./ldap-auth/index.js')).ldapAuthKind },
  { kind: 'SnapshotPolicy', load: async () => (await import('./snapshot-policy/index.js')).snapshotPolicyKind },
  { kind: 'ManagedKey', load: async () => (await import('./managed-key/index.js')).managedKeyKind },
  { kind: 'DrReplication', load: async () => (await import('./dr-replication/index.js')).drReplicationKind },
];

/** The names of every kind, in registry order (known without loading any module). */
export const KIND_NAMES: readonly string[] = REGISTRY.map((k) => k.kind);

/** The modules of the named kinds (every kind when `names` is absent), in registry order. */
export async function loadKinds(names?: ReadonlySet<string>): Promise<KindModule[]> {
  return Promise.all(REGISTRY.filter((k) => !names || names.has(k.kind)).map((k) => k.load()));
}
