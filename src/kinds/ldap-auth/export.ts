import type { ClusterTarget } from '../../core/cluster.js';
import { jsonEqual, type JsonObject } from '../../core/json.js';
import type { ClusterClient } from '../../client/types.js';
import { ldapConfigDefaults, normaliseGroupList, normaliseLiveConfig, normalisePolicies } from './normalise.js';

/**
 * Every LDAP method of the cluster's root namespace as one LdapAuth document each. Config
 * fields equal to the spec's defaults are left out (they are filled in again on load); bindpass
 * becomes an `${env:...}` reference to fill in, since the server never returns it.
 */
export async function exportLdapAuth(client: ClusterClient, cluster: ClusterTarget): Promise<Record<string, unknown>[]> {
  const ns = cluster.defaultNamespace ? `${cluster.defaultNamespace}/` : '';
  const table = (await client.read(`${ns}sys/auth`)) ?? {};
  const mounts = Object.entries(table)
    .filter(([, v]) => (v as JsonObject | null)?.['type'] === 'ldap')
    .map(([k]) => k.replace(/\/$/, ''))
    .sort();
  return Promise.all(mounts.map((mount) => exportMount(client, cluster, `${ns}auth/${mount}`, mount)));
}

async function exportMount(client: ClusterClient, cluster: ClusterTarget, base: string, mount: string): Promise<Record<string, unknown>> {
  const [configData, groupNames, userNames] = await Promise.all([
    client.read(`${base}/config`),
    client.list(`${base}/groups`),
    client.list(`${base}/users`),
  ]);
  const live = normaliseLiveConfig(configData ?? {});
  const defaults = ldapConfigDefaults();
  const config: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(live)) {
    if (k === 'policies') continue; // deprecated alias of token_policies
    if (!jsonEqual(v, defaults[k])) config[k] = v;
  }
  if (typeof live['binddn'] === 'string' && live['binddn'] !== '') config['bindpass'] = `\${env:${envName(cluster.name, mount, 'BINDPASS')}}`;
  const caseSensitive = live['case_sensitive_names'] === true;

  const groups: Record<string, unknown> = {};
  const users: Record<string, unknown> = {};
  await Promise.all([
    ...[...groupNames].sort().map(async (name) => {
      const d = await client.read(`${base}/groups/${name}`);
      if (d) groups[name] = { policies: normalisePolicies(d['policies']) };
    }),
    ...[...userNames].sort().map(async (name) => {
      const d = await client.read(`${base}/users/${name}`);
      if (d) users[name] = { policies: normalisePolicies(d['policies']), groups: normaliseGroupList(d['groups'], caseSensitive) };
    }),
  ]);

  const doc: Record<string, unknown> = { apiVersion: 'lockstep/v1', kind: 'LdapAuth' };
  if (cluster.name !== 'default') doc['cluster'] = cluster.name;
  if (cluster.defaultNamespace) doc['namespace'] = cluster.defaultNamespace;
  doc['mount'] = mount;
  doc['config'] = config;
  doc['groups'] = sortedObject(groups);
  doc['users'] = sortedObject(users);
  return doc;
}

function envName(cluster: string, mount: string, field: string): string {
  return [cluster, mount, field].join('_').toUpperCase().replace(/[^A-Z0-9_]/g, '_');
}

function sortedObject(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.keys(o).sort().map((k) => [k, o[k]]));
}
