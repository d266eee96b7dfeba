import type { JsonObject } from '../util/json.js';
import { releaseNumber, type Release } from '../../values/index.js';
import type { Route } from './router.js';

/**
 * `?help=1` (any non-empty `help` query value) or the HELP method asks any path for its help
 * document instead of serving it (hashicorp/vault http/help.go wrapHelpHandler). The answer is
 * the bare data of logical.HelpResponse, no envelope: `help` (text), `openapi` (the path's
 * OpenAPI document) and `see_also` (null), as sdk/framework/backend.go handleRequest answers
 * logical.HelpOperation. The emulator's routes carry no synopses, so the text names the
 * request, its route and the operations it serves; the shape is the service's.
 */
export function asksForHelp(method: string | undefined, query: URLSearchParams): boolean {
  return method === 'HELP' || (query.get('help') ?? '') !== '';
}

/** What help is asked of: one route of a backend, or a backend's root (its list of paths). */
export type HelpSubject =
  /** `backendPath`: the request's path as its backend sees it (after `sys/` or `auth/<mount>/`). */
  | { kind: 'path'; backendPath: string; route: Route; routePrefix: string }
  /** An auth mount's own path: the backend's help (sdk/framework/backend.go handleRootHelp). */
  | { kind: 'backend'; type: string; routes: readonly Route[] };

export function helpDocument(subject: HelpSubject, release: Release): JsonObject {
  switch (subject.kind) {
    case 'path': {
      const pattern = subject.route.pattern.slice(subject.routePrefix.length);
      const text = [
        `Request:        ${subject.backendPath}`,
        `Matching Route: ${goRegexOf(pattern)}`,
        '',
        '## DESCRIPTION',
        '',
        `This path responds to these operations: ${Object.keys(subject.route.handlers).join(', ')}.`,
      ].join('\n');
      return helpResponse(text, { [openApiPathOf(pattern)]: pathItemOf(subject.route) }, release);
    }
    case 'backend': {
      const patterns = subject.routes.map((r) => r.pattern);
      const text = [
        '## DESCRIPTION',
        '',
        `The "${subject.type}" auth method of the emulator.`,
        '',
        '## PATHS',
        '',
        'The following paths are supported by this backend.',
        '',
        ...patterns.map((p) => `    ${goRegexOf(p)}`),
      ].join('\n');
      return helpResponse(text, Object.fromEntries(subject.routes.map((r) => [openApiPathOf(r.pattern), pathItemOf(r)])), release);
    }
  }
}

/** logical.HelpResponse: help, see_also, openapi (sdk/framework/openapi.go NewOASDocument). */
function helpResponse(help: string, paths: JsonObject, release: Release): JsonObject {
  return {
    help,
    openapi: {
      openapi: '3.0.2',
      info: {
        title: 'HashiCorp Vault API',
        description: 'HTTP API that gives you full access to Vault. All API routes are prefixed with `/v1/`.',
        version: releaseNumber(release),
        license: { name: 'Mozilla Public License 2.0', url: 'https://www.mozilla.org/en-US/MPL/2.0' },
      },
      paths,
      components: { schemas: {} },
    },
    see_also: null,
  };
}

/** OpenAPI operations of a route: GET for read and list, POST for update, DELETE. */
function pathItemOf(route: Route): JsonObject {
  const ok = { responses: { '200': { description: 'OK' } } };
  const item: JsonObject = { description: '' };
  const { read, list, update, delete: remove } = route.handlers;
  if (read || list) item['get'] = list && !read ? { ...ok, parameters: [{ name: 'list', in: 'query', required: true, schema: { type: 'string', enum: ['true'] } }] } : ok;
  if (update) item['post'] = ok;
  if (remove) item['delete'] = ok;
  return item;
}

/** `groups/:name+` → `/groups/{name}`; `groups/?` → `/groups`. */
function openApiPathOf(pattern: string): string {
  return `/${pattern.replace(/\/\?$/, '').replace(/:([A-Za-z_]+)\+?/g, '{$1}')}`;
}

/** `groups/:name+` → `^groups/(?P<name>.+)$`, `groups/?` → `^groups/?$`, as framework.Path patterns are written. */
function goRegexOf(pattern: string): string {
  const optionalSlash = pattern.endsWith('/?');
  const source = (optionalSlash ? pattern.slice(0, -2) : pattern)
    .split('/')
    .map((segment) => {
      if (!segment.startsWith(':')) return segment.replace(/[\\.+*?()|[\]{}^$]/g, '\\$&');
      const greedy = segment.endsWith('+');
      return `(?P<${segment.slice(1, greedy ? -1 : undefined)}>${greedy ? '.+' : '[^/]+'})`;
    })
    .join('/');
  return `^${source}${optionalSlash ? '/?' : ''}$`;
}
