// The manifests both benches plan and apply: one LDAP method with its config, GROUPS groups and
// `users` users, under `mount`.
import { GROUPS, LDAP_CONFIG } from './workload.mjs';

export function manifests(users, mount) {
  const groups = Array.from({ length: GROUPS }, (_, i) => `  g${i}: { policies: [p${i % 50}, shared] }`).join('\n');
  const userLines = Array.from({ length: users }, (_, i) => `  u${i}: { policies: [own${i % 100}], groups: [g${i % GROUPS}, g${(i * 7) % GROUPS}] }`).join('\n');
  return `apiVersion: lockstep/v1
kind: LdapAuth
mount: ${mount}
config:
${Object.entries(LDAP_CONFIG).map(([k, v]) => `  ${k}: ${v}`).join('\n')}
groups:
${groups}
---
apiVersion: lockstep/v1
kind: LdapAuth
mount: ${mount}
users:
${userLines}
`;
}
