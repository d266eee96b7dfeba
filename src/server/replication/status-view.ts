import type { JsonObject } from '../util/json.js';
import type { DrState, PrimaryState, SecondaryState } from './dr-state.js';
import type { ConnectionState, SyncState } from './secondary-sync.js';
import { goTime } from '../util/go-time.js';

/** What the primary saw of a secondary in this process: its polls. */
export interface SecondaryLinkSeen {
  lastSeenMs: number;
  apiAddress: string;
  /** Polls being held open right now. */
  polling: number;
}

export interface StatusFacts {
  apiAddr: string;
  /** The store's write index. */
  lastWal: number;
  merkleRoot: string;
  nowMs: number;
  seen: ReadonlyMap<string, SecondaryLinkSeen>;
  /** The secondary's streaming, when it is streaming (or was, until refused). */
  sync: { state: SyncState; connection: ConnectionState; lastRemoteWal: number; lastContactMs: number } | undefined;
  lastRemoteWal: number;
}

/** A secondary counts as connected while it polls, or polled in the last few seconds. */
const CONNECTED_WITHIN_MS = 10_000;

/** The cluster address a primary gives its secondaries: the configured one, or its API address. */
export function effectiveClusterAddr(p: PrimaryState, apiAddr: string): string {
  return p.primary_cluster_addr || apiAddr;
}

/** `GET sys/replication/dr/status` (the `data` of the answer). */
export function statusView(s: DrState, facts: StatusFacts): JsonObject {
  switch (s.mode) {
    case 'disabled':
      return { mode: 'disabled' };
    case 'primary':
      return primaryView(s, facts);
    case 'secondary':
      return secondaryView(s, facts);
  }
}

function primaryView(p: PrimaryState, facts: StatusFacts): JsonObject {
  return {
    mode: 'primary',
    cluster_id: p.cluster_id,
    state: 'running',
    known_secondaries: p.secondaries.map((r) => r.id),
    secondaries: p.secondaries.map((r) => {
      const seen = facts.seen.get(r.id);
      const connected = seen !== undefined && (seen.polling > 0 || facts.nowMs - seen.lastSeenMs < CONNECTED_WITHIN_MS);
      const apiAddress = seen?.apiAddress || r.api_address;
      return {
        node_id: r.id,
        api_address: apiAddress,
        cluster_address: apiAddress,
        connection_status: connected ? 'connected' : 'disconnected',
        last_heartbeat: goTime(seen?.lastSeenMs ?? r.activated_at_ms),
      };
    }),
    last_wal: facts.lastWal,
    merkle_root: facts.merkleRoot,
    primary_cluster_addr: effectiveClusterAddr(p, facts.apiAddr),
  };
}

function secondaryView(s: SecondaryState, facts: StatusFacts): JsonObject {
  const following = s.primary !== null && !s.revoked;
  const state = following ? (facts.sync?.state ?? 'merkle-sync') : 'idle';
  const connection = s.primary === null ? 'idle' : s.revoked ? 'shutdown' : (facts.sync?.connection ?? 'connecting');
  // The primary it follows, as the docs' sample shows it (replication-dr.mdx "Sample Response from Secondary").
  const primaries = s.primary
    ? [
        {
          api_address: s.primary.api_addr,
          cluster_address: s.primary.cluster_addr,
          connection_status: following && facts.sync?.connection === 'ready' ? 'connected' : 'disconnected',
          last_heartbeat: facts.sync?.lastContactMs ? goTime(facts.sync.lastContactMs) : '',
        },
      ]
    : [];
  return {
    mode: 'secondary',
    cluster_id: s.cluster_id,
    primaries,
    state,
    connection_state: connection,
    known_primary_cluster_addrs: s.primary ? [s.primary.cluster_addr] : [],
    last_remote_wal: facts.sync?.lastRemoteWal ?? facts.lastRemoteWal,
    merkle_root: facts.merkleRoot,
    primary_cluster_addr: s.primary?.cluster_addr ?? '',
    secondary_id: s.secondary_id,
  };
}
