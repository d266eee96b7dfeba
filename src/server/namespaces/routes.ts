import type { ApiRequest } from '../http/api-request.js';
import { badRequest, noContent, notFound, ok, unknownMembers, withIgnoredWarning, type Reply } from '../http/reply.js';
import type { Route } from '../http/router.js';
import { toStr } from '../util/fields.js';
import type { JsonObject } from '../util/json.js';
import { isNamespaceSegment } from './path.js';
import { NamespaceRegistry, parentOf, type NamespaceEntry } from './registry.js';

/**
 * `sys/namespaces` (website/content/api-docs/system/namespaces.mdx): create, read, list and
 * delete the child namespaces of the namespace the request is in. Names are relative to it.
 */
export const namespaceRoutes: Route[] = [
  { pattern: 'sys/namespaces', access: 'root', handlers: { list } },
  { pattern: 'sys/namespaces/:name+', access: 'root', handlers: { read, update: create, delete: remove } },
];

function registry(req: ApiRequest): NamespaceRegistry {
  return new NamespaceRegistry(req.cluster.store);
}

/** The full path of the namespace a request names, checked. */
function target(req: ApiRequest): string {
  const name = req.params.name!.replace(/\/+$/, '');
  if (!name.split('/').every(isNamespaceSegment)) throw badRequest(`invalid namespace name "${name}"`);
  return req.cluster.namespace === '' ? name : `${req.cluster.namespace}/${name}`;
}

function view(entry: NamespaceEntry): JsonObject {
  return { id: entry.id, path: entry.path, custom_metadata: entry.custom_metadata };
}

/** The children's names with a trailing slash, and each one's entry under key_info; none is a 404. */
function list(req: ApiRequest): Reply {
  const children = registry(req).children(req.cluster.namespace);
  if (children.length === 0) throw notFound();
  const name = (entry: NamespaceEntry): string => `${entry.path.replace(/\/$/, '').split('/').at(-1)!}/`;
  return ok({ keys: children.map(name), key_info: Object.fromEntries(children.map((c) => [name(c), view(c)])) });
}

function read(req: ApiRequest): Reply {
  const entry = registry(req).get(target(req));
  if (!entry) throw notFound();
  return ok(view(entry));
}

async function create(req: ApiRequest): Promise<Reply> {
  const namespace = target(req);
  const names = registry(req);
  if (!names.exists(parentOf(namespace))) throw badRequest(`parent namespace of "${namespace}/" does not exist`);
  const created = ok(view(await names.put(namespace, metadataOf(req.body.custom_metadata))));
  // sys/ is a framework backend (sdk/framework/backend.go HandleRequest): body members that are
  // not the path's fields are warned about on the answer.
  return withIgnoredWarning(created, unknownMembers(req.body, ['path', 'custom_metadata']));
}

/** Refused while it has child namespaces; everything stored in it goes with it, its tokens too. */
async function remove(req: ApiRequest): Promise<Reply> {
  const namespace = target(req);
  const names = registry(req);
  if (!names.get(namespace)) return noContent();
  if (names.children(namespace).length > 0) throw badRequest(`cannot delete namespace "${namespace}/": it contains child namespaces`);
  await names.delete(namespace, req.cluster.tokens.revocationsUnder('', namespace));
  return noContent();
}

function metadataOf(raw: unknown): Record<string, string> | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'object' || Array.isArray(raw)) throw badRequest('custom_metadata must be a map of strings');
  return Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, toStr(`custom_metadata.${k}`, v)]));
}
