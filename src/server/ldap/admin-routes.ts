import type { ApiRequest } from '../http/api-request.js';
import { keyList, noContent, notFound, ok, unknownMembers, withIgnoredWarning, type Reply } from '../http/reply.js';
import type { Route } from '../http/router.js';
import { toList } from '../util/fields.js';
import { normalisePolicies, sortedUnique } from '../util/lists.js';
import { applyConfigWrite } from './config-write.js';
import { configView, configWarnings } from './config-view.js';
import { LdapMountStore } from './ldap-store.js';
import { goToLower } from '../../values/index.js';

/** The administrative API of an LDAP mount: config, groups, users (paths relative to the mount). */
export const ldapAdminRoutes: Route[] = [
  {
    pattern: 'config',
    access: 'acl',
    handlers: { read: readConfig, update: writeConfig },
  },
  { pattern: 'groups/?', access: 'acl', handlers: { list: (req) => keyList(mountStore(req).groupNames()) } },
  {
    pattern: 'groups/:name+',
    access: 'acl',
    handlers: { read: readGroup, update: writeGroup, delete: deleteGroup },
  },
  { pattern: 'users/?', access: 'acl', handlers: { list: (req) => keyList(mountStore(req).userNames()) } },
  {
    pattern: 'users/:name+',
    access: 'acl',
    handlers: { read: readUser, update: writeUser, delete: deleteUser },
  },
];

export function mountStore(req: ApiRequest): LdapMountStore {
  return new LdapMountStore(req.cluster.store, req.mount!);
}

function readConfig(req: ApiRequest): Reply {
  const cfg = mountStore(req).config();
  return ok(configView(cfg), configWarnings(cfg));
}

async function writeConfig(req: ApiRequest): Promise<Reply> {
  const store = mountStore(req);
  const { config, ignored } = applyConfigWrite(store.config(), req.body);
  await store.putConfig(config);
  // path_config.go pathConfigWrite answers only its filter warnings (else nothing, a 204).
  return withIgnoredWarning(noContent(configWarnings(config)), ignored);
}

/** Group and user names are case-insensitive (stored lower-cased) unless case_sensitive_names. */
function entryName(req: ApiRequest, store: LdapMountStore): string {
  const name = req.params.name!;
  return store.config().case_sensitive_names ? name : goToLower(name);
}

function readGroup(req: ApiRequest): Reply {
  const store = mountStore(req);
  const group = store.group(entryName(req, store));
  if (!group) throw notFound();
  return ok({ policies: group.policies });
}

async function writeGroup(req: ApiRequest): Promise<Reply> {
  const store = mountStore(req);
  const policies = normalisePolicies(toList('policies', req.body.policies));
  await store.putGroup(entryName(req, store), { policies });
  // pathGroupWrite answers nothing: the framework's warning has no response to go on.
  return withIgnoredWarning(noContent(), unknownMembers(req.body, ['name', 'policies']));
}

/** The name as given, not lower-cased: the service deletes `group/<raw name>` (path_groups.go pathGroupDelete). */
async function deleteGroup(req: ApiRequest): Promise<Reply> {
  const store = mountStore(req);
  await store.deleteGroup(req.params.name!);
  return noContent();
}

function readUser(req: ApiRequest): Reply {
  const store = mountStore(req);
  const user = store.user(entryName(req, store));
  if (!user) throw notFound();
  return ok({ groups: user.groups.join(','), policies: user.policies });
}

async function writeUser(req: ApiRequest): Promise<Reply> {
  const store = mountStore(req);
  const caseSensitive = store.config().case_sensitive_names;
  const policies = normalisePolicies(toList('policies', req.body.policies));
  const groups = sortedUnique(toList('groups', req.body.groups), !caseSensitive);
  await store.putUser(entryName(req, store), { policies, groups });
  return withIgnoredWarning(noContent(), unknownMembers(req.body, ['name', 'policies', 'groups']));
}

/** The name as given, as for groups (path_users.go pathUserDelete). */
async function deleteUser(req: ApiRequest): Promise<Reply> {
  const store = mountStore(req);
  await store.deleteUser(req.params.name!);
  return noContent();
}
