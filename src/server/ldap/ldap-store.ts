import type { KvStore } from '../storage/kv-store.js';
import { storagePrefix, type MountEntry } from '../sys/mount-table.js';
import type { JsonObject } from '../util/json.js';
import { defaultLdapConfig, type LdapConfig } from './config.js';

/** A local group: policies granted to members (LDAP or local). */
export interface LocalGroup {
  policies: string[];
}

/** A local user: own policies and local group memberships. */
export interface LocalUser {
  policies: string[];
  groups: string[];
}

/** One LDAP mount's data in the store, under the mount's prefix: config, group/<name>, user/<name>. */
export class LdapMountStore {
  private readonly prefix: string;

  constructor(
    private readonly store: KvStore,
    mount: MountEntry,
  ) {
    this.prefix = storagePrefix(mount);
  }

  /** The stored config over the defaults (a mount never written to reads as the defaults). */
  config(): LdapConfig {
    const stored = this.store.get(this.prefix + 'config') as Partial<LdapConfig> | undefined;
    return { ...defaultLdapConfig(), ...stored };
  }

  async putConfig(config: LdapConfig): Promise<void> {
    await this.store.put(this.prefix + 'config', config as unknown as JsonObject);
  }

  /** Stored names are already in their final case; callers normalise the name first. */
  group(name: string): LocalGroup | undefined {
    return this.store.get(`${this.prefix}group/${name}`) as LocalGroup | undefined;
  }

  /** Every group, however deep its name (`a/b`): path_groups.go pathGroupList collects keys. */
  groupNames(): string[] {
    return this.collectKeys('group/');
  }

  async putGroup(name: string, group: LocalGroup): Promise<void> {
    await this.store.put(`${this.prefix}group/${name}`, group as unknown as JsonObject);
  }

  async deleteGroup(name: string): Promise<void> {
    await this.store.delete(`${this.prefix}group/${name}`);
  }

  user(name: string): LocalUser | undefined {
    return this.store.get(`${this.prefix}user/${name}`) as LocalUser | undefined;
  }

  /** Every user, as groupNames (path_users.go pathUserList). */
  userNames(): string[] {
    return this.collectKeys('user/');
  }

  async putUser(name: string, user: LocalUser): Promise<void> {
    await this.store.put(`${this.prefix}user/${name}`, user as unknown as JsonObject);
  }

  async deleteUser(name: string): Promise<void> {
    await this.store.delete(`${this.prefix}user/${name}`);
  }

  /**
   * logical.CollectKeysWithPrefix (sdk/logical/storage.go): every key below `folder` of this
   * mount, relative to it, in ScanView's order: a folder's entries as listed, its sub-folders
   * after, depth first from the last one.
   */
  private collectKeys(folder: string): string[] {
    const base = this.prefix + folder;
    const keys: string[] = [];
    const frontier = [''];
    while (frontier.length > 0) {
      const current = frontier.pop()!;
      for (const child of this.store.list(base + current)) {
        if (child.endsWith('/')) frontier.push(current + child);
        else keys.push(current + child);
      }
    }
    return keys;
  }
}
