import { jsonText, type JsonObject } from '../../core/json.js';
import { MountPath } from '../../core/mount-path.js';
import type { PlanNote } from '../../core/plan.js';
import type { DesiredState, LiveState } from '../../core/resource.js';
import type { ClusterClient } from '../../client/types.js';
import type { ClientPool } from '../kind.js';
import { MOUNT_TABLE_SHAPE, readShaped } from '../live-read.js';
import { AUTH_MOUNT_TYPE, authMountAddress, scopeOfAuthMount, type AuthMountScope } from './scope.js';

/** `GET <ns>/sys/auth`: the namespace's auth mounts, each `<mount>/` an entry naming its type (null on 404). */
export function readAuthTable(client: ClusterClient, namespace: string): Promise<JsonObject | null> {
  return readShaped(client, namespace ? `${namespace}/sys/auth` : 'sys/auth', MOUNT_TABLE_SHAPE);
}

/**
 * Calls `readMount` for each mount the desired state names, with its namespace's `sys/auth`
 * table, all in parallel. Each table is read once per cluster and namespace, however many of
 * its mounts are managed.
 */
export async function forEachDesiredAuthMount(
  desired: DesiredState,
  clients: ClientPool,
  readMount: (scope: AuthMountScope, authTable: JsonObject | null, client: ClusterClient) => Promise<void>,
): Promise<void> {
  const scopes = desired.resources.filter((r) => r.resourceType === AUTH_MOUNT_TYPE).map((r) => scopeOfAuthMount(r.address));
  const authTables = new Map<string, Promise<JsonObject | null>>();
  await Promise.all(
    scopes.map(async (scope) => {
      const client = clients.get(scope.cluster);
      const tableKey = `${scope.cluster}\0${scope.namespace}`;
      if (!authTables.has(tableKey)) authTables.set(tableKey, readAuthTable(client, scope.namespace));
      const table = await authTables.get(tableKey)!;
      await readMount(scope, table, client);
    }),
  );
}

/**
 * The mount's entry in `authTable`, recorded in `live`: `enabled` when a method of
 * `methodType` is mounted there, `absent` when nothing is (nothing below it exists yet). A
 * method of another type there is an error: lockstep never takes over or replaces it.
 */
export function readAuthMount(scope: AuthMountScope, authTable: JsonObject | null, methodType: string, live: LiveState): 'enabled' | 'absent' {
  const address = authMountAddress(scope);
  const entry = authTable?.[scope.mount.tableKey] as JsonObject | undefined;
  if (!entry) {
    live.observed[address.toString()] = null;
    return 'absent';
  }
  const type = jsonText(entry['type'] ?? '');
  if (type !== methodType) {
    throw new Error(`${address}: auth/${scope.mount.text} is a "${type}" method, not ${methodType}; choose another mount`);
  }
  const attrs = { type };
  live.resources.push({ address, resourceType: AUTH_MOUNT_TYPE, attrs });
  live.observed[address.toString()] = attrs;
  return 'enabled';
}

/**
 * The mounts of `methodType` in one namespace of a cluster, sorted, for export; with the
 * `sys/auth` table they came from (readAuthMount takes each entry from it). A mount whose path
 * a manifest could not declare (MountPath's rules) is left out, with a warning in `notes`: the
 * export then never writes a manifest lockstep would refuse.
 */
export async function authMountsOfType(
  client: ClusterClient,
  cluster: string,
  namespace: string,
  methodType: string,
  notes: PlanNote[] = [],
): Promise<{ authTable: JsonObject; scopes: AuthMountScope[] }> {
  const authTable = (await readAuthTable(client, namespace)) ?? {};
  const mounts: MountPath[] = [];
  for (const [key, value] of Object.entries(authTable)) {
    if (!key.endsWith('/') || (value as JsonObject | null)?.['type'] !== methodType) continue;
    const parsed = MountPath.fromTableKey(key);
    if (parsed.ok) {
      mounts.push(parsed.mount);
      continue;
    }
    const where = namespace === '' ? '' : ` in namespace ${namespace}`;
    notes.push({
      severity: 'warning',
      message: `${cluster}: the ${methodType} method mounted at ${JSON.stringify(key)}${where} is not exported: its path ${parsed.problem}`,
    });
  }
  const scopes = mounts
    .sort((a, b) => (a.text < b.text ? -1 : a.text > b.text ? 1 : 0))
    .map((mount) => ({ cluster, namespace, mount }));
  return { authTable, scopes };
}
