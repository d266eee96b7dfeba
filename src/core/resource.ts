import type { FieldComparison } from './field-comparison.js';
import type { Address } from './address.js';
import type { JsonObject, JsonValue } from './json.js';
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
  /**
   * Fields the server never returns in clear (bindpass, client_tls_cert/key, a key's pin): sent
   * on every write. A write-only field the manifest does not set (nor names in
   * `managedElsewhere`) is here as `''`: cleared, sent empty (contract section 5).
   */
  writeOnly: Record<string, Secret | string>;
  /** Names (in attrs or writeOnly) whose values are secret and render as "(sensitive)". */
  sensitiveFields: string[];
  /** Objects that must exist (be written) before this one. */
  dependsOn: Address[];
  /** Fields compared by a rule instead of plain equality (core/field-comparison.ts). */
  comparedAs?: Readonly<Record<string, FieldComparison>>;
}

/** One object as read from a server, normalised. */
export interface LiveResource {
  address: Address;
  resourceType: string;
  attrs: JsonObject;
  /**
   * The write-only fields the server says are set (it reads them back as "redacted"), sorted.
   * Absent when the server never says (the LDAP config): then a write-only field's presence
   * cannot be compared either.
   */
  writeOnlySet?: string[];
  /**
   * Fields of the desired object the server's release does not have (a field that appeared in a
   * later release, or in the other product): not compared, and left out of what is written.
   */
  lackedFields?: readonly string[];
}

/**
 * A collection read in full (e.g. `east:auth/ldap/users`): its live members that no manifest
 * lists are unmanaged, or deleted when `prune` is on.
 */
export interface ManagedCollection {
  address: Address;
  memberType: string;
  prune: boolean;
  /**
   * What deleting a member takes away, shown under each delete a prune plans (which is then
   * destructive: apply needs --allow-destructive); undefined when a delete loses nothing.
   * Every kind says, so no collection is pruned without a decision.
   */
  deleteLoses: string | undefined;
}

/** What one kind's manifests ask for. */
export interface DesiredState {
  resources: DesiredResource[];
  collections: ManagedCollection[];
}

/**
 * What was read. `observed` covers every address read, present or not (so a saved plan can
 * tell "still missing" from "not read").
 */
export interface LiveState {
  resources: LiveResource[];
  /**
   * What each read returned, normalised and secret-free (null: found missing), keyed by Address
   * string. Fingerprinted (core/fingerprint) only when a plan is saved or checked.
   */
  observed: Record<string, JsonValue | null>;
  notes: Array<{ severity: 'info' | 'warning'; message: string; address?: Address }>;
}
