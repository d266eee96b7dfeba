import type { MountTable } from '../sys/mount-table.js';

/** Mounts of the namespace whose allowed_managed_keys list `name` (auth mounts as `auth/<path>`). */
export function mountsUsingKey(mounts: MountTable, name: string): string[] {
  const secrets = mounts.list('secret').filter((m) => m.config.allowed_managed_keys.includes(name)).map((m) => m.path);
  const auths = mounts.list('auth').filter((m) => m.config.allowed_managed_keys.includes(name)).map((m) => `auth/${m.path}`);
  return [...secrets, ...auths];
}
