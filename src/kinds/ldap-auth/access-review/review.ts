/**
 * A plan's access review for the LDAP method: for each method whose changes decide what a
 * login gets, every directory user's policies before the plan and after it, computed as the
 * service's login computes them (adapters/ldap: the same module serve's login runs), and per
 * policy who gains it and who loses it.
 */
import type { AccessChange } from '../../../core/access.js';
import type { Address } from '../../../core/address.js';
import type { JsonObject, JsonValue } from '../../../core/json.js';
import type { DesiredResource, DesiredState } from '../../../core/resource.js';
import type { AccessReviewInput, AccessReviewResult } from '../../kind.js';
import { Secret } from '../../../core/secret.js';
import { canonicalName, describeError, loginPolicies, type LocalUserMapping, type LoginDirectorySettings, type PolicySettings } from '../../../adapters/ldap/index.js';
import { LDAP_RESOURCE_TYPES } from '../addresses.js';
import { openDirectory, type DirectoryConnectionSettings, type DirectoryRead, type ReadScope } from './directory.js';
import { affectedBy, configAfter, configBefore, mappingsAfter, mappingsBefore, type MethodMappings } from './mappings.js';
import { aheadKey, methodsToReview } from './triggers.js';

/** Connects to the directory and reads its users' ldap groups (every user's, or those `scope` names), per set of directory settings: a test may give its own. */
export type DirectoryReader = (connection: DirectoryConnectionSettings, settings: LoginDirectorySettings, scope: ReadScope, signal?: AbortSignal) => Promise<DirectoryRead>;

export async function reviewLdapAccess(input: AccessReviewInput, read: DirectoryReader = openDirectory): Promise<AccessReviewResult> {
  const result: AccessReviewResult = { reviewed: [], accessChanges: [], skipped: [] };
  for (const method of methodsToReview(input.changes)) {
    // The reads the plan's read of the config started (readDirectoryAhead), if it did.
    const ahead = (await input.readAhead?.take(aheadKey(method))?.catch(() => undefined)) as DirectoryReader | undefined;
    const changes = input.changes.filter((c) => c.address.isWithin(method));
    const configWas = configBefore(method, input.observed);
    const configWillBe = configAfter(method, configWas, changes);
    // Configured on neither side: no login succeeds before or after (the service answers "not configured"), nothing to say.
    if (!configWas && !configWillBe) continue;
    try {
      const mappings = (): [MethodMappings, MethodMappings] => {
        const before = mappingsBefore(method, input.observed, configWas);
        return [before, mappingsAfter(method, before, changes, configWillBe)];
      };
      result.accessChanges.push(...(await reviewMethod(method, [configWas, configWillBe], mappings, input.desired, ahead ?? read)));
      result.reviewed.push(method);
    } catch (err) {
      result.skipped.push({ method, reason: err instanceof ReviewSkipped ? err.message : describeError(err) });
    }
  }
  return result;
}

/** A reason the review cannot be made that is no error of the directory's. */
class ReviewSkipped extends Error {}

/**
 * The method's access changes. The directory is reached and bound to first, with the configs of
 * both sides; the mappings (a walk of every object the plan read) are built only once it answered.
 */
async function reviewMethod(
  method: Address,
  configs: readonly [JsonObject | undefined, JsonObject | undefined],
  mappings: () => [MethodMappings, MethodMappings],
  desired: DesiredState,
  read: DirectoryReader,
): Promise<AccessChange[]> {
  const configAt = method.child('config');
  const wanted = desired.resources.find((r) => r.resourceType === LDAP_RESOURCE_TYPES.config && r.address.equals(configAt));
  let built: [MethodMappings, MethodMappings] | undefined;
  const sides = () => (built ??= mappings());
  const opened = openReads(configs, wanted, scopeOf(configs, sides), read);
  await Promise.all(opened.filter((o) => o !== undefined));
  const [before, after] = sides();
  const [was, will] = await Promise.all([policiesOfUsers(before, opened[0]), policiesOfUsers(after, opened[1])]);
  return accessChangesOf(method, was, will);
}

/**
 * The directory reads of a method's review, one per side (none for a side without a config),
 * started: users and their groups once per distinct directory settings, so a change of
 * mappings alone reads once. The directory is reached with the manifest's config (its bind
 * password is only there), else the server's.
 */
function openReads(
  configs: readonly [JsonObject | undefined, JsonObject | undefined],
  wanted: DesiredResource | undefined,
  scope: ReadScope,
  read: DirectoryReader,
): Array<Promise<DirectoryRead> | undefined> {
  const connectWith = wanted?.attrs ?? configs[0];
  if (!connectWith) throw new ReviewSkipped('no config to reach the directory with (none in the manifests, none on the server)');
  const bindpass = reveal(wanted?.writeOnly['bindpass']);
  if (bindpass === undefined && text(connectWith, 'binddn') !== '') {
    throw new ReviewSkipped('the bind password is not in the manifests (no config block for this method, or bindpass managed elsewhere)');
  }
  const connection = connectionOf(connectWith, wanted?.writeOnly ?? {});
  const reads = new Map<string, Promise<DirectoryRead>>();
  return configs.map((config) => {
    if (!config) return undefined;
    const settings = directorySettingsOf(config, bindpass ?? '');
    const key = JSON.stringify(settings);
    let found = reads.get(key);
    if (!found) reads.set(key, (found = read(connection, settings, scope)));
    return found;
  });
}

/**
 * Starts now, while the rest of the plan is read, the directory reads the method's review will
 * make: called once the plan has read the method's config and found that the update to
 * `wanted` changes a field every login reads (`configs`: the server's config, and what the
 * update writes), which reads every user (scope "everyone"). The reads are the review's own:
 * the same configs give the review the same arguments, and the reader returned hands it these
 * and reads anything else itself. Nothing starts when the review would read another scope or
 * be skipped (it then says why itself). `signal` abandons the reads (the plan ended without its
 * review: a read failed).
 */
export function readDirectoryAhead(
  configs: readonly [JsonObject, JsonObject],
  wanted: DesiredResource,
  signal: AbortSignal,
  read: DirectoryReader = openDirectory,
): DirectoryReader {
  const scope = scopeOf(configs, () => {
    throw new Error('a change of every login reads everyone');
  });
  if (scope.kind !== 'everyone') return read;
  const started = new Map<string, Promise<DirectoryRead>>();
  const recording: DirectoryReader = (connection, settings, s) => {
    const work = read(connection, settings, s, signal);
    started.set(JSON.stringify([connection, settings]), work);
    // Taken by the review, which handles its rejection; never unhandled meanwhile.
    work.catch(() => undefined);
    return work;
  };
  try {
    // Each read is kept (and its rejection observed) by `recording`.
    void openReads(configs, wanted, scope, recording);
  } catch (err) {
    if (err instanceof ReviewSkipped) return read;
    throw err;
  }
  return (connection, settings, s) => (s.kind === 'everyone' ? started.get(JSON.stringify([connection, settings])) : undefined) ?? read(connection, settings, s);
}

/**
 * Only the users a change can reach when it changes local mappings alone: both sides
 * configured, with the same directory settings (who is found, which groups) and the same
 * policy settings (case rules, token_policies, default). Any other change reads every user.
 */
function scopeOf(configs: readonly [JsonObject | undefined, JsonObject | undefined], sides: () => [MethodMappings, MethodMappings]): ReadScope {
  const [was, willBe] = configs;
  if (!was || !willBe) return { kind: 'everyone' };
  const same = (f: (c: JsonObject) => unknown) => JSON.stringify(f(was)) === JSON.stringify(f(willBe));
  if (!same((c) => directorySettingsOf(c, '')) || !same(policySettingsOf)) return { kind: 'everyone' };
  const caseSensitive = policySettingsOf(was).case_sensitive_names;
  return { kind: 'affected', by: () => affectedBy(...sides(), caseSensitive) };
}

/** Each directory user's policies at login under `mappings` (none when the method is absent or the login fails). */
async function policiesOfUsers(mappings: MethodMappings, directory: Promise<DirectoryRead> | undefined): Promise<Map<string, readonly string[]>> {
  const out = new Map<string, readonly string[]>();
  if (!mappings.config || !directory) return out;
  const settings = policySettingsOf(mappings.config);
  const groupPolicies = (group: string) => mappings.groups.get(group);
  const grant = (name: string, ldapGroups: readonly string[], localUser: LocalUserMapping | undefined): readonly string[] | undefined => {
    const granted = loginPolicies(settings, name, ldapGroups, localUser, groupPolicies);
    // A login refused (root among its policies) gets nothing.
    return 'policies' in granted ? granted.policies : undefined;
  };
  // The policies depend on the name only through its local user: users without one in the same
  // LDAP groups (10,000 users share some 1,000 sets) get one list, computed once, found by the
  // list itself: the directory gives users with the same groups one list (DirectoryUsers).
  const byList = new Map<readonly string[], readonly string[] | undefined>();
  for (const [name, ldapGroups] of await (await directory).users) {
    if (ldapGroups === null) continue;
    // No local users (group mappings alone, as most configs): no name to fold for a lookup.
    const localUser = mappings.users.size === 0 ? undefined : mappings.users.get(canonicalName(settings, name));
    let policies: readonly string[] | undefined;
    if (localUser) {
      policies = grant(name, ldapGroups, localUser);
    } else if (byList.has(ldapGroups)) {
      policies = byList.get(ldapGroups);
    } else {
      policies = grant(name, ldapGroups, undefined);
      byList.set(ldapGroups, policies);
    }
    if (policies) out.set(name, policies);
  }
  return out;
}

/** Per policy, the users who have it after and not before, and the reverse. */
export function accessChangesOf(method: Address, before: ReadonlyMap<string, readonly string[]>, after: ReadonlyMap<string, readonly string[]>): AccessChange[] {
  const byPolicy = new Map<string, { gained: string[]; lost: string[] }>();
  const entry = (policy: string) => byPolicy.get(policy) ?? byPolicy.set(policy, { gained: [], lost: [] }).get(policy)!;
  const differences = new Differences();
  const compare = (name: string) => {
    const { gained, lost } = differences.between(before.get(name), after.get(name));
    for (const p of gained) entry(p).gained.push(name);
    for (const p of lost) entry(p).lost.push(name);
  };
  for (const name of before.keys()) compare(name);
  for (const name of after.keys()) if (!before.has(name)) compare(name);
  return [...byPolicy.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([policy, { gained, lost }]) => ({ method, policy, gained: gained.sort(), lost: lost.sort() }));
}

/** What one list of policies has that another has not, and the reverse. */
interface Difference {
  gained: readonly string[];
  lost: readonly string[];
}

/** Differences between lists, each pair of lists compared once: users share their lists (policiesOfUsers). */
class Differences {
  readonly #known = new Map<readonly string[] | undefined, Map<readonly string[] | undefined, Difference>>();

  between(had: readonly string[] | undefined, has: readonly string[] | undefined): Difference {
    const fromHad = this.#known.get(had) ?? this.#known.set(had, new Map()).get(had)!;
    let found = fromHad.get(has);
    if (!found) {
      const before = new Set(had);
      const after = new Set(has);
      found = { gained: [...after].filter((p) => !before.has(p)), lost: [...before].filter((p) => !after.has(p)) };
      fromHad.set(has, found);
    }
    return found;
  }
}

function directorySettingsOf(c: JsonObject, bindpass: string): LoginDirectorySettings {
  return {
    binddn: text(c, 'binddn'),
    bindpass,
    discoverdn: c['discoverdn'] === true,
    userdn: text(c, 'userdn'),
    userattr: text(c, 'userattr') || 'cn',
    userfilter: text(c, 'userfilter'),
    upndomain: text(c, 'upndomain'),
    groupdn: text(c, 'groupdn'),
    groupfilter: text(c, 'groupfilter'),
    groupattr: text(c, 'groupattr'),
    use_token_groups: c['use_token_groups'] === true,
    use_pre111_group_cn_behavior: c['use_pre111_group_cn_behavior'] === true,
    anonymous_group_search: c['anonymous_group_search'] === true,
    dereference_aliases: text(c, 'dereference_aliases') || 'never',
    max_page_size: typeof c['max_page_size'] === 'number' ? c['max_page_size'] : 0,
  };
}

function policySettingsOf(c: JsonObject): PolicySettings {
  return {
    case_sensitive_names: c['case_sensitive_names'] === true,
    token_policies: texts(c['token_policies']),
    policies: texts(c['policies']),
    token_no_default_policy: c['token_no_default_policy'] === true,
  };
}

function connectionOf(c: JsonObject, writeOnly: Readonly<Record<string, Secret | string>>): DirectoryConnectionSettings {
  const seconds = (k: string) => (typeof c[k] === 'number' ? c[k] * 1000 : 0);
  return {
    url: text(c, 'url'),
    tls: {
      starttls: c['starttls'] === true,
      insecureTls: c['insecure_tls'] === true,
      caCert: text(c, 'certificate'),
      clientCert: reveal(writeOnly['client_tls_cert']) ?? '',
      clientKey: reveal(writeOnly['client_tls_key']) ?? '',
      minVersion: text(c, 'tls_min_version') || 'tls12',
      maxVersion: text(c, 'tls_max_version') || 'tls12',
    },
    connectMs: seconds('connection_timeout'),
    requestMs: seconds('request_timeout'),
  };
}

function reveal(value: Secret | string | undefined): string | undefined {
  return value instanceof Secret ? value.reveal() : value;
}

function text(c: JsonObject, key: string): string {
  const v = c[key];
  return typeof v === 'string' ? v : '';
}

function texts(v: JsonValue | undefined): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}
