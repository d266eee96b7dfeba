import { badRequest } from '../http/reply.js';
import { newUuid, randomHex } from '../util/random.js';
import { commonOf, type DrState, type PendingActivation, type PrimaryLink, type PrimaryState, type RegisteredSecondary, type SecondaryState } from './dr-state.js';
import type { ActivateAnswer } from './stream-protocol.js';

/**
 * The spec's DR state table as pure functions: each checks the current mode (an invalid
 * transition is a 400 saying what the cluster is) and returns the next state. Side effects
 * (wipes, streaming, peers) are the caller's.
 */

export function requirePrimary(s: DrState): PrimaryState {
  if (s.mode !== 'primary') throw badRequest(`this cluster is not a DR primary (its DR mode is ${s.mode})`);
  return s;
}

export function requireSecondary(s: DrState): SecondaryState {
  if (s.mode !== 'secondary') throw badRequest(`this cluster is not a DR secondary (its DR mode is ${s.mode})`);
  return s;
}

function requireDisabled(s: DrState, action: string): void {
  if (s.mode !== 'disabled') {
    throw badRequest(`cannot ${action}: DR replication is already enabled on this cluster (its DR mode is ${s.mode})`);
  }
}

/** disabled → primary, with a new cluster id (re-enabling changes it). */
export function enablePrimary(s: DrState, primaryClusterAddr: string): PrimaryState {
  requireDisabled(s, 'enable DR primary');
  return newPrimary(s, newUuid(), primaryClusterAddr);
}

/** primary → secondary of no primary; keeps the cluster id and the data. */
export function demote(s: DrState): SecondaryState {
  const p = requirePrimary(s);
  return { ...commonOf(p), mode: 'secondary', cluster_id: p.cluster_id, secondary_id: '', primary: null, revoked: false, has_data: true };
}

/** primary → disabled. */
export function disablePrimary(s: DrState): DrState {
  requirePrimary(s);
  return { ...commonOf(s), mode: 'disabled' };
}

/** secondary → primary of the same set (same cluster id), with no secondaries yet. */
export function promote(s: DrState, primaryClusterAddr: string): PrimaryState {
  const sec = requireSecondary(s);
  return newPrimary(sec, sec.cluster_id, primaryClusterAddr);
}

/** secondary → disabled; the data stays. */
export function disableSecondary(s: DrState): DrState {
  requireSecondary(s);
  return { ...commonOf(s), mode: 'disabled' };
}

export function checkCanEnableSecondary(s: DrState): void {
  requireDisabled(s, 'enable DR secondary');
}

/**
 * disabled → secondary after its primary accepted the activation token. Its data was wiped:
 * the operation tokens and the key pair go with it; the set's root key replaces its own.
 */
export function enableSecondary(s: DrState, joined: ActivateAnswer, link: PrimaryLink): SecondaryState {
  checkCanEnableSecondary(s);
  return {
    mode: 'secondary',
    keys: { root_key: joined.root_key, key_threshold: joined.key_threshold },
    operation_tokens: [],
    key_pair: null,
    cluster_id: joined.cluster_id,
    secondary_id: joined.secondary_id,
    primary: link,
    revoked: false,
    has_data: false,
  };
}

/** A secondary of this set pointed at another primary of it (no wipe). */
export function repoint(s: DrState, joined: ActivateAnswer, link: PrimaryLink): SecondaryState {
  const sec = requireSecondary(s);
  if (joined.cluster_id !== sec.cluster_id) throw badRequest(otherSetMessage());
  return { ...sec, key_pair: null, secondary_id: joined.secondary_id, primary: link, revoked: false };
}

export function otherSetMessage(): string {
  return 'the activation token is from a primary of another replication set (its cluster id differs): disable DR on this secondary and enable it again (its data is wiped)';
}

/** update-primary with a blank token: no primary is known any more, none is contacted. */
export function forgetPrimary(s: DrState): SecondaryState {
  return { ...requireSecondary(s), primary: null, revoked: false };
}

/** The primary refused this secondary's credential. */
export function markRevoked(s: DrState): DrState {
  return s.mode === 'secondary' ? { ...s, revoked: true } : s;
}

export function markHasData(s: DrState): DrState {
  return s.mode === 'secondary' && !s.has_data ? { ...s, has_data: true } : s;
}

/** A new activation token for `id` replaces one not used yet. */
export function withPending(p: PrimaryState, pending: PendingActivation): PrimaryState {
  if (p.secondaries.some((r) => r.id === pending.id)) {
    throw badRequest(`a secondary with id "${pending.id}" is already registered; revoke it first`);
  }
  return { ...p, pending: [...p.pending.filter((x) => x.id !== pending.id), pending] };
}

export function withRegistered(p: PrimaryState, secondary: RegisteredSecondary): PrimaryState {
  return {
    ...p,
    pending: p.pending.filter((x) => x.id !== secondary.id),
    secondaries: [...p.secondaries.filter((r) => r.id !== secondary.id), secondary].sort((a, b) => a.id.localeCompare(b.id)),
  };
}

export function withoutSecondary(p: PrimaryState, id: string): PrimaryState {
  return { ...p, pending: p.pending.filter((x) => x.id !== id), secondaries: p.secondaries.filter((r) => r.id !== id) };
}

export function withOperationToken(s: DrState, digest: string): DrState {
  return { ...s, operation_tokens: [...s.operation_tokens, digest] };
}

export function withoutOperationToken(s: DrState, digest: string): DrState {
  return { ...s, operation_tokens: s.operation_tokens.filter((d) => d !== digest) };
}

function newPrimary(s: DrState, clusterId: string, primaryClusterAddr: string): PrimaryState {
  return {
    ...commonOf(s),
    mode: 'primary',
    cluster_id: clusterId,
    primary_cluster_addr: primaryClusterAddr,
    signing_key: randomHex(32),
    secondaries: [],
    pending: [],
  };
}
