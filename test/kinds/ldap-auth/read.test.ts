import { describe, expect, it } from 'vitest';
import { createClusterClient } from '../../../src/client/http-client.js';
import { ConcurrencyLimiter } from '../../../src/client/limiter.js';
import { Secret } from '../../../src/core/secret.js';
import type { ReadAhead } from '../../../src/kinds/kind.js';
import { desiredLdapAuth } from '../../../src/kinds/ldap-auth/normalise.js';
import { readLdapAuth } from '../../../src/kinds/ldap-auth/read.js';
import { useForFile } from '../../support/file-scoped.js';
import { startTestServer } from '../../support/server.js';
import { configDoc, ctx, ldapDocs } from './docs.js';

const server = useForFile(() => startTestServer(), (s) => s.server.close());

describe('reading an LDAP method (serve over HTTP)', () => {
  it("starts the review's directory read as soon as the config is read, before the groups and users are", async () => {
    const s = server();
    await s.raw('POST', 'sys/auth/ldap', { type: 'ldap' });
    await s.raw('POST', 'auth/ldap/config', { url: 'ldap://127.0.0.1:1', binddn: 'cn=svc', token_policies: 'base' });
    for (let i = 0; i < 20; i++) await s.raw('POST', `auth/ldap/groups/g${i}`, { policies: 'p' });
    const groups = Array.from({ length: 20 }, (_, i) => `  g${i}: { policies: [p] }`).join('\n');
    const docs = await ldapDocs([`${configDoc('url: ldap://127.0.0.1:1', 'binddn: cn=svc', 'bindpass: pw', 'token_policies: [base, extra]')}groups:\n${groups}\n`]);
    const order: string[] = [];
    const client = createClusterClient(
      { name: 'default', address: s.baseUrl, auth: { method: 'token', token: new Secret(s.token, 'test') }, authSource: 'test', insecureSkipVerify: false },
      { limiter: new ConcurrencyLimiter(4), onExchange: (e) => order.push(`${e.method} ${e.path}`) },
    );
    const readAhead: ReadAhead = {
      start: (key, work, abandon) => {
        order.push(`ahead ${key}`);
        // What it reaches is the review's business (read-ahead.test.ts): abandoned here.
        work.catch(() => undefined);
        abandon();
      },
      take: () => undefined,
    };
    try {
      const live = await readLdapAuth(desiredLdapAuth(docs, ctx), { get: () => client }, { readAhead });
      expect(live.resources.filter((r) => r.resourceType === 'ldap.group')).toHaveLength(20);
    } finally {
      client.close();
    }
    const ahead = order.indexOf('ahead ldap-directory default:auth/ldap');
    expect(order.filter((o) => o.startsWith('ahead'))).toHaveLength(1);
    expect(ahead).toBeGreaterThan(order.indexOf('GET auth/ldap/config'));
    expect(ahead).toBeLessThan(order.findIndex((o) => o.startsWith('GET auth/ldap/groups/')));
  });
});
