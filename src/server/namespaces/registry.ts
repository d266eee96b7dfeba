import type { StoreOp } from '../storage/journal.js';
import type { KvStore } from '../storage/kv-store.js';
import type { JsonObject } from '../util/json.js';
import { randomBase62 } from '../util/random.js';
import { namespaceKeyPrefix } from './scope.js';

/**
 * The namespaces created through `sys/namespaces` (website/content/api-docs/system/namespaces.mdx).
 * A namespace exists only once created, and only inside an existing parent; requests into
 * one that does not exist are not served (routes.ts). Kept under `core/namespaces/<encoded
 * full path>`, so they replicate and snapshot with the rest of the cluster.
 */
export interface NamespaceEntry {
  /** Five characters, as the service's namespace ids. */
  id: string;
  /** Full path with a trailing slash: `team-a/`, `team-a/dev/`. */
  path: string;
  custom_metadata: Record<string, string>;
}

const PREFIX = 'core/namespaces/';

export class NamespaceRegistry {
  constructor(private readonly store: KvStore) {}

  /** '' (the root) always exists; `a/b` exists when it and `a` were created. */
  exists(namespace: string): boolean {
    if (namespace === '') return true;
    const segments = namespace.split('/');
    return segments.every((_, i) => this.get(segments.slice(0, i + 1).join('/')) !== undefined);
  }

  get(namespace: string): NamespaceEntry | undefined {
    return this.store.get(PREFIX + encodeURIComponent(namespace)) as unknown as NamespaceEntry | undefined;
  }

  /** The direct children of `parent` ('' for the root), in path order. */
  children(parent: string): NamespaceEntry[] {
    return this.store
      .keysUnder(PREFIX)
      .map((key) => this.store.get(key) as unknown as NamespaceEntry)
      .filter((entry) => parentOf(entry.path.replace(/\/$/, '')) === parent)
      .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  /** Creates the namespace, or updates its custom metadata when it exists. */
  async put(namespace: string, customMetadata: Record<string, string> | undefined): Promise<NamespaceEntry> {
    const existing = this.get(namespace);
    const entry: NamespaceEntry = {
      id: existing?.id ?? randomBase62(5),
      path: `${namespace}/`,
      custom_metadata: customMetadata ?? existing?.custom_metadata ?? {},
    };
    await this.store.put(PREFIX + encodeURIComponent(namespace), entry as unknown as JsonObject);
    return entry;
  }

  /** Removes the namespace with everything stored in it (its extra deletions too), in one write. */
  async delete(namespace: string, extra: StoreOp[]): Promise<void> {
    const data = this.store.keysUnder(namespaceKeyPrefix(namespace)).map((key) => ({ key, value: null }));
    await this.store.write([{ key: PREFIX + encodeURIComponent(namespace), value: null }, ...data, ...extra]);
  }
}

export function parentOf(namespace: string): string {
  const at = namespace.lastIndexOf('/');
  return at === -1 ? '' : namespace.slice(0, at);
}
