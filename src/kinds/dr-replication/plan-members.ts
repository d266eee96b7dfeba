import { follows, type ObservedCluster } from './observed.js';
import type { PrimaryFlags } from './plan-primary.js';
import type { SetScope } from './scope.js';
import { tokenSourceFor, type TokenAvailability } from './secrets.js';
import { isAre, listNames, type SequenceBuilder } from './sequence-builder.js';
import type { DesiredSecondary, DrSetAttrs } from './types.js';

type Primary = Extract<ObservedCluster, { state: 'primary' }>;

/**
 * A desired secondary lockstep cannot reach is refused unless the outage is acknowledged: "no
 * changes" would tell a scheduled drift check that a set with a dead member is fine (and an
 * unreachable server is an error, exit 1). --allow-unreachable-primary says the unreachable
 * clusters are down, not serving elsewhere; their steps then wait for a plan that can see them.
 */
function refuseUnseenSecondaries(b: SequenceBuilder, set: DrSetAttrs, flags: PrimaryFlags): boolean {
  if (flags.allowUnreachablePrimary) return false;
  const unseen = set.secondaries.map((s) => s.cluster).filter((name) => b.cluster(name).state === 'unreachable');
  if (unseen.length === 0) return false;
  const they = unseen.length === 1 ? 'it is' : 'they are';
  b.refuse(
    `${listNames(unseen)} ${isAre(unseen)} unreachable: lockstep cannot confirm ${unseen.length === 1 ? 'it follows' : 'they follow'} ${set.primary}. ` +
      `If ${they} down, plan with --allow-unreachable-primary to acknowledge the outage; DR steps for ${unseen.length === 1 ? 'it' : 'them'} then wait for a plan that can see ${unseen.length === 1 ? 'it' : 'them'}`,
  );
  return true;
}

/**
 * Brings every desired secondary to follow the (now) primary: a DR-disabled cluster is enabled
 * (wipe); a secondary of the same set is re-pointed with update-primary (no wipe); a secondary
 * of another set is disabled, then enabled (wipe). Runs after planPrimary.
 */
export function planSecondaries(b: SequenceBuilder, set: DrSetAttrs, tokens: TokenAvailability, flags: PrimaryFlags): void {
  if (refuseUnseenSecondaries(b, set, flags)) return;
  for (const secondary of set.secondaries) {
    if (b.refused) return;
    const name = secondary.cluster;
    const self = b.cluster(name);
    const primary = b.cluster(set.primary) as Primary;
    switch (self.state) {
      case 'unreachable':
        b.note('warning', `${name} is unreachable (acknowledged with --allow-unreachable-primary): its DR steps wait for a plan that can see it`, name);
        break;
      case 'primary':
        // planSplitBrain and planPrimary leave one primary; a second one here is a planner bug.
        b.refuse(`${name} is still a DR primary after the primary's steps`);
        break;
      case 'disabled':
        join(b, set, secondary, 'enable-secondary');
        break;
      case 'secondary':
        if (follows(name, self, primary)) break;
        if (self.clusterId === primary.clusterId) {
          if (requireToken(b, tokens, name, `pointing ${name} at ${set.primary} (update-primary)`)) join(b, set, secondary, 'update-primary');
        } else if (requireToken(b, tokens, name, `taking ${name} out of its current replication set (secondary disable)`)) {
          b.emit({ op: 'disable-secondary', cluster: name });
          join(b, set, secondary, 'enable-secondary');
        }
        break;
    }
  }
}

/** Key pair on the secondary, activation token on the primary, then enable or update-primary. */
function join(b: SequenceBuilder, set: DrSetAttrs, secondary: DesiredSecondary, how: 'enable-secondary' | 'update-primary'): void {
  const name = secondary.cluster;
  const primary = b.cluster(set.primary) as Primary;
  // A stale registration under the same id would make the primary refuse a new token.
  if (primary.knownSecondaries.includes(name)) b.emit({ op: 'revoke-secondary', cluster: set.primary, secondaryId: name });
  b.emit({ op: 'generate-public-key', cluster: name });
  b.emit({ op: 'secondary-token', cluster: set.primary, secondary: name, ttlSeconds: set.secondaryTokenTtl });
  const { primary_api_addr, ca_file, ca_path } = secondary;
  b.emit({ op: how, cluster: name, primary: set.primary, options: { primary_api_addr, ca_file, ca_path } });
}

/**
 * Members that are no longer listed: their registration on the primary is revoked, then DR is
 * disabled on them (with their operation token). Secondaries registered under ids that name no
 * visible cluster are only revoked.
 */
export function planRemovals(b: SequenceBuilder, scope: SetScope, set: DrSetAttrs, tokens: TokenAvailability, observed: ReadonlyMap<string, ObservedCluster>): void {
  if (b.refused) return;
  const primary = b.cluster(set.primary) as Primary;
  const members = new Set(scope.members);
  const claimed = new Set(
    scope.members.flatMap((m) => {
      const c = b.cluster(m);
      return c.state === 'secondary' && follows(m, c, primary) ? [c.secondaryId || m] : [];
    }),
  );
  const revoked = primary.knownSecondaries.filter((id) => !members.has(id) && !claimed.has(id));
  const strays = [...scope.clusters.keys()].filter((n) => {
    const c = b.cluster(n);
    return !members.has(n) && c.state === 'secondary' && c.clusterId === primary.clusterId;
  });
  for (const name of [...new Set([...revoked, ...strays])].sort()) {
    if (revoked.includes(name)) b.emit({ op: 'revoke-secondary', cluster: set.primary, secondaryId: name });
    if (strays.includes(name)) {
      if (!requireToken(b, tokens, name, `removing ${name} from set ${set.name} (secondary disable)`)) return;
      b.emit({ op: 'disable-secondary', cluster: name });
      b.note('info', `${name} is not listed in set ${set.name}: it leaves the set`, name);
    } else if (!observed.has(name)) {
      b.note('warning', `the secondary registered as "${name}" on ${set.primary} is not listed and no Cluster document names it: its access is revoked; disable DR on it by hand`);
    } else if (observed.get(name)!.state === 'unreachable') {
      b.note('warning', `${name} is not listed in set ${set.name} but is unreachable: its access is revoked now; DR is disabled on it by a plan that can see it`, name);
    }
  }
}

function requireToken(b: SequenceBuilder, tokens: TokenAvailability, cluster: string, purpose: string): boolean {
  if (tokenSourceFor(cluster, tokens)) return true;
  b.refuse(`${purpose} needs the DR operation token of ${cluster}: add operationTokens.${cluster} or keyShares`);
  return false;
}
