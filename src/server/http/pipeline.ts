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
import { RequestBody, requestToken } from './request-body.js';
import { NAMESPACE_HEADER, requestTarget } from './request-path.js';
import { ApiError } from './reply.js';
import { sendErrors, sendRedirect, sendReply } from './respond.js';
import type { Operation, RouteMatch } from './router.js';

export interface ResolvedRoute extends RouteMatch {
  kind: 'route';
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
}

export interface PipelineDeps {
  cluster: ClusterServices;
  faults: FaultInjector;
  /** Finds the route serving a path (after /v1/, no surrounding slashes). */
  resolve(path: string): ResolvedRoute | RouteMiss;
  /** `serve --latency` / `--rate-limit` (http/distance.ts); absent on loopback as it is. */
  distance?: Distance;
}

/**
 * One request, start to end: its canonical path (http/request-path.ts), fault rules, routing,
 * the DR gate, the token check (only root may call administrative paths), then the body, the
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
  const target = requestTarget(req.url ?? '/', req.headers[NAMESPACE_HEADER]);
  if (deps.distance) {
    // The quota reads the canonical path, as every later decision does.
    const admission = target.kind === 'path' ? deps.distance.admit(target.path) : undefined;
    if (admission?.kind === 'admitted') res.once('close', admission.release);
    await deps.distance.travel();
    if (admission?.kind === 'refused') return sendErrors(res, admission.status, admission.errors, admission.headers);
  }
  switch (target.kind) {
    case 'redirect':
      return sendRedirect(res, target.location);
    case 'refused':
      return sendErrors(res, target.status, target.errors);
    case 'path':
      break;
  }
  // From here on, `path` is what every decision reads: the fault rules, the route, the DR gate.
  const { path, query } = target;
  const operation = operationOf(req.method, query);
  if (!operation) return sendErrors(res, 405, ['unsupported operation']);

  const fault = deps.faults.take(cluster.name, operation === 'list' ? 'LIST' : req.method!, path);
  if (fault) return sendErrors(res, fault.status, fault.errors);

  const resolved = deps.resolve(path);
  // A DR secondary refuses all but its DR endpoints, which its operation token authorises.
  const gate = cluster.dr?.gate(path) ?? 'normal';
  if (gate === 'refuse') return sendErrors(res, 400, [DR_SECONDARY_REFUSAL]);
  const access = gate === 'open' ? 'public' : resolved.kind === 'route' ? resolved.route.access : 'root';
  const clientAddress = normaliseAddress(req.socket.remoteAddress ?? '');
  let caller: Caller | undefined;
  // The token is checked before any of the body is read: without one, nobody makes us buffer.
  if (access !== 'public') {
    caller = cluster.tokens.authenticate(requestToken(req), clientAddress);
    if (!caller || (access === 'root' && !caller.isRoot)) return sendErrors(res, 403, ['permission denied']);
  }
  if (resolved.kind === 'miss') return sendErrors(res, 404, missErrors(resolved, path, operation));
  const handler = resolved.route.handlers[operation];
  if (!handler) return sendErrors(res, 405, [multiError('unsupported operation')]);
  const json: JsonObject = operation === 'update' ? await body.readJson() : {};
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
  sendReply(res, reply);
}

/**
 * The service's messages when nothing serves a path: the router's for a path no mount holds
 * (vault/router.go routeCommon; a LIST path ends in "/", http/logical.go), and the backend's
 * logical.ErrUnsupportedPath for one its mount does not have (sdk/framework/backend.go).
 */
function missErrors(miss: RouteMiss, path: string, operation: Operation): string[] {
  switch (miss.reason) {
    case 'unmounted':
      return [`no handler for route "${operation === 'list' && !path.endsWith('/') ? `${path}/` : path}". route entry not found.`];
    case 'unsupported':
      return [multiError('unsupported path')];
    case 'unknown':
      return [];
  }
}

/** An error as the service's request handling wraps it (vault/request_handling.go, go-multierror's format). */
function multiError(message: string): string {
  return `1 error occurred:\n\t* ${message}\n\n`;
}

function operationOf(method: string | undefined, query: URLSearchParams): Operation | undefined {
  switch (method) {
    case 'HEAD': // health checks; Node leaves the body out
    case 'GET':
      return boolOf(query.get('list') ?? '') === true ? 'list' : 'read';
    case 'POST':
    case 'PUT':
      return 'update';
    case 'DELETE':
      return 'delete';
    default:
      return undefined;
  }
}

function answerFailure(deps: PipelineDeps, req: IncomingMessage, res: ServerResponse, err: unknown): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  if (err instanceof ApiError) return sendErrors(res, err.status, err.errors);
  if (err instanceof FieldError) return sendErrors(res, 400, [err.message]);
  if (err instanceof TokenUsedUp) return sendErrors(res, 403, ['permission denied']);
  const path = (req.url ?? '').split('?')[0];
  deps.cluster.log(`error: ${req.method} ${path}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  sendErrors(res, 500, ['internal error']);
}
