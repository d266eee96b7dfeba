import type { KeyPair } from './sealed-box.js';

/**
 * A cluster's DR replication state, kept beside its store (never in it: the store's content is
 * what replication copies, this is what each cluster is in the set). One tagged union per mode.
 */

/** The root key of the data the cluster holds: its own, or its set's once it joined one. */
export interface RootKeyRef {
  root_key: string;
  key_threshold: number;
}

interface Common {
  keys: RootKeyRef;
  /** SHA-256 of the DR operation tokens issued here (no TTL; revoked by operation-token/delete). */
  operation_tokens: string[];
  /** The key pair of generate-public-key, to open an activation token sealed to its public key. */
  key_pair: KeyPair | null;
}

/** A secondary that activated with one of this primary's tokens. */
export interface RegisteredSecondary {
  id: string;
  /** SHA-256 of the credential it streams with. */
  credential_digest: string;
  /** Its API address as it reported it. */
  api_address: string;
  activated_at_ms: number;
}

/** An activation token issued and not used yet (one per secondary id: a new one replaces it). */
export interface PendingActivation {
  id: string;
  secret_digest: string;
  expires_at_ms: number;
}

/** Where a secondary streams from, and how it proves who it is. */
export interface PrimaryLink {
  /** The primary's API address (origin, no /v1). */
  api_addr: string;
  /** The cluster address the primary gave (reported in the status). */
  cluster_addr: string;
  /** PEM texts of ca_file / ca_path, for an https primary. */
  ca_pem: string[];
  credential: string;
}

export type DrState =
  | (Common & { mode: 'disabled' })
  | (Common & {
      mode: 'primary';
      cluster_id: string;
      /** primary_cluster_addr as configured ('' = the default, the API address). */
      primary_cluster_addr: string;
      /** Signs this primary's activation tokens. */
      signing_key: string;
      secondaries: RegisteredSecondary[];
      pending: PendingActivation[];
    })
  | (Common & {
      mode: 'secondary';
      cluster_id: string;
      /** The id it activated with; '' after a demotion. */
      secondary_id: string;
      /** null: it follows no primary (after a demotion, or update-primary with a blank token). */
      primary: PrimaryLink | null;
      /** The primary refused it (revoke-secondary): it stopped trying. */
      revoked: boolean;
      /** A complete copy of the set's data has been received since the last wipe. */
      has_data: boolean;
    });

export type DrMode = DrState['mode'];

export type PrimaryState = Extract<DrState, { mode: 'primary' }>;
export type SecondaryState = Extract<DrState, { mode: 'secondary' }>;

export function initialState(keys: RootKeyRef): DrState {
  return { mode: 'disabled', keys, operation_tokens: [], key_pair: null };
}

/** The parts every mode keeps across a transition. */
export function commonOf(s: DrState): Common {
  return { keys: s.keys, operation_tokens: s.operation_tokens, key_pair: s.key_pair };
}
