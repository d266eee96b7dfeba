import type { ApiRequest } from '../http/api-request.js';
import { badRequest, notFound, ok, noContent, type Reply } from '../http/reply.js';
import type { Route } from '../http/router.js';
import { toStr, toStringSlice } from '../util/fields.js';
import { capabilitiesOf, parseAclPolicy, serviceMessage } from '../../values/acl-policy/index.js';
import { tokenAcl } from './enforce.js';
import { PolicyStore, policyName } from './policy-store.js';

/**
 * ACL policies per namespace (vault/logical_system.go handlePoliciesList / Read / Set / Delete,
 * vault/policy_store.go): `sys/policies/acl` and the legacy `sys/policy` (`rules` in its
 * answers, `rules` taken for `policy` with a deprecation warning). Names are lower-cased; `root`
 * is read but never written or deleted, and listed in the root namespace only; `default` never
 * deleted.
 */

type Flavour = 'acl' | 'legacy';

const policiesOf = (req: ApiRequest): PolicyStore => new PolicyStore(req.cluster.store, req.cluster.namespace);

function list(flavour: Flavour) {
  return (req: ApiRequest): Reply => {
    // handlePoliciesList names `root` in the root namespace only.
    const keys = [...policiesOf(req).names(), ...(req.cluster.namespace === '' ? ['root'] : [])];
    return ok(flavour === 'legacy' ? { keys, policies: keys } : { keys });
  };
}

function read(flavour: Flavour) {
  return (req: ApiRequest): Reply => {
    // vault/policy_store.go GetPolicy looks in its cache first, keyed by path.Join(namespace,
    // name), which drops a trailing slash: `sys/policies/acl/dev/` finds `dev`, which a running
    // service holds in its cache once it has written or read it (storage alone, `dev/`, would
    // not). A delete has no such lookup: it deletes the key `dev/`, and `dev` stays.
    const name = policyName(req.params.name!).replace(/\/$/, '');
    const text = name === 'root' ? '' : policiesOf(req).text(name);
    if (text === undefined) throw notFound();
    return ok(flavour === 'legacy' ? { name, rules: text } : { name, policy: text });
  };
}

function write(flavour: Flavour) {
  return async (req: ApiRequest): Promise<Reply> => {
    const name = policyName(req.params.name!);
    const warnings: string[] = [];
    let raw = req.body.policy === undefined ? '' : toStr('policy', req.body.policy);
    if (raw === '' && flavour === 'legacy') {
      raw = req.body.rules === undefined ? '' : toStr('rules', req.body.rules);
      warnings.push("'rules' is deprecated, please use 'policy' instead");
    }
    if (raw === '') throw badRequest("'policy' parameter not supplied or empty");
    raw = base64Decoded(raw) ?? raw;
    const parsed = parseAclPolicy(raw, { namespacePath: req.cluster.namespace === '' ? '' : `${req.cluster.namespace}/` });
    if (parsed.kind === 'invalid') throw badRequest(serviceMessage(parsed.errors));
    if (name === 'root') throw badRequest('cannot update "root" policy');
    await policiesOf(req).put(name, raw);
    return noContent(flavour === 'legacy' ? warnings : undefined);
  };
}

async function remove(req: ApiRequest): Promise<Reply> {
  const name = policyName(req.params.name!);
  if (name === 'root') throw badRequest('cannot delete "root" policy');
  if (name === 'default') throw badRequest('cannot delete default policy');
  await policiesOf(req).delete(name);
  return noContent();
}

/** logical_system.go handlePoliciesSet: a policy that is valid standard base64 is stored decoded. */
function base64Decoded(text: string): string | undefined {
  const compact = text.replace(/[\r\n]/g, '');
  if (compact.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(compact)) return undefined;
  return Buffer.from(compact, 'base64').toString('utf8');
}

/**
 * `sys/capabilities` and `sys/capabilities-self` (logical_system.go handleCapabilities,
 * vault/capabilities.go Capabilities): each path's capabilities for the token, sorted by name,
 * `capabilities` too when one path was asked; the root token's are `root`, a token without
 * policies `deny`.
 */
function capabilities(self: boolean) {
  return (req: ApiRequest): Reply => {
    const token = self ? req.caller?.token : toStr('token', req.body.token ?? '');
    const paths = [...toStringSlice('paths', req.body.paths ?? []), ...(req.body.path === undefined ? [] : toStringSlice('path', req.body.path))];
    if (paths.length === 0) throw badRequest('paths must be supplied');
    const holder = token === undefined || token === '' ? undefined : req.cluster.tokens.lookup(token);
    if (holder === undefined) throw badRequest('invalid token');
    const prefix = req.cluster.namespace === '' ? '' : `${req.cluster.namespace}/`;
    const acl = holder.isRoot ? undefined : tokenAcl(req.cluster.store, holder);
    const data: Record<string, string[]> = {};
    for (const path of paths) {
      // vault/capabilities.go Capabilities sorts what acl.go Capabilities lists.
      data[path] = acl === undefined ? ['root'] : holder.entry.policies.length === 0 ? ['deny'] : capabilitiesOf(acl, prefix + path).sort();
    }
    return ok(paths.length === 1 ? { ...data, capabilities: data[paths[0]!]! } : data);
  };
}

export const policyRoutes: Route[] = [
  { pattern: 'sys/policies/acl/?', access: 'acl', handlers: { list: list('acl') } },
  { pattern: 'sys/policies/acl/:name+', access: 'acl', handlers: { read: read('acl'), update: write('acl'), delete: remove } },
  { pattern: 'sys/policy/?', access: 'acl', handlers: { read: list('legacy'), list: list('legacy') } },
  { pattern: 'sys/policy/:name+', access: 'acl', handlers: { read: read('legacy'), update: write('legacy'), delete: remove } },
  { pattern: 'sys/capabilities', access: 'acl', handlers: { update: capabilities(false) } },
  { pattern: 'sys/capabilities-self', access: 'acl', handlers: { update: capabilities(true) } },
];
