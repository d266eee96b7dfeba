import { createHash } from 'node:crypto';
import type { MountEntry, MountKind } from '../sys/mount-table.js';

interface DefaultMount {
  kind: MountKind;
  path: string;
  /** The namespace variant of the built-in type (vault/mount.go mountTypeNSToken and the others). */
  type: string;
  description: string;
  local?: boolean;
  sealWrap?: boolean;
  passthroughRequestHeaders?: string[];
}

/**
 * What a new namespace has, as in the service: no `secret/` engine, unlike the root's dev set;
 * the namespace's own kinds of the singleton mounts (vault/mount.go mountTypeNSToken,
 * mountTypeNSCubbyhole, mountTypeNSIdentity, mountTypeNSSystem; requiredMountTable for the
 * rest).
 */
const NAMESPACE_MOUNTS: DefaultMount[] = [
  { kind: 'auth', path: 'token/', type: 'ns_token', description: 'token based credentials' },
  { kind: 'secret', path: 'cubbyhole/', type: 'ns_cubbyhole', description: 'per-token private secret storage', local: true },
  { kind: 'secret', path: 'identity/', type: 'ns_identity', description: 'identity store', passthroughRequestHeaders: ['Authorization'] },
  { kind: 'secret', path: 'sys/', type: 'ns_system', description: 'system endpoints used for control, policy and debugging', sealWrap: true, passthroughRequestHeaders: ['Accept'] },
];

/**
 * The mount table of a namespace nothing was written to yet. Accessors and UUIDs derive from
 * the namespace and path, so reads of an unused namespace are stable without writing anything;
 * the first change to a table stores these entries with it.
 */
export function defaultNamespaceMounts(namespace: string, kind: MountKind): MountEntry[] {
  return NAMESPACE_MOUNTS.filter((m) => m.kind === kind).map((m) => {
    const digest = createHash('sha256').update(`${namespace}\0${kind}\0${m.path}`).digest('hex');
    return {
      kind,
      path: m.path,
      type: m.type,
      description: m.description,
      // The accessor is made from the singleton's own type, before it becomes the namespace's kind.
      accessor: `${kind === 'auth' ? 'auth_' : ''}${m.type.replace(/^ns_/, '')}_${digest.slice(0, 8)}`,
      uuid: asUuid(digest.slice(8, 40)),
      local: m.local ?? false,
      seal_wrap: m.sealWrap ?? false,
      options: null,
      config: {
        default_lease_ttl: 0,
        max_lease_ttl: 0,
        force_no_cache: false,
        allowed_managed_keys: [],
        ...(m.passthroughRequestHeaders ? { passthrough_request_headers: m.passthroughRequestHeaders } : {}),
      },
    };
  });
}

/** 32 hex digits in the UUID layout (version 4 and variant bits set, as random UUIDs have). */
function asUuid(hex: string): string {
  const h = hex.split('');
  h[12] = '4';
  h[16] = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  const s = h.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20, 32)}`;
}
