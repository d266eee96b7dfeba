import type { Caller } from '../auth/token-store.js';
import type { KvStore } from '../storage/kv-store.js';
import { splitNamespace } from '../namespaces/path.js';
import { allowOperation, buildAcl, type Acl, type NamedPolicy, type Operation } from '../../values/acl-policy/index.js';
import { PolicyStore } from './policy-store.js';

/**
 * Whether a token may make a request (vault/request_handling.go CheckToken →
 * performPolicyChecks): the ACL of the token's policies, looked up in the namespace that issued
 * it, decides for the request's full path; a root-protected path also needs sudo. The root
 * token never gets here (the pipeline lets it through at once).
 */
export function tokenAcl(store: KvStore, caller: Caller): Acl {
  const policies = new PolicyStore(store, caller.entry.namespace ?? '');
  const named: NamedPolicy[] = [];
  for (const name of caller.entry.policies) {
    const policy = name === 'root' ? { rules: [] } : policies.parsed(name);
    if (policy !== undefined) named.push({ name, policy });
  }
  return buildAcl(named);
}

export function requestAllowed(
  store: KvStore,
  caller: Caller,
  request: { path: string; operation: Operation; data?: Readonly<Record<string, unknown>> },
): boolean {
  const decision = allowOperation(tokenAcl(store, caller), request);
  if (!decision.allowed) return false;
  return decision.rootPrivs || !requiresSudo(request.path);
}

/**
 * Root-protected paths (logical.Paths Root): the system backend's (vault/logical_system.go
 * NewSystemBackend PathsSpecial) and the token store's (vault/token_store.go). A trailing `*`
 * is a prefix, as vault/router.go reads them.
 */
const SYS_ROOT_PATHS = [
  'auth/*', 'remount', 'audit', 'audit/*', 'raw', 'raw/*',
  'replication/primary/secondary-token', 'replication/performance/primary/secondary-token', 'replication/dr/primary/secondary-token',
  'replication/reindex', 'replication/dr/reindex', 'replication/performance/reindex',
  'rotate', 'config/cors', 'config/auditing/*', 'config/ui/headers/*', 'plugins/catalog/*', 'plugins/runtimes/catalog/*',
  'revoke-prefix/*', 'revoke-force/*', 'leases/revoke-prefix/*', 'leases/revoke-force/*', 'leases/lookup/*',
  'storage/raft/snapshot-auto/config/*', 'leases', 'internal/inspect/*', 'seal', 'step-down',
];
const TOKEN_ROOT_PATHS = ['revoke-orphan/*', 'accessors*'];

function requiresSudo(fullPath: string): boolean {
  const inner = splitNamespace(fullPath)?.rest ?? fullPath;
  if (inner.startsWith('sys/')) return matchesAny(inner.slice('sys/'.length), SYS_ROOT_PATHS);
  if (inner.startsWith('auth/token/')) return matchesAny(inner.slice('auth/token/'.length), TOKEN_ROOT_PATHS);
  return false;
}

function matchesAny(path: string, patterns: readonly string[]): boolean {
  return patterns.some((p) => (p.endsWith('*') ? path.startsWith(p.slice(0, -1)) : path === p));
}
