import type { JsonObject, JsonValue } from '../../core/json.js';
import { readRelease, type Release } from '../../values/index.js';
import type { ObservedCluster } from './observed.js';

/**
 * The DR status report (`GET sys/replication/dr/status`) as a live resource's attrs, and the
 * ObservedCluster the planner reads from those attrs. Volatile fields (state, connection
 * state, WAL positions, heartbeats) are kept for display but never fingerprinted.
 */
export function statusAttrs(data: JsonObject, release?: Release): JsonObject {
  const attrs = modeAttrs(data);
  return release ? { ...attrs, release: release.reported } : attrs;
}

function modeAttrs(data: JsonObject): JsonObject {
  const mode = data['mode'];
  switch (mode) {
    case 'disabled':
      return { reachable: true, mode };
    case 'primary':
      return {
        reachable: true,
        mode,
        cluster_id: text(data['cluster_id']),
        state: text(data['state']),
        known_secondaries: strings(data['known_secondaries']),
        primary_cluster_addr: text(data['primary_cluster_addr']),
      };
    case 'secondary':
      return {
        reachable: true,
        mode,
        cluster_id: text(data['cluster_id']),
        state: text(data['state']),
        connection_state: text(data['connection_state']),
        primary_cluster_addr: text(data['primary_cluster_addr']),
        known_primary_cluster_addrs: strings(data['known_primary_cluster_addrs']),
        secondary_id: text(data['secondary_id']),
      };
    default:
      throw new Error(`unexpected DR replication mode ${JSON.stringify(mode ?? null)} in the status report`);
  }
}

export const UNREACHABLE_ATTRS: JsonObject = { reachable: false };

/**
 * The stable part of a status: what a saved plan compares (never WAL positions or heartbeats).
 * The release is part of it: an upgrade between plan and apply makes a saved plan stale.
 */
export function stableStatus(attrs: JsonObject): JsonObject {
  if (attrs['reachable'] !== true) return { reachable: false };
  switch (attrs['mode']) {
    case 'primary':
      return pick(attrs, ['mode', 'cluster_id', 'known_secondaries', 'primary_cluster_addr', 'release']);
    case 'secondary':
      return pick(attrs, ['mode', 'cluster_id', 'secondary_id', 'primary_cluster_addr', 'release']);
    default:
      return pick(attrs, ['mode', 'release']);
  }
}

/** The release a status's attrs carry (statusAttrs put it there, read and checked). */
export function releaseOfAttrs(attrs: JsonObject | undefined): Release | undefined {
  const reported = attrs?.['release'];
  if (typeof reported !== 'string') return undefined;
  const read = readRelease(reported);
  return read.kind === 'value' ? read.value : undefined;
}

/** The planner's view of a status resource's attrs. */
export function observedFromAttrs(attrs: JsonObject | undefined): ObservedCluster {
  if (!attrs || attrs['reachable'] !== true) return { state: 'unreachable' };
  switch (attrs['mode']) {
    case 'disabled':
      return { state: 'disabled' };
    case 'primary':
      return {
        state: 'primary',
        clusterId: text(attrs['cluster_id']),
        knownSecondaries: strings(attrs['known_secondaries']),
        primaryClusterAddr: text(attrs['primary_cluster_addr']),
      };
    case 'secondary':
      return {
        state: 'secondary',
        clusterId: text(attrs['cluster_id']),
        secondaryId: text(attrs['secondary_id']),
        primaryClusterAddr: text(attrs['primary_cluster_addr']),
      };
    default:
      throw new Error(`unexpected DR mode ${JSON.stringify(attrs['mode'] ?? null)}`);
  }
}

function text(v: JsonValue | undefined): string {
  return typeof v === 'string' ? v : '';
}

function strings(v: JsonValue | undefined): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string').sort() : [];
}

function pick(o: JsonObject, keys: string[]): JsonObject {
  return Object.fromEntries(keys.filter((k) => k in o).map((k) => [k, o[k]!]));
}
