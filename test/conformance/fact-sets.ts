import type { Fact } from './fact.js';
import { HELP_FACTS } from './facts/help.js';
import { LDAP_FACTS } from './facts/ldap.js';
import { LDAP_LOGIN_FACTS } from './facts/ldap-login.js';
import { MANAGED_KEY_FACTS } from './facts/managed-keys.js';
import { NAMESPACE_FACTS } from './facts/namespaces.js';
import { NAME_FACTS } from './facts/names.js';
import { SYS_FACTS } from './facts/sys.js';
import { TOKEN_FACTS } from './facts/tokens.js';

/** Every conformance fact, by area: run against serve (conformance.test.ts) and the real server (test/real-server/facts.test.ts). */
export const FACT_SETS: Readonly<Record<string, readonly Fact[]>> = {
  'LDAP auth method': LDAP_FACTS,
  'LDAP login': LDAP_LOGIN_FACTS,
  'system, health and replication': SYS_FACTS,
  'managed keys': MANAGED_KEY_FACTS,
  'token method': TOKEN_FACTS,
  namespaces: NAMESPACE_FACTS,
  'names and mount paths': NAME_FACTS,
  'help (?help=1)': HELP_FACTS,
};
