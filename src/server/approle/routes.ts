import { createHash } from 'node:crypto';
import { issueLoginToken, DEFAULT_TOKEN_FIELDS, parseTokenFields, tokenFieldsView, validateTokenFields, type RoleTokenFields } from '../auth/login-token.js';
import type { ApiRequest } from '../http/api-request.js';
import { ApiError, badRequest, keyList, noContent, notFound, ok, type Reply } from '../http/reply.js';
import { Router, type ExistenceQuery } from '../http/router.js';
import { storagePrefix } from '../sys/mount-table.js';
import { toBool, toStr } from '../util/fields.js';
import type { JsonObject } from '../util/json.js';
import { newUuid } from '../util/random.js';

/**
 * The AppRole auth method (builtin/credential/approle): `role/:name` with its token fields,
 * `role/:name/role-id`, `role/:name/secret-id` (generate), and `login` with role_id and
 * secret_id. Secret IDs never expire and have unlimited uses here (secret_id_ttl and
 * secret_id_num_uses are not served), and are stored only as a digest.
 */
interface AppRole extends RoleTokenFields {
  role_id: string;
  bind_secret_id: boolean;
}

const prefix = (req: Pick<ApiRequest, 'mount'>): string => storagePrefix(req.mount!);
const roleKey = (req: Pick<ApiRequest, 'mount'>, name: string): string => `${prefix(req)}role/${name}`;
const roleIdKey = (req: ApiRequest, roleId: string): string => `${prefix(req)}role_id/${digest(roleId)}`;
const secretIdKey = (req: ApiRequest, roleName: string, secretId: string): string => `${prefix(req)}secret_id/${roleName}/${digest(secretId)}`;
const digest = (text: string): string => createHash('sha256').update(text).digest('hex');

/**
 * Role names are case-insensitive (path_role.go lower-cases them). A role that does not exist
 * is a 404: with no errors on a read (the field reads answer nil), with the name on a write
 * (ErrUnsupportedPath).
 */
function roleOf(req: ApiRequest): { name: string; role: AppRole } {
  const name = req.params.name!.toLowerCase();
  const role = req.cluster.store.get(roleKey(req, name)) as AppRole | undefined;
  if (!role) throw req.operation === 'read' ? notFound() : new ApiError(404, [`role ${JSON.stringify(name)} does not exist`]);
  return { name, role };
}

export const approleRouter = new Router([
  { pattern: 'role/?', access: 'acl', handlers: { list: (req) => keyList(req.cluster.store.list(`${prefix(req)}role/`)) } },
  { pattern: 'role/:name/role-id', access: 'acl', handlers: { read: (req) => ok({ role_id: roleOf(req).role.role_id }) } },
  { pattern: 'role/:name/secret-id/?', access: 'acl', handlers: { update: generateSecretId } },
  {
    pattern: 'role/:name',
    access: 'acl',
    exists: roleExists,
    validateFields: (body) => {
      validateTokenFields(body);
      if (body.bind_secret_id !== undefined) toBool('bind_secret_id', body.bind_secret_id);
    },
    handlers: {
      read: (req) => {
        const role = req.cluster.store.get(roleKey(req, req.params.name!.toLowerCase())) as AppRole | undefined;
        if (!role) throw notFound();
        return ok({ bind_secret_id: role.bind_secret_id, ...tokenFieldsView(role) });
      },
      update: writeRole,
      delete: async (req) => {
        const name = req.params.name!.toLowerCase();
        const role = req.cluster.store.get(roleKey(req, name)) as AppRole | undefined;
        if (role) {
          await req.cluster.store.write([
            { key: roleKey(req, name), value: null },
            { key: roleIdKey(req, role.role_id), value: null },
            ...req.cluster.store.keysUnder(`${prefix(req)}secret_id/${name}/`).map((key) => ({ key, value: null })),
          ]);
        }
        return noContent();
      },
    },
  },
  { pattern: 'login', access: 'public', handlers: { update: login } },
]);

/** path_role.go pathRoleExistenceCheck: the role under its lower-cased name (roleEntry lower-cases it). */
function roleExists(query: ExistenceQuery): boolean {
  return query.cluster.store.get(roleKey(query, query.params.name!.toLowerCase())) !== undefined;
}

async function writeRole(req: ApiRequest): Promise<Reply> {
  const name = req.params.name!.toLowerCase();
  const existing = req.cluster.store.get(roleKey(req, name)) as AppRole | undefined;
  const role: AppRole = {
    ...parseTokenFields(existing ?? DEFAULT_TOKEN_FIELDS, req.body),
    role_id: existing?.role_id ?? newUuid(),
    bind_secret_id: req.body.bind_secret_id === undefined ? (existing?.bind_secret_id ?? true) : toBool('bind_secret_id', req.body.bind_secret_id),
  };
  await req.cluster.store.write([
    { key: roleKey(req, name), value: role as unknown as JsonObject },
    { key: roleIdKey(req, role.role_id), value: { role_name: name } },
  ]);
  return noContent();
}

async function generateSecretId(req: ApiRequest): Promise<Reply> {
  const { name } = roleOf(req);
  const secretId = newUuid();
  const accessor = newUuid();
  await req.cluster.store.put(secretIdKey(req, name, secretId), { secret_id_accessor: accessor });
  return ok({ secret_id: secretId, secret_id_accessor: accessor, secret_id_ttl: 0, secret_id_num_uses: 0 });
}

/** path_login.go pathLoginUpdate (and pathLoginUpdateAliasLookahead): the role by its role_id, then the secret_id of that role; one message for either wrong. */
async function login(req: ApiRequest): Promise<Reply> {
  const roleId = req.body.role_id === undefined ? '' : toStr('role_id', req.body.role_id);
  // The core asks the method's alias lookahead first, which fails a missing role_id as an internal error.
  if (roleId === '') throw new ApiError(500, ['missing role_id']);
  const found = req.cluster.store.get(roleIdKey(req, roleId)) as { role_name: string } | undefined;
  const role = found && (req.cluster.store.get(roleKey(req, found.role_name)) as AppRole | undefined);
  if (!found || !role) throw badRequest('invalid role or secret ID');
  if (role.bind_secret_id) {
    const secretId = req.body.secret_id === undefined ? '' : toStr('secret_id', req.body.secret_id);
    if (secretId === '') throw badRequest('missing secret_id');
    if (req.cluster.store.get(secretIdKey(req, found.role_name, secretId)) === undefined) throw badRequest('invalid role or secret ID');
  }
  return issueLoginToken(req, { fields: role, displayName: '', aliasName: role.role_id, meta: { role_name: found.role_name } });
}
