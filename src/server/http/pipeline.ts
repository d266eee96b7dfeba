import type { IncomingMessage, ServerResponse } from 'node:http';
import { TokenUsedUp, type Caller } from '../auth/token-store.js';
import type { FaultInjector } from '../faults.js';
import { DR_SECONDARY_REFUSAL } from '../replication/gate.js';
import type { ClusterServices } from '../services.js';
import type { Distance } from './distance.js';
import type { MountEntry } from '../sys/mount-table.js';
import { boolOf, normaliseAddress } from '../../values/index.js';
import { FieldError } from '../util/fields.js';
import type { JsonObject } from '../util/json.js';
import { RequestBody } from './request-body.js';
import { firstHeader, NAMESPACE_HEADER, requestToken } from './request-headers.js';
import { requestTarget } from './request-path.js';
import { injectsDataAtTop } from './legacy-top-level.js';
import { aclDenied, ApiError, gathered } from './reply.js';
import { sendBadRequest, sendErrors, sendRedirect, sendReply, sendStatusOnly } from './respond.js';
import { asksForHelp, helpDocument, type HelpSubject } from './help.js';
import type { Operation, Route, RouteMatch } from './router.js';
import { StorageKeyError } from '../storage/kv-store.js';
import { requestAllowed } from '../policies/enforce.js';
import type { Operation as AclOperation } from '../../values/acl-policy/index.js';

export interface ResolvedRoute extends RouteMatch {
  kind: 'route';
  /** The path as its backend sees it (after `sys/` or `auth/<mount>/`), and the route pattern's part before that. */
  backendPath: string;
  routePrefix: string;
  mount?: MountEntry;
  /** The cluster as the handler sees it in a namespace other than the root (namespaces/scope.ts). */
  services?: ClusterServices;
}

/**
 * Why no route serves a path: no mount holds it, its mount (sys/ included) has no such path, or
 * it is in a namespace that does not exist (answered with no message, as before).
 */
export interface RouteMiss {
  kind: 'miss';
  reason: 'unmounted' | 'unsupported' | 'unknown';
  /** The path is an auth mount's own: no route serves it, but it has the backend's help. */
  backend?: { type: string; routes: readonly Route[] };
}

export interface PipelineDeps {
  cluster: ClusterServices;
  faults: FaultInjector;
  /** Finds the route serving a path (after /v1/, no surrounding slashes). */
  resolve(path: string): ResolvedRoute | RouteMiss;
  /** The 404's errors for a path no route serves (routes.ts unroutedErrors). */
  unrouted(path: string, operation: Operation): string[];
  /** `serve --latency` / `--rate-limit` (http/distance.ts); absent on loopback as it is. */
  distance?: Distance;
}

/**
 * One request, start to end: its canonical path (http/request-path.ts), fault rules, routing,
 * the DR gate, the token and its policies, then the body, the
 * handler, the answer. Handler failures become a 500
 * without details; the log line never includes the request body (bodies carry secrets).
 */
export function createRequestListener(deps: PipelineDeps): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    handle(deps, req, res).catch((err: unknown) => answerFailure(deps, req, res, err));
  };
}

async function handle(deps: PipelineDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { cluster } = deps;
  const body = new RequestBody(req, res);
  const target = requestTarget(req.method ?? '', req.url ?? '/', firstHeader(req, NAMESPACE_HEADER));
  if (deps.distance) {
    // The quota reads the canonical path, as every later decision does.
    const admission = target.kind === 'path' ? deps.distance.admit(target.path) : undefined;
    if (admission?.kind === 'admitted') res.once('close', admission.release);
    await deps.distance.travel();
    if (admission?.kind === 'refused') return sendErrors(res, admission.status, admission.errors, admission.headers);
  }
  switch (target.kind) {
    case 'redirect':
      return sendRedirect(res, req.method ?? '', target.location);
    case 'refused':
      return sendErrors(res, target.status, target.errors);
    case 'refused-bare':
      return sendStatusOnly(res, target.status);
    case 'global-options':
      return sendStatusOnly(res, 200);
    case 'unparsable':
      return sendBadRequest(res);
    case 'path':
      break;
  }
  const { query, urlPath } = target;
  if (asksForHelp(req.method, query)) return answerHelp(deps, req, res, target.path);
  const operation = operationOf(req.method, query);
  if (!operation) return sendErrors(res, 405, ['unsupported operation']);
  // From here on, `path` is what every decision reads: the route, the DR gate, the ACL. A LIST's ends in "/" (http/logical.go buildLogicalRequestNoAuth appends it), so the
  // list patterns end in `/?` (`users/?$`) and `LIST sys/auth` is `sys/auth/`, which no route takes.
  const path = operation === 'list' && !target.path.endsWith('/') ? `${target.path}/` : target.path;
  // http/logical.go buildLogicalRequestNoAuth, before routing or the token (Go's mime.ParseMediaType refuses an empty type).
  if (operation === 'patch' && contentType(req) === '') return sendErrors(res, 400, ['mime: no media type']);
  if (operation === 'patch' && contentType(req) !== MERGE_PATCH) {
    return sendErrors(res, 415, [`PATCH requires Content-Type of ${MERGE_PATCH}, provided ${contentType(req)}`]);
  }
  // vault/request_handling.go handleCancelableRequest, before anything else looks at the request.
  if (operation === 'update' && urlPath.endsWith('/')) return sendErrors(res, 400, ["cannot write to a path ending in '/'"]);

  // A rule names the path as the request does: a LIST's without the slash the service adds.
  const fault = deps.faults.take(cluster.name, operation === 'list' ? 'LIST' : req.method!, target.path);
  if (fault) return sendErrors(res, fault.status, fault.errors);

  const resolved = deps.resolve(path);
  // A DR secondary refuses all but its DR endpoints, which its operation token authorises.
  const gate = cluster.dr?.gate(path) ?? 'normal';
  if (gate === 'refuse') return sendErrors(res, 400, [DR_SECONDARY_REFUSAL]);
  const access = gate === 'open' ? 'public' : resolved.kind === 'route' ? resolved.route.access : 'acl';
  const clientAddress = normaliseAddress(req.socket.remoteAddress ?? '');
  let caller: Caller | undefined;
  // The token and its ACL are checked before any of the body is read: without one, nobody makes
  // us buffer. The root token is let through at once; any other's policies decide
  // (policies/enforce.ts), first by path and operation, then by the body's parameters.
  // The root token skips the existence check too: it is allowed either way.
  let checked: AclOperation | undefined;
  let early: JsonObject | undefined;
  if (access !== 'public') {
    caller = cluster.tokens.authenticate(requestToken(req), clientAddress);
    if (!caller) return sendErrors(res, 403, ['permission denied']);
    checked = caller.isRoot ? undefined : aclOperation(operation, resolved, cluster);
    // The existence check converts the body's fields before the ACL is asked (its 400 first);
    // a token that cannot write makes us read the body only on such routes, as the service does.
    if (checked && resolved.kind === 'route' && resolved.route.validateFields && operation === 'update') {
      early = await body.readJson();
      try {
        resolved.route.validateFields(early);
      } catch (err) {
        if (err instanceof FieldError) return sendErrors(res, 400, [err.conversion]);
        throw err;
      }
    }
    if (checked && !requestAllowed(cluster.store, caller, { path, operation: checked })) return sendErrors(res, 403, aclDenied().errors);
  }
  if (resolved.kind === 'miss') return sendErrors(res, 404, deps.unrouted(path, operation));
  const handler = resolved.route.handlers[operation];
  if (!handler) return sendErrors(res, 405, gathered(405, 'unsupported operation').errors);
  const json: JsonObject = early ?? (operation === 'update' || operation === 'patch' ? await body.readJson() : {});
  if (caller && checked && !requestAllowed(cluster.store, caller, { path, operation: checked, data: json })) {
    return sendErrors(res, 403, aclDenied().errors);
  }
  if (caller) caller = await cluster.tokens.use(caller);

  const reply = await handler({
    cluster: resolved.services ?? cluster,
    operation,
    path,
    params: resolved.params,
    query,
    body: json,
    caller,
    clientAddress,
    mount: resolved.mount,
  });
  sendReply(res, reply, injectsDataAtTop(urlPath));
}

/**
 * The operation the token's ACL is asked about (vault/request_handling.go CheckToken): a write
 * to a route with an existence check is `create` when its object does not exist and `update`
 * when it does, asked once, before the body is read (the checks read the path's names only); a
 * route without one, or a path no route serves (ErrUnsupportedPath), is `update`.
 */
function aclOperation(operation: Operation, resolved: ResolvedRoute | RouteMiss, cluster: ClusterServices): AclOperation {
  if (operation !== 'update' || resolved.kind === 'miss' || resolved.route.exists === undefined) return operation;
  const exists = resolved.route.exists({ cluster: resolved.services ?? cluster, params: resolved.params, mount: resolved.mount });
  return exists ? 'update' : 'create';
}

/**
 * A help request (http/help.go handleHelp): routed as the path is, the DR gate and the token
 * checked as for any request, except that any valid token may read help (vault/acl.go
 * AllowOperation always allows logical.HelpOperation); nothing is read from the body.
 */
function answerHelp(deps: PipelineDeps, req: IncomingMessage, res: ServerResponse, path: string): void {
  const { cluster } = deps;
  const resolved = deps.resolve(path);
  const gate = cluster.dr?.gate(path) ?? 'normal';
  if (gate === 'refuse') return sendErrors(res, 400, [DR_SECONDARY_REFUSAL]);
  const isPublic = gate === 'open' || (resolved.kind === 'route' && resolved.route.access === 'public');
  if (!isPublic && !cluster.tokens.authenticate(requestToken(req), normaliseAddress(req.socket.remoteAddress ?? ''))) {
    return sendErrors(res, 403, ['permission denied']);
  }
  const subject: HelpSubject | undefined =
    resolved.kind === 'route'
      ? { kind: 'path', backendPath: resolved.backendPath, route: resolved.route, routePrefix: resolved.routePrefix }
      : resolved.backend && { kind: 'backend', ...resolved.backend };
  if (!subject) return sendErrors(res, 404, deps.unrouted(path, 'read'));
  sendReply(res, { kind: 'raw', status: 200, body: helpDocument(subject, cluster.release) });
}

function operationOf(method: string | undefined, query: URLSearchParams): Operation | undefined {
  switch (method) {
    case 'HEAD': // health checks; Node leaves the body out
    case 'GET':
      return boolOf(query.get('list') ?? '') === true ? 'list' : 'read';
    case 'POST':
    case 'PUT':
      return 'update';
    case 'PATCH':
      return 'patch';
    case 'DELETE':
      return 'delete';
    default:
      return undefined;
  }
}

const MERGE_PATCH = 'application/merge-patch+json';

/** The media type of the request's body, without parameters (http/logical.go parses it with mime.ParseMediaType). */
function contentType(req: IncomingMessage): string {
  return (firstHeader(req, 'content-type') ?? '').split(';')[0]!.trim().toLowerCase();
}

function answerFailure(deps: PipelineDeps, req: IncomingMessage, res: ServerResponse, err: unknown): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  if (err instanceof ApiError) return sendErrors(res, err.status, err.errors);
  // Worded as sdk/framework/backend.go HandleRequest wraps FieldData.Validate's error (util/fields.ts).
  if (err instanceof FieldError) return sendErrors(res, 400, [err.message]);
  if (err instanceof TokenUsedUp) return sendErrors(res, 403, ['permission denied']);
  if (err instanceof StorageKeyError) return sendErrors(res, 500, [err.message]);
  const path = (req.url ?? '').split('?')[0];
  deps.cluster.log(`error: ${req.method} ${path}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  sendErrors(res, 500, ['internal error']);
}
