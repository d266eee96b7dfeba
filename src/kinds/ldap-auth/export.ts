import type { ClusterTarget } from '../../core/cluster.js';
import { jsonEqual, jsonText, type JsonObject } from '../../core/json.js';
import type { PlanNote } from '../../core/plan.js';
import type { LiveState } from '../../core/resource.js';
import type { ClusterClient } from '../../client/types.js';
import { authMountsOfType } from '../auth-mount/read.js';
import type { AuthMountScope } from '../auth-mount/scope.js';
import { LDAP_WRITE_ONLY_FIELDS, ldapConfigDefaults } from './normalise.js';
import { userfilterLacksUserattr } from './rules-consistency.js';
import { nameProblem } from './rules-names.js';
import { templateFindings } from './template.js';
import { readScope } from './read.js';
import { LDAP_METHOD_TYPE } from './types.js';
import { EnvReference } from '../../load/manifest-writer.js';
import { SHA1_CERTIFICATE_RULE } from '../../core/acknowledge-rules.js';
import { parseCertificates } from '../../core/pem.js';

/**
 * Every LDAP method of the cluster's root namespace as one LdapAuth document each. Config
 * fields equal to the spec's defaults are left out (they are filled in again on load); bindpass
 * becomes an `${env:...}` reference to fill in when a binddn is set, since the server never
 * returns it; the write-only fields it cannot see are named in `managedElsewhere`.
 */
export async function exportLdapAuth(client: ClusterClient, cluster: ClusterTarget, notes: PlanNote[] = []): Promise<Record<string, unknown>[]> {
  const { authTable, scopes } = await authMountsOfType(client, cluster.name, cluster.defaultNamespace ?? '', LDAP_METHOD_TYPE, notes);
  return Promise.all(scopes.map((scope) => exportMount(client, cluster, scope, authTable, notes)));
}

/** One method as a document, from the same read (and normalisation) that plan compares with. */
async function exportMount(client: ClusterClient, cluster: ClusterTarget, scope: AuthMountScope, authTable: JsonObject, notes: PlanNote[]): Promise<Record<string, unknown>> {
  const live: LiveState = { resources: [], observed: {}, notes: [] };
  await readScope(scope, authTable, client, live);
  notes.push(...live.notes);
  const defaults = ldapConfigDefaults();
  const config: Record<string, unknown> = {};
  const groups: Record<string, unknown> = {};
  const users: Record<string, unknown> = {};
  for (const r of live.resources) {
    const name = r.address.segments[r.address.segments.length - 1]!;
    const section = r.resourceType === 'ldap.group' ? 'groups' : r.resourceType === 'ldap.user' ? 'users' : undefined;
    if (section !== undefined) {
      // A name the service takes but a manifest may not hold (validation's own rule): written,
      // the export would not load. Left out and said, as a name that cannot be addressed is.
      const problem = nameProblem(section, name);
      if (problem === undefined) (section === 'groups' ? groups : users)[name] = r.attrs;
      else notes.push({ severity: 'warning', address: r.address, message: `a manifest cannot name it (${JSON.stringify(name)} ${problem}); export leaves it out` });
      continue;
    }
    if (r.resourceType !== 'ldap.config') continue;
    for (const [k, v] of Object.entries(r.attrs)) {
      if (k === 'policies') continue; // deprecated alias of token_policies
      if (!jsonEqual(v, defaults[k])) config[k] = v;
    }
    if (typeof r.attrs['binddn'] === 'string' && r.attrs['binddn'] !== '') {
      config['bindpass'] = new EnvReference(envName(cluster.name, scope.mount.text, 'BINDPASS'));
    }
  }
  // The server never says whether it holds the other write-only fields: they are named managed
  // elsewhere, so applying the export never clears what export could not see.
  const managedElsewhere = LDAP_WRITE_ONLY_FIELDS.filter((f) => !(f in config)).sort();
  // A state the service accepts with only a warning is acknowledged, so the export plans as is.
  const acknowledge = [...acknowledgedRules(config), ...(await certificateRules(config))];

  const doc: Record<string, unknown> = { apiVersion: 'lockstep/v1', kind: 'LdapAuth' };
  if (cluster.name !== 'default') doc['cluster'] = cluster.name;
  if (cluster.defaultNamespace) doc['namespace'] = cluster.defaultNamespace;
  doc['mount'] = scope.mount.text;
  doc['config'] = config;
  if (managedElsewhere.length > 0) doc['managedElsewhere'] = managedElsewhere;
  if (acknowledge.length > 0) doc['acknowledge'] = acknowledge;
  doc['groups'] = sortedObject(groups);
  doc['users'] = sortedObject(users);
  return doc;
}

/** The acknowledgeable rules (rules-consistency.ts) the server's config breaks. */
function acknowledgedRules(config: Record<string, unknown>): string[] {
  const text = (field: string): string => (typeof config[field] === 'string' ? config[field] : '');
  const userattr = text('userattr') || jsonText(ldapConfigDefaults()['userattr']);
  const rules: string[] = [];
  if (userfilterLacksUserattr(text('userfilter'), userattr)) rules.push('userfilter-without-userattr');
  const unknown =
    templateFindings(text('userfilter'), ['UserAttr', 'Username']).unknownActions.length +
    templateFindings(text('groupfilter'), ['UserDN', 'Username']).unknownActions.length;
  if (unknown > 0) rules.push('filter-template-unknown-action');
  return rules;
}

/** sha1-certificate when the server's `certificate` holds one signed with SHA-1 (validate/certificates.ts). */
async function certificateRules(config: Record<string, unknown>): Promise<string[]> {
  const certificates = typeof config['certificate'] === 'string' && config['certificate'] !== '' ? parseCertificates(config['certificate']) : [];
  if (!Array.isArray(certificates) || certificates.length === 0) return [];
  const { anySignedWithSha1 } = await import('../../core/certificates.js');
  return anySignedWithSha1(certificates) ? [SHA1_CERTIFICATE_RULE] : [];
}

function envName(cluster: string, mount: string, field: string): string {
  return [cluster, mount, field].join('_').toUpperCase().replace(/[^A-Z0-9_]/g, '_');
}

function sortedObject(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.keys(o).sort().map((k) => [k, o[k]]));
}
