import type { Address } from './address.js';
import type { SourcePos } from './diagnostics.js';
import type { JsonObject } from './json.js';
import type { Secret } from './secret.js';

/**
 * One object as the manifests want it, normalised exactly as live objects are, so that
 * `attrs` compares field by field with LiveResource.attrs.
 */
export interface DesiredResource {
  address: Address;
  /** e.g. `auth.mount`, `ldap.config`, `ldap.group`, `ldap.user`. */
  resourceType: string;
  /** Comparable fields (never secrets), spec defaults filled in. */
  attrs: JsonObject;
  /** Fields the server never returns (bindpass, client_tls_cert/key): sent on every write. */
  writeOnly: Record<string, Secret | string>;
  /** Names (in attrs or writeOnly) whose values are secret and render as "(sensitive)". */
  sensitiveFields: string[];
  /** Objects that must exist (be written) before this one. */
  dependsOn: Address[];
  source?: SourcePos;
}

/** One object as read from a server, normalised. */
export interface LiveResource {
  address: Address;
  resourceType: string;
  attrs: JsonObject;
}

/**
 * A collection read in full (e.g. `east:auth/ldap/users`): its live members that no manifest
 * lists are unmanaged, or deleted when `prune` is on.
 */
export interface ManagedCollection {
  address: Address;
  memberType: string;
  prune: boolean;
}

/** What one kind's manifests ask for. */
export interface DesiredState {
  resources: DesiredResource[];
  collections: ManagedCollection[];
}

/**
 * What was read. `absent` lists addresses read and found missing (so a saved plan can tell
 * "still missing" from "not read"); `fingerprints` covers every address read, present or not.
 */
export interface LiveState {
  resources: LiveResource[];
  /** Canonical-JSON sha256 of what each read returned, `absent` for a 404. Keyed by Address string. */
  fingerprints: Record<string, string>;
  notes: Array<{ severity: 'info' | 'warning'; message: string; address?: Address }>;
}
