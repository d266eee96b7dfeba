import type { ApiRequest, Operation } from './api-request.js';
import type { Reply } from './reply.js';
import type { JsonObject } from '../util/json.js';

/** The service's operations: LIST arrives as the LIST method or as GET ?list=true. */
export type { Operation };

/**
 * Who may call a route: anyone (logins, health), or a token whose policies allow the request
 * (policies/enforce.ts; the root token everything, `default` lookup-self and the like).
 */
type Access = 'public' | 'acl';

type Handler = (req: ApiRequest) => Reply | Promise<Reply>;

/** What an existence check reads: the object's place, named by the path (never the body). */
export type ExistenceQuery = Pick<ApiRequest, 'cluster' | 'params' | 'mount'>;

export interface Route {
  /**
   * The service's route pattern (sdk/framework/path.go Path.Pattern, anchored at both ends by
   * sdk/framework/backend.go init), matched against the path as the request names it, its
   * trailing slash included: segments separated by "/", literals, `:name` (one segment) or
   * `:name+` (the rest, may hold "/", a trailing slash too, as `(?P<name>.+)` does). A pattern
   * ending in `/?` takes the path with or without a trailing slash (`users/?$`, the list
   * patterns); any other takes exactly what it names, so `sys/auth/` is no `sys/auth`.
   */
  pattern: string;
  access: Access;
  handlers: Partial<Record<Operation, Handler>>;
  /**
   * The backend's ExistenceCheck (sdk/framework/path.go), on the routes whose service path has
   * one: a write is checked as `create` when the object does not exist and `update` when it
   * does (vault/request_handling.go CheckToken). A route without one is always `update`.
   */
  exists?: (query: ExistenceQuery) => boolean;
  /**
   * The type conversions of the route's field schema alone (FieldData.Validate), which the
   * existence check runs before the ACL is asked (sdk/framework/backend.go
   * HandleExistenceCheck): a field of the wrong type is a 400 even for a token the ACL would
   * refuse. Throws FieldError. Only on routes with `exists`.
   */
  validateFields?: (body: JsonObject) => void;
}

export interface RouteMatch {
  route: Route;
  params: Record<string, string>;
}

interface CompiledRoute {
  route: Route;
  regex: RegExp;
  names: string[];
}

export class Router {
  private readonly compiled: CompiledRoute[];

  constructor(routes: Route[]) {
    this.compiled = routes.map(compile);
  }

  /** The routes, in matching order (a backend's help lists them). */
  get routes(): readonly Route[] {
    return this.compiled.map((c) => c.route);
  }

  /** `path` has no leading slash; a trailing one is the request's (a LIST's is always there). */
  match(path: string): RouteMatch | undefined {
    for (const { route, regex, names } of this.compiled) {
      const m = regex.exec(path);
      if (!m) continue;
      const params: Record<string, string> = {};
      names.forEach((name, i) => (params[name] = m[i + 1]!));
      return { route, params };
    }
    return undefined;
  }
}

/** A pattern's optional trailing slash: `users/?` is `^users/?$`. */
const OPTIONAL_SLASH = '/?';

function compile(route: Route): CompiledRoute {
  const names: string[] = [];
  const optionalSlash = route.pattern.endsWith(OPTIONAL_SLASH);
  const segments = optionalSlash ? route.pattern.slice(0, -OPTIONAL_SLASH.length) : route.pattern;
  const source = segments
    .split('/')
    .map((segment) => {
      if (!segment.startsWith(':')) return segment.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');
      const greedy = segment.endsWith('+');
      names.push(segment.slice(1, greedy ? -1 : undefined));
      return greedy ? '(.+)' : '([^/]+)';
    })
    .join('/');
  return { route, regex: new RegExp(`^${source}${optionalSlash ? '/?' : ''}$`), names };
}
