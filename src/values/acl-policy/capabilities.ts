/**
 * The capabilities a path rule grants, as vault/policy.go names them (the constants and cap2Int)
 * and as its bitmap orders them; the legacy `policy = "..."` words and what each maps to.
 */
export type Capability = 'deny' | 'create' | 'read' | 'update' | 'delete' | 'list' | 'sudo' | 'patch' | 'subscribe';

export const CAPABILITY_BIT: Readonly<Record<Capability, number>> = {
  deny: 1 << 0,
  create: 1 << 1,
  read: 1 << 2,
  update: 1 << 3,
  delete: 1 << 4,
  list: 1 << 5,
  sudo: 1 << 6,
  patch: 1 << 7,
  subscribe: 1 << 8,
};

export function isCapability(word: string): word is Capability {
  return Object.hasOwn(CAPABILITY_BIT, word);
}

/** The legacy `policy` words (OldDenyPathPolicy...) and the capabilities policy.go maps them to. */
export const LEGACY_POLICY: Readonly<Record<string, readonly Capability[]>> = {
  deny: ['deny'],
  read: ['read', 'list'],
  write: ['create', 'read', 'update', 'delete', 'list'],
  sudo: ['create', 'read', 'update', 'delete', 'list', 'sudo'],
};

/**
 * The order in which acl.go's Capabilities lists a path's capabilities (sys/capabilities answers
 * in it): sudo, read, list, update, delete, create, patch, subscribe; `deny` alone when the path
 * has deny or nothing.
 */
const LISTED_ORDER: readonly Capability[] = ['sudo', 'read', 'list', 'update', 'delete', 'create', 'patch', 'subscribe'];

export function capabilityNames(bits: number): Capability[] {
  if ((bits & CAPABILITY_BIT.deny) !== 0) return ['deny'];
  const names = LISTED_ORDER.filter((name) => (bits & CAPABILITY_BIT[name]) !== 0);
  return names.length === 0 ? ['deny'] : names;
}
