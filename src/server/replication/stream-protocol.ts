import type { JsonValue } from '../util/json.js';
import type { Wal } from './wal-feed.js';

/**
 * The emulator's own cluster-to-cluster endpoints (the service replicates over its cluster
 * port; the emulator uses the API listener). Public routes: the body carries the credential.
 */
export const ACTIVATE_PATH = 'sys/replication/dr/emulator/activate';
export const STREAM_PATH = 'sys/replication/dr/emulator/stream';

/** A secondary presents its activation token and says where it can be reached. */
export interface ActivateRequest {
  token: string;
  api_address: string;
}

/** What the primary gives a secondary that activated. */
export interface ActivateAnswer {
  cluster_id: string;
  secondary_id: string;
  primary_cluster_addr: string;
  credential: string;
  root_key: string;
  key_threshold: number;
}

export interface StreamRequest {
  secondary_id: string;
  credential: string;
  /** The stream id the secondary follows ('' for none: it wants a full copy). */
  stream: string;
  /** The primary's write index it has applied. */
  after: number;
  api_address: string;
}

export type StreamAnswer =
  | { kind: 'snapshot'; stream: string; index: number; entries: Array<[string, JsonValue]> }
  | { kind: 'wals'; stream: string; wals: Wal[] };
