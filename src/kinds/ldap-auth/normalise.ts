import type { Address } from '../../core/address.js';
import type { JsonObject } from '../../core/json.js';
import type { DesiredResource, DesiredState, ManagedCollection } from '../../core/resource.js';
import type { ResolvedDocument } from '../../load/document.js';
import type { KindContext } from '../kind.js';
import { writeOnlyValues } from '../write-only.js';
import { desiredAuthMount } from '../auth-mount/desired.js';
import { LDAP_RESOURCE_TYPES, ldapMountAddresses, type LdapMountAddresses } from './addresses.js';
import { desiredConfigAttrs } from './config-form.js';
import { groupByMount, type MountGroup } from './mounts.js';
import { LDAP_SECRET_FIELDS, LDAP_WRITE_ONLY_FIELDS } from './schema-fields.js';
import { asLdapDocuments, LDAP_METHOD_TYPE, type LdapAuthDocument } from './types.js';
import { policyDependencies } from './policy-names.js';
import { canonicalName, normaliseGroupList, normalisePolicies, normaliseTokenPolicies } from './values.js';
import { ListMemo } from './list-memo.js';
import { goToLower } from '../../values/index.js';

export { normaliseLiveConfig, ldapConfigDefaults } from './config-form.js';
export { LDAP_CONFIG_FIELDS, LDAP_WRITE_ONLY_FIELDS } from './schema-fields.js';
export { normalisePolicies, normaliseGroupList } from './values.js';

/**
 * The desired objects of all LdapAuth documents (valid, placed). Per cluster + namespace + mount:
 * the auth mount, the config (only when a document has `config`; otherwise the live config is
 * left unmanaged), each group and user, and the two collections. Inputs are not mutated.
 */
export function desiredLdapAuth(docs: ReadonlyArray<ResolvedDocument>, ctx: KindContext): DesiredState {
  const resources: DesiredResource[] = [];
  const collections: ManagedCollection[] = [];
  for (const group of groupByMount(asLdapDocuments(docs))) {
    const desired = desiredMount(group, ctx);
    resources.push(...desired.resources);
    collections.push(...desired.collections);
  }
  return { resources, collections };
}

// A pruned mapping takes access away from people: at their next login, and at the next renewal
// of the tokens they hold (builtin/credential/ldap/path_login.go pathLoginRenew).
const GROUP_DELETE_LOSES = "deleting the group takes its policies from every member at their next login and token renewal; needs --allow-destructive";
const USER_DELETE_LOSES = "deleting the user takes its policies and local groups from its next login and token renewal; needs --allow-destructive";

function desiredMount(group: MountGroup, ctx: KindContext): DesiredState {
  const addresses = ldapMountAddresses(group.cluster, group.namespace, group.mount);
  const mount = desiredAuthMount(group, LDAP_METHOD_TYPE);
  const config = group.configDoc ? desiredConfig(group, group.configDoc, addresses) : undefined;
  // Groups and users need the method enabled and, when managed, configured first.
  const parent = config ? config.address : mount.address;
  // Without a managed config the server's case rule decides: names stay as declared until the
  // live config is read (name-case.ts).
  const caseSensitive = group.configDoc ? group.caseSensitiveNames : true;
  const lists = new MountLists(group, parent, caseSensitive);
  const groups = desiredGroups(group, addresses, caseSensitive, lists);
  lists.declareGroups(groups);
  const users = desiredUsers(group, addresses, caseSensitive, lists);
  const prune = ctx.prune || group.docs.some((d) => d.data.prune === true);
  return {
    resources: [mount, ...(config ? [config] : []), ...groups, ...users],
    collections: [
      { address: addresses.groups, memberType: LDAP_RESOURCE_TYPES.group, prune, deleteLoses: GROUP_DELETE_LOSES },
      { address: addresses.users, memberType: LDAP_RESOURCE_TYPES.user, prune, deleteLoses: USER_DELETE_LOSES },
    ],
  };
}

function desiredConfig(group: MountGroup, doc: LdapAuthDocument, addresses: LdapMountAddresses): DesiredResource {
  const config = doc.data.config ?? {};
  const tokenPolicies = [...normaliseTokenPolicies(config['token_policies']), ...normaliseTokenPolicies(config['policies'])];
  // Unset ones go empty: the service keeps a field a write leaves out (path_config.go reads the
  // stored config first), so a bindpass dropped from the manifest is only cleared by sending "".
  const writeOnly = writeOnlyValues(config, LDAP_WRITE_ONLY_FIELDS, doc.data.managedElsewhere);
  return {
    address: addresses.config,
    resourceType: LDAP_RESOURCE_TYPES.config,
    attrs: desiredConfigAttrs(config),
    writeOnly,
    sensitiveFields: [...LDAP_SECRET_FIELDS].sort(),
    // The policies it names are written first (when the plan writes them).
    dependsOn: [addresses.mount, ...policyDependencies(group.cluster, group.namespace, tokenPolicies)],
    // Stored as given, applied as a set: a change of case, order or repeats only is no drift.
    comparedAs: { token_policies: 'policySet', policies: 'policySet' },
  };
}

function desiredGroups(group: MountGroup, addresses: LdapMountAddresses, caseSensitive: boolean, lists: MountLists): DesiredResource[] {
  const out: DesiredResource[] = [];
  for (const doc of group.docs) {
    const declared = doc.data.groups ?? {};
    for (const name of Object.keys(declared)) {
      const { attrs, dependsOn } = lists.groupShape(declared[name]?.policies);
      out.push({
        address: addresses.group(canonicalName(name, caseSensitive)),
        resourceType: LDAP_RESOURCE_TYPES.group,
        attrs,
        writeOnly: NO_WRITE_ONLY,
        sensitiveFields: NO_SENSITIVE_FIELDS,
        dependsOn,
      });
    }
  }
  return out;
}

/** Users depend on the declared groups and the policies they list, so those are written first. */
function desiredUsers(group: MountGroup, addresses: LdapMountAddresses, caseSensitive: boolean, lists: MountLists): DesiredResource[] {
  // Plain loops: this runs once per user, and a manifest may hold tens of thousands.
  const users: DesiredResource[] = [];
  for (const doc of group.docs) {
    const declared = doc.data.users ?? {};
    for (const name of Object.keys(declared)) {
      const entry = declared[name];
      const { attrs, dependsOn } = lists.userShape(entry?.policies, entry?.groups);
      users.push({
        address: addresses.user(canonicalName(name, caseSensitive)),
        resourceType: LDAP_RESOURCE_TYPES.user,
        attrs,
        writeOnly: NO_WRITE_ONLY,
        sensitiveFields: NO_SENSITIVE_FIELDS,
        dependsOn,
      });
    }
  }
  return users;
}

/** Frozen, typed as the field it fills: shared by many objects, a write to it throws instead of changing the others'. */
function frozen<T extends object>(value: T): T {
  Object.freeze(value);
  return value;
}

// Groups and users have no write-only or secret fields: one empty value for all of them.
const NO_WRITE_ONLY: DesiredResource['writeOnly'] = frozen({});
const NO_SENSITIVE_FIELDS: string[] = frozen([]);

/** What the groups or users of one mount that name the same lists share. */
interface Shape {
  attrs: JsonObject;
  dependsOn: Address[];
}

/**
 * The normalised lists of one mount's groups and users, and what follows from them (attrs and
 * dependencies), each worked out once per distinct list or pair of lists: 10,000 users naming
 * 1,000 group lists and 100 policy lists made 10,000 of each. What is shared is frozen.
 */
class MountLists {
  readonly #group: MountGroup;
  /** Before every group and user: the method (and its config, when managed). */
  readonly #parent: Address;
  readonly #policies = new ListMemo(normalisePolicies);
  readonly #groups: ListMemo;
  /** The declared groups by name (and, while names keep their case, by lower-cased name). */
  readonly #declared = new Map<string, Address>();
  readonly #groupShapes = new Map<readonly string[], Shape>();
  /** By policies, then groups, each list as its memo gives it (one array per distinct list). */
  readonly #userShapes = new Map<readonly string[], Map<readonly string[], Shape>>();

  constructor(group: MountGroup, parent: Address, caseSensitive: boolean) {
    this.#group = group;
    this.#parent = parent;
    this.#groups = new ListMemo((value) => normaliseGroupList(value, caseSensitive));
  }

  /** Before any user's shape: the groups users listing them depend on. */
  declareGroups(groups: readonly DesiredResource[]): void {
    for (const g of groups) this.#declared.set(g.address.segments.at(-1)!, g.address);
    // Names kept as declared may still fold to one: a user's `admins` then depends on `Admins`.
    if (!this.#group.configDoc) for (const g of groups) this.#declared.set(goToLower(g.address.segments.at(-1)!), g.address);
  }

  groupShape(policiesValue: unknown): Shape {
    const policies = this.#policies.of(policiesValue);
    let shape = this.#groupShapes.get(policies);
    if (shape === undefined) {
      shape = { attrs: frozen({ policies: policies as string[] }), dependsOn: frozen(this.#dependencies(policies)) };
      this.#groupShapes.set(policies, shape);
    }
    return shape;
  }

  userShape(policiesValue: unknown, groupsValue: unknown): Shape {
    const policies = this.#policies.of(policiesValue);
    const groups = this.#groups.of(groupsValue);
    let byGroups = this.#userShapes.get(policies);
    if (byGroups === undefined) this.#userShapes.set(policies, (byGroups = new Map<readonly string[], Shape>()));
    let shape = byGroups.get(groups);
    if (shape === undefined) {
      const dependsOn = this.#dependencies(policies);
      for (const g of groups) {
        const dep = this.#declared.get(g) ?? (this.#group.configDoc ? undefined : this.#declared.get(goToLower(g)));
        if (dep) dependsOn.push(dep);
      }
      shape = { attrs: frozen({ policies: policies as string[], groups: groups as string[] }), dependsOn: frozen(dependsOn) };
      byGroups.set(groups, shape);
    }
    return shape;
  }

  #dependencies(policies: readonly string[]): Address[] {
    const { cluster, namespace } = this.#group;
    return [this.#parent, ...policyDependencies(cluster, namespace, policies)];
  }
}
