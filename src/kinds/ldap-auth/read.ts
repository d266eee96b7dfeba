import type { Address } from '../../core/address.js';
import type { JsonObject } from '../../core/json.js';
import type { DesiredState, LiveResource, LiveState } from '../../core/resource.js';
import { forEachBounded } from '../../client/each-bounded.js';
import type { ClusterClient } from '../../client/types.js';
import type { ClientPool, ReadOptions } from '../kind.js';
import { startReviewAhead } from './access-review/read-ahead.js';
import { addressableNames, listNames, readShaped } from '../live-read.js';
import { forEachDesiredAuthMount, readAuthMount } from '../auth-mount/read.js';
import { authMethodAddress, type AuthMountScope } from '../auth-mount/scope.js';
import { LDAP_CONFIG_SHAPE, LDAP_GROUP_SHAPE, LDAP_USER_SHAPE } from './live-shapes.js';
import { ldapConfigDefaults, normaliseGroupList, normaliseLiveConfig, normalisePolicies } from './normalise.js';
import { ListMemo } from './list-memo.js';
import { LDAP_METHOD_TYPE } from './types.js';
import { ldapFieldsLackedBy } from './schema-fields.js';
import { describeIntroduced, describeRelease, serverRelease, serverReleaseProblem } from '../server-release.js';
import { ldapFieldSpec } from './schema-fields.js';
import { jsonEqual } from '../../core/json.js';

/**
 * Reads every LDAP method the desired state names: the mount (sys/auth), the config, and the
 * groups and users in full (LIST, then one GET each, all in parallel under the client's
 * concurrency bound). A missing mount means nothing below it exists yet.
 */
export async function readLdapAuth(desired: DesiredState, clients: ClientPool, opts: ReadOptions = {}): Promise<LiveState> {
  const live: LiveState = { resources: [], observed: {}, notes: [] };
  // The first method read on each cluster: where a note about the cluster's release is shown.
  const firstMethod = new Map<ClusterClient, Address>();
  const { readAhead } = opts;
  const onConfig = readAhead ? (method: Address, config: LiveResource) => startReviewAhead(method, desired, config, readAhead) : undefined;
  await forEachDesiredAuthMount(desired, clients, (scope, table, client) => {
    if (!firstMethod.has(client)) firstMethod.set(client, authMethodAddress(scope));
    return readScope(scope, table, client, live, onConfig);
  });
  live.notes.push(...await lackedFieldNotes(desired, live, clients));
  for (const [client, address] of firstMethod) {
    const problem = await serverReleaseProblem(client);
    if (problem) live.notes.push({ severity: 'warning', address, message: `${problem}: the server's release is unknown, so every field is compared as if it had it` });
  }
  return live;
}

/**
 * A manifest value the server cannot hold (its release lacks the field) is neither sent nor
 * compared: said once per config, so that it does not pass unseen.
 */
async function lackedFieldNotes(desired: DesiredState, live: LiveState, clients: ClientPool): Promise<LiveState['notes']> {
  const notes: LiveState['notes'] = [];
  const defaults = ldapConfigDefaults();
  for (const want of desired.resources) {
    if (want.resourceType !== 'ldap.config') continue;
    const have = live.resources.find((r) => r.address.equals(want.address));
    const set = (have?.lackedFields ?? []).filter((f) => f in want.attrs && !jsonEqual(want.attrs[f], defaults[f]));
    if (set.length === 0) continue;
    const release = await serverRelease(clients.get(want.address.cluster));
    const fields = set.map((f) => `${f} (${describeIntroduced(ldapFieldSpec(f)!.since!)})`).join(', ');
    notes.push({
      severity: 'warning',
      address: want.address,
      message: `the server (${release ? describeRelease(release) : 'release unknown'}) has no ${fields}: the manifest's value is neither sent nor compared there`,
    });
  }
  return notes;
}

/**
 * Reads one LDAP method (its mount entry taken from the already-read `sys/auth` table) into
 * `live`: what plan compares and what export writes out.
 */
export async function readScope(
  scope: AuthMountScope,
  authTable: JsonObject | null,
  client: ClusterClient,
  live: LiveState,
  onConfig?: (method: Address, config: LiveResource) => void,
): Promise<void> {
  // Fields of a later release (or of the other product) are neither compared nor written.
  const lacking = ldapFieldsLackedBy(await serverRelease(client));
  const lackedFields = [...lacking].sort();
  if (readAuthMount(scope, authTable, LDAP_METHOD_TYPE, live) === 'absent') {
    // Enabling the mount gives a config holding the spec's defaults, so the config write that
    // follows is an update from those: the plan then shows only the fields that differ.
    const config = authMethodAddress(scope).child('config');
    live.resources.push({ address: config, resourceType: 'ldap.config', attrs: ldapConfigDefaults(lacking), lackedFields });
    record(live, config, null);
    return;
  }

  const base = authMethodAddress(scope);
  const [configData, listedGroups, listedUsers] = await Promise.all([
    readShaped(client, base.child('config').path, LDAP_CONFIG_SHAPE),
    listNames(client, base.child('groups').path),
    listNames(client, base.child('users').path),
  ]);
  const config = normaliseLiveConfig(configData ?? {}, lacking);
  const configRead: LiveResource = { address: base.child('config'), resourceType: 'ldap.config', attrs: config, lackedFields };
  push(live, configRead);
  onConfig?.(base, configRead);
  const caseSensitive = config['case_sensitive_names'] === true;
  live.observed[base.child('groups').toString()] = [...listedGroups].sort();
  live.observed[base.child('users').toString()] = [...listedUsers].sort();
  const groupNames = addressableNames(listedGroups, base.child('groups'), 'a group', live.notes);
  const userNames = addressableNames(listedUsers, base.child('users'), 'a user', live.notes);

  // Thousands of answers hold the same few lists: each distinct one normalised once (ListMemo),
  // its frozen result shared by every object that holds it.
  const policyLists = new ListMemo(normalisePolicies);
  const groupLists = new ListMemo((value) => normaliseGroupList(value, caseSensitive));
  // Pulled a few at a time rather than all queued at once: see forEachBounded.
  // Read each time a read may start: the client's adaptive limit moves during the plan.
  const parallel = (): number => client.concurrency;
  await Promise.all([
    forEachBounded(groupNames, parallel, (name) => {
      const addr = base.child('groups', name);
      return readShaped(client, addr.path, LDAP_GROUP_SHAPE).then((data) => {
        if (data) push(live, { address: addr, resourceType: 'ldap.group', attrs: { policies: policyLists.of(data['policies']) as string[] } });
        else record(live, addr, null);
      });
    }),
    forEachBounded(userNames, parallel, (name) => {
      const addr = base.child('users', name);
      return readShaped(client, addr.path, LDAP_USER_SHAPE).then((data) => {
        if (!data) return record(live, addr, null);
        push(live, {
          address: addr,
          resourceType: 'ldap.user',
          attrs: { policies: policyLists.of(data['policies']) as string[], groups: groupLists.of(data['groups']) as string[] },
        });
      });
    }),
  ]);
}

function push(live: LiveState, r: LiveResource): void {
  live.resources.push(r);
  record(live, r.address, r.attrs);
}

function record(live: LiveState, address: Address, attrs: JsonObject | null): void {
  live.observed[address.toString()] = attrs;
}
