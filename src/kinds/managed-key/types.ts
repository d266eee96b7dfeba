import type { ResolvedDocument } from '../../load/document.js';
import type { Placement } from '../cluster/placement.js';

export const MANAGED_KEY_KIND = 'ManagedKey';
export const MANAGED_KEY_SCHEMA_FILE = 'managed-key.schema.json';

/** The resource type of every managed key (the type of backend is part of its address). */
export const MANAGED_KEY = 'managed.key';
/**
 * A live-only record of one namespace's mount tables: which mounts list which managed keys in
 * `allowed_managed_keys`. Read so deletes can be refused at plan time, never planned itself.
 */
export const MANAGED_KEY_USERS = 'managed.key-users';

export const KEY_TYPES = ['pkcs11', 'provAkms', 'provBkeyvault', 'provCckms'] as const;
export type KeyType = (typeof KEY_TYPES)[number];

export function isKeyType(value: unknown): value is KeyType {
  return typeof value === 'string' && (KEY_TYPES as readonly string[]).includes(value);
}

/** `verify` as written: true (defaults), false (no test/sign), or the test/sign options. */
export type VerifyValue = boolean | { hash_algorithm?: string; use_pss?: boolean | string };

/**
 * A ManagedKey document after schema validation, reference resolution and placement
 * (`cluster` and `namespace` always filled in). Config values are as written (resolved);
 * secret fields are Secret objects.
 */
type ManagedKeyData = Placement & {
  apiVersion: string;
  kind: typeof MANAGED_KEY_KIND;
  name: string;
  type: KeyType;
  config: Record<string, unknown>;
  verify?: VerifyValue;
  /** Secret fields of the type lockstep never sends (someone else sets them). */
  managedElsewhere?: string[];
};

export type ManagedKeyDocument = ResolvedDocument<ManagedKeyData>;

/** The documents as ManagedKey documents (the schema has vouched for their shape). */
export function asManagedKeyDocuments(docs: ReadonlyArray<ResolvedDocument>): ManagedKeyDocument[] {
  return docs as unknown as ManagedKeyDocument[];
}
