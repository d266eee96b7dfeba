import type { KvStore } from '../storage/kv-store.js';
import type { JsonObject } from '../util/json.js';
import { compareBytes } from '../util/lists.js';
import { namespaceKeyPrefix } from '../namespaces/scope.js';
import type { ManagedKeyType } from './fields.js';

/** A managed key as stored: its configuration holds only the fields that were set. */
export interface StoredManagedKey {
  name: string;
  type: ManagedKeyType;
  /** Given at creation, kept by updates. */
  uuid: string;
  config: JsonObject;
}

/**
 * The managed keys of one namespace, one store entry per name (names are unique across types):
 * `<namespace prefix>core/managed-keys/<name>`.
 */
export class ManagedKeyStore {
  private readonly prefix: string;

  constructor(
    private readonly store: KvStore,
    namespace: string,
  ) {
    this.prefix = `${namespaceKeyPrefix(namespace)}core/managed-keys/`;
  }

  get(name: string): StoredManagedKey | undefined {
    return this.store.get(this.prefix + name) as StoredManagedKey | undefined;
  }

  /** Names of the keys of one type, sorted. */
  names(type: ManagedKeyType): string[] {
    return this.store
      .keysUnder(this.prefix)
      .map((key) => this.store.get(key) as unknown as StoredManagedKey)
      .filter((k) => k.type === type)
      .map((k) => k.name)
      .sort(compareBytes);
  }

  put(key: StoredManagedKey): Promise<void> {
    return this.store.put(this.prefix + key.name, key as unknown as JsonObject);
  }

  delete(name: string): Promise<void> {
    return this.store.delete(this.prefix + name);
  }
}
