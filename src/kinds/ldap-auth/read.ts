import type { Address } from '../../core/address.js';
import { jsonText, type JsonObject } from '../../core/json.js';
import type { DesiredState, LiveResource, LiveState } from '../../core/resource.js';
import { forEachBounded } from '../../client/each-bounded.js';
import type { ClusterClient } from '../../client/types.js';
import type { ClientPool } from '../kind.js';
import { addressableNames, listNames, MOUNT_TABLE_SHAPE, readShaped } from '../live-read.js';
import { LDAP_CONFIG_SHAPE, LDAP_GROUP_SHAPE, LDAP_USER_SHAPE } from './live-shapes.js';
import { ldapConfigDefaults, normaliseGroupList, normaliseLiveConfig, normalisePolicies } from './normalise.js';
import { methodAddress, mountAddress, scopeOfMount, type LdapScope } from './scope.js';

/**
 * Reads every LDAP method the desired state names: the mount (sys/auth), the config, and the
 * groups and users in full (LIST, then one GET each, all in parallel under the client's
 * concurrency bound). A missing mount means nothing below it exists yet.
 */
export async function readLdapAuth(desired: DesiredState, clients: ClientPool): Promise<LiveState> {
  const scopes = desired.resources.filter((r) => r.resourceType === 'auth.mount').map((r) => scopeOfMount(r.address));
  const live: LiveState = { resources: [], observed: {}, notes: [] };
  const authTables = new Map<string, Promise<JsonObject | null>>();
  await Promise.all(
    scopes.map(async (scope) => {
      const client = clients.get(scope.cluster);
      const tableKey = `${scope.cluster}\0${scope.namespace}`;
      if (!authTables.has(tableKey)) authTables.set(tableKey, readShaped(client, join(scope.namespace, 'sys/auth'), MOUNT_TABLE_SHAPE));
      const table = await authTables.get(tableKey)!;
      await readScope(scope, table, client, live);
    }),
  );
  return live;
}

/**
 * Reads one LDAP method (its mount entry taken from the already-read `sys/auth` table) into
 * `live`: what plan compares and what export writes out.
 */
export async function readScope(scope: LdapScope, authTable: JsonObject | null, client: ClusterClient, live: LiveState): Promise<void> {
  const mountAddr = mountAddress(scope);
  const entry = authTable?.[`${scope.mount}/`] as JsonObject | undefined;
  if (!entry) {
    record(live, mountAddr, null);
    // Enabling the mount gives a config holding the spec's defaults, so the config write that
    // follows is an update from those: the plan then shows only the fields that differ.
    const config = methodAddress(scope).child('config');
    live.resources.push({ address: config, resourceType: 'ldap.config', attrs: ldapConfigDefaults() });
    record(live, config, null);
    return;
  }
  const type = jsonText(entry['type'] ?? '');
  if (type !== 'ldap') {
    throw new Error(`${mountAddr}: auth/${scope.mount} is a "${type}" method, not ldap; choose another mount`);
  }
  push(live, { address: mountAddr, resourceType: 'auth.mount', attrs: { type } });

  const base = methodAddress(scope);
  const [configData, listedGroups, listedUsers] = await Promise.all([
    readShaped(client, base.child('config').path, LDAP_CONFIG_SHAPE),
    listNames(client, base.child('groups').path),
    listNames(client, base.child('users').path),
  ]);
  const config = normaliseLiveConfig(configData ?? {});
  push(live, { address: base.child('config'), resourceType: 'ldap.config', attrs: config });
  const caseSensitive = config['case_sensitive_names'] === true;
  live.observed[base.child('groups').toString()] = [...listedGroups].sort();
  live.observed[base.child('users').toString()] = [...listedUsers].sort();
  const groupNames = addressableNames(listedGroups, base.child('groups'), 'a group', live.notes);
  const userNames = addressableNames(listedUsers, base.child('users'), 'a user', live.notes);

  // Pulled a few at a time rather than all queued at once: see forEachBounded.
  // Read each time a read may start: the client's adaptive limit moves during the plan.
  const parallel = (): number => client.concurrency;
  await Promise.all([
    forEachBounded(groupNames, parallel, (name) => {
      const addr = base.child('groups', name);
      return readShaped(client, addr.path, LDAP_GROUP_SHAPE).then((data) => {
        if (data) push(live, { address: addr, resourceType: 'ldap.group', attrs: { policies: normalisePolicies(data['policies']) } });
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
          attrs: { policies: normalisePolicies(data['policies']), groups: normaliseGroupList(data['groups'], caseSensitive) },
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

function join(namespace: string, path: string): string {
  return namespace ? `${namespace}/${path}` : path;
}
