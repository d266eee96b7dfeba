import { describe, expect, it } from 'vitest';
import { useRealServer } from '../support/real-server.js';

// The real server the real-server suite runs against answers, and serves the LDAP auth method
// (OpenBao 2.7 moved it out of its binary: test/setup/openbao.sh pins 2.6.2 for that reason).
const server = useRealServer();

describe('the real server', () => {
  it('is up, unsealed, and has the LDAP auth method in its catalog', async () => {
    const health = await server().raw('GET', 'sys/health');
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ initialized: true, sealed: false });
    const ldap = await server().raw('GET', 'sys/plugins/catalog/auth/ldap');
    expect(ldap.status, `${server().release} has no LDAP auth method`).toBe(200);
  });
});
