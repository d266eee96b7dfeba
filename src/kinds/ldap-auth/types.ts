import { MountPath } from '../../core/mount-path.js';
import type { ResolvedDocument } from '../../load/document.js';
import type { Placement } from '../cluster/placement.js';

/** A list field as written: a YAML list or a comma-separated string. */
type ListValue = string[] | string;

type LdapGroupEntry = { policies?: ListValue } | null;
type LdapUserEntry = { policies?: ListValue; groups?: ListValue } | null;

/**
 * An LdapAuth document after schema validation, reference resolution and placement
 * (`cluster` and `namespace` are always filled in by prepare). Config values are as written
 * (resolved), except secret fields, which are Secret objects.
 */
type LdapAuthData = Placement & {
  apiVersion: string;
  kind: 'LdapAuth';
  mount?: string;
  config?: Record<string, unknown>;
  groups?: Record<string, LdapGroupEntry>;
  users?: Record<string, LdapUserEntry>;
  prune?: boolean;
  /** Write-only config fields lockstep never sends (someone else sets them); only with `config`. */
  managedElsewhere?: string[];
  /** Spec rules the service only warns about, accepted for this config (rules-consistency.ts, validate/certificates.ts); only with `config`. */
  acknowledge?: string[];
};

export type LdapAuthDocument = ResolvedDocument<LdapAuthData>;

export const DEFAULT_MOUNT = MountPath.of('ldap');
/** The auth method type of its mounts (`sys/auth` entries of this type are LDAP methods). */
export const LDAP_METHOD_TYPE = 'ldap';

/** The documents as LdapAuth documents (the schema has vouched for their shape). */
export function asLdapDocuments(docs: ReadonlyArray<ResolvedDocument>): LdapAuthDocument[] {
  return docs as unknown as LdapAuthDocument[];
}
