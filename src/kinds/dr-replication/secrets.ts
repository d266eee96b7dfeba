import { isSecret, type Secret } from '../../core/secret.js';
import type { DesiredResource } from '../../core/resource.js';
import type { ValuePath } from '../../load/document.js';

/**
 * Secret fields of a DrReplication document: every operation token and every key share.
 * In the desired `dr.set` they are write-only entries named `operationTokens.<cluster>` and
 * `keyShares.<index>`, so the planner can tell which clusters have a token without the values.
 */
export function drSecretPaths(value: unknown): ValuePath[] {
  if (value === null || typeof value !== 'object') return [];
  const { operationTokens, keyShares } = value as { operationTokens?: unknown; keyShares?: unknown };
  const paths: ValuePath[] = [];
  if (operationTokens !== null && typeof operationTokens === 'object' && !Array.isArray(operationTokens)) {
    for (const cluster of Object.keys(operationTokens)) paths.push(['operationTokens', cluster]);
  }
  if (Array.isArray(keyShares)) keyShares.forEach((_, i) => paths.push(['keyShares', i]));
  return paths;
}

const TOKEN_PREFIX = 'operationTokens.';
const SHARE_PREFIX = 'keyShares.';

export function operationTokenKey(cluster: string): string {
  return `${TOKEN_PREFIX}${cluster}`;
}

export function keyShareKey(index: number): string {
  return `${SHARE_PREFIX}${index}`;
}

/** Where a step's DR operation token comes from. */
export type TokenSource = 'given' | 'generated';

/** What the planner may know about the secrets: names only, never values. */
export interface TokenAvailability {
  given: ReadonlySet<string>;
  hasKeyShares: boolean;
}

export function tokenAvailability(writeOnlyKeys: readonly string[]): TokenAvailability {
  const given = new Set(writeOnlyKeys.filter((k) => k.startsWith(TOKEN_PREFIX)).map((k) => k.slice(TOKEN_PREFIX.length)));
  return { given, hasKeyShares: writeOnlyKeys.some((k) => k.startsWith(SHARE_PREFIX)) };
}

/** A token given for the cluster wins over key shares; undefined when neither exists. */
export function tokenSourceFor(cluster: string, available: TokenAvailability): TokenSource | undefined {
  if (available.given.has(cluster)) return 'given';
  return available.hasKeyShares ? 'generated' : undefined;
}

/** The operation token given for a cluster in the desired set. */
export function givenOperationToken(desired: DesiredResource, cluster: string): Secret | undefined {
  const v = desired.writeOnly[operationTokenKey(cluster)];
  return isSecret(v) ? v : undefined;
}

/** The key shares of the desired set, in document order. */
export function keySharesOf(desired: DesiredResource): Secret[] {
  return Object.keys(desired.writeOnly)
    .filter((k) => k.startsWith(SHARE_PREFIX))
    .sort((a, b) => Number(a.slice(SHARE_PREFIX.length)) - Number(b.slice(SHARE_PREFIX.length)))
    .map((k) => desired.writeOnly[k])
    .filter(isSecret);
}
