/** Where configurations live in the cluster's store: part of its state, so snapshots and restores carry them. */
import type { KvStore } from '../storage/kv-store.js';
import { asSnapshotConfig, type SnapshotConfig } from './config.js';

export const CONFIG_PREFIX = 'core/snapshot-auto/config/';

export function configKey(name: string): string {
  return CONFIG_PREFIX + name;
}

export function storedConfig(store: KvStore, name: string): SnapshotConfig | undefined {
  return asSnapshotConfig(store.get(configKey(name)));
}

export function configNames(store: KvStore): string[] {
  return store.keysUnder(CONFIG_PREFIX).map((key) => key.slice(CONFIG_PREFIX.length));
}

export function storedConfigs(store: KvStore): Map<string, SnapshotConfig> {
  const found = new Map<string, SnapshotConfig>();
  for (const name of configNames(store)) {
    const config = storedConfig(store, name);
    if (config) found.set(name, config);
  }
  return found;
}
