import type { KvStore } from '../storage/kv-store.js';
import { namespaceKeyPrefix } from '../namespaces/scope.js';
import { parseAclPolicy, type AclPolicy } from '../../values/acl-policy/index.js';
import { DEFAULT_POLICY_TEXT } from './default-policy.js';

/**
 * A namespace's ACL policies (vault/policy_store.go): stored by lower-cased name under the
 * namespace's `sys/policy/`, `default` there until someone changes it, `root` never stored
 * (immutable, and no path rules: the ACL of a token holding it allows everything).
 */
interface StoredPolicy {
  raw: string;
}

const DEFAULT_NAME = 'default';

/** policy_store.go sanitizeName. */
export function policyName(name: string): string {
  return name.trim().toLowerCase();
}

export class PolicyStore {
  constructor(
    private readonly store: KvStore,
    private readonly namespace: string,
  ) {}

  private key(name: string): string {
    return `${namespaceKeyPrefix(this.namespace)}sys/policy/${name}`;
  }

  /** The policy's text, or undefined when there is none (`root` has none: it is no stored policy). */
  text(name: string): string | undefined {
    const stored = this.store.get(this.key(name)) as StoredPolicy | undefined;
    if (stored !== undefined) return stored.raw;
    return name === DEFAULT_NAME ? DEFAULT_POLICY_TEXT : undefined;
  }

  /** Names, sorted, `default` always among them (policy_store.go ListPolicies; `root` is added by the handler). */
  names(): string[] {
    const stored = this.store.list(`${namespaceKeyPrefix(this.namespace)}sys/policy/`).filter((n) => !n.endsWith('/'));
    return [...new Set([...stored, DEFAULT_NAME])].sort();
  }

  async put(name: string, raw: string): Promise<void> {
    await this.store.put(this.key(name), { raw });
  }

  async delete(name: string): Promise<void> {
    await this.store.delete(this.key(name));
  }

  /** The parsed policy; undefined when it does not exist (a token may name one that does not). */
  parsed(name: string): AclPolicy | undefined {
    const raw = this.text(name);
    return raw === undefined ? undefined : parsedText(raw, this.namespace);
  }
}

/** Parsed policies by namespace and text: a policy is parsed once however many requests use it. */
const parsedCache = new Map<string, AclPolicy>();
const CACHE_LIMIT = 1024;

function parsedText(raw: string, namespace: string): AclPolicy | undefined {
  const cacheKey = `${namespace}\u0000${raw}`;
  const cached = parsedCache.get(cacheKey);
  if (cached !== undefined) return cached;
  const result = parseAclPolicy(raw, { namespacePath: namespace === '' ? '' : `${namespace}/` });
  // Stored text was parsed before it was stored; text that no longer parses grants nothing.
  if (result.kind !== 'parsed') return undefined;
  if (parsedCache.size >= CACHE_LIMIT) parsedCache.clear();
  parsedCache.set(cacheKey, result.policy);
  return result.policy;
}
