import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/client/errors.js';
import type { ApiResponse, ClusterClient, HttpMethod, RequestPath } from '../../src/client/types.js';
import { aclPolicyAddress } from '../../src/core/acl-policy-path.js';
import type { Change } from '../../src/core/plan.js';
import { RedactionSet } from '../../src/core/redaction.js';
import { missingPolicies } from '../../src/engine/policies.js';
import { ldapAuthKind } from '../../src/kinds/ldap-auth/index.js';
import { ctx, ldapDocs } from '../kinds/ldap-auth/docs.js';

/** A cluster that answers the LIST of ACL policies with `names` (or 403), counting the LISTs. */
function fakePool(names: string[] | 'denied'): { pool: { get(): ClusterClient }; lists: string[] } {
  const lists: string[] = [];
  const client = {
    cluster: 'default',
    baseUrl: 'http://fake/v1',
    requestCount: 0,
    concurrency: 1,
    request: async (method: HttpMethod, path: RequestPath): Promise<ApiResponse> => {
      const text = typeof path === 'string' ? path : path.segments.join('/');
      if (method !== 'LIST') throw new Error(`unexpected ${method} ${text}`);
      lists.push(text);
      if (names === 'denied') throw new ApiError({ cluster: 'default', method, url: text, status: 403, errors: ['permission denied'], message: 'permission denied' });
      return { status: 200, data: { keys: names }, auth: null, warnings: [], body: null };
    },
  } as unknown as ClusterClient;
  return { pool: { get: () => client }, lists };
}

const LDAP = [
  'apiVersion: lockstep/v1',
  'kind: LdapAuth',
  'config:',
  '  token_policies: [Default, ROOT, Prod-Admn]',
  'groups:',
  "  ops: { policies: 'ops,  prod-admin' }",
  'users:',
  '  alice: { policies: [prod-admin, typo] }',
  '',
].join('\n');

async function check(names: string[] | 'denied', opts: { changes?: Change[]; strict?: boolean; observed?: Record<string, string[]>; manifest?: string } = {}) {
  const docs = await ldapDocs([opts.manifest ?? LDAP]);
  const { pool, lists } = fakePool(names);
  const prepared = { kinds: [ldapAuthKind], documents: new Map([['LdapAuth', docs]]), desired: new Map([['LdapAuth', ldapAuthKind.desired(docs, ctx)]]) };
  const diags = await missingPolicies({ prepared, pool, observed: opts.observed ?? {}, changes: opts.changes ?? [], strict: opts.strict === true, redaction: new RedactionSet() });
  return { lines: diags.format(), lists };
}

describe('policies the manifests name that will not exist', () => {
  it('each at the item naming it (a list item, a name inside a comma-separated text), case as the service folds it, did-you-mean; default and root always there; one LIST', async () => {
    const { lines, lists } = await check(['default', 'ops', 'prod-admin', 'root']);
    expect(lines).toEqual([
      'f0.yaml:4:35: warning: policy "Prod-Admn" does not exist on cluster "default", and no AclPolicy document declares it (did you mean "prod-admin"?): a login mapped to it gets nothing from it',
      'f0.yaml:8:35: warning: policy "typo" does not exist on cluster "default", and no AclPolicy document declares it: a login mapped to it gets nothing from it',
    ]);
    expect(lists).toEqual(['sys/policies/acl']);
  });

  it('errors when strict; a policy the plan deletes counts as missing', async () => {
    const prune: Change = {
      address: aclPolicyAddress('default', '', 'ops'),
      resourceType: 'acl.policy',
      action: 'delete',
      reason: 'prune',
      before: { policy: '' },
      after: null,
      changedFields: [],
      writeOnlyFields: [],
      sensitiveFields: [],
      destructive: false,
      dependsOn: [],
      guards: [],
      notes: [],
    };
    const { lines } = await check(['default', 'ops', 'prod-admin', 'prod-admn', 'typo'], { changes: [prune], strict: true });
    expect(lines).toEqual(['f0.yaml:6:21: error: policy "ops" is deleted by this plan (prune) on cluster "default", and no AclPolicy document declares it: a login mapped to it gets nothing from it']);
  });

  it('a name no address can hold, listed by the server, is compared as text (no crash)', async () => {
    const { lines } = await check(['default', '${file:/etc/hostname}', 'ops', 'prod-admin', 'prod-admn', 'typo/x']);
    expect(lines).toEqual([expect.stringContaining('policy "typo" does not exist on cluster "default", and no AclPolicy document declares it (did you mean "typo/x"?)')]);
  });

  it('a policy many items name: the first three places, the third counting the rest', async () => {
    const users = Array.from({ length: 6 }, (_, i) => `  u${i}: { policies: [gone] }`).join('\n');
    const { lines } = await check(['default'], { manifest: `apiVersion: lockstep/v1\nkind: LdapAuth\nusers:\n${users}\n` });
    expect(lines.map((l) => l.split(': warning: ')[0])).toEqual(['f0.yaml:4:20', 'f0.yaml:5:20', 'f0.yaml:6:20']);
    expect(lines[0]).toMatch(/policy "gone" does not exist .*gets nothing from it$/);
    expect(lines[2]).toMatch(/gets nothing from it; 3 more places name it too$/);
  });

  it('a listing the AclPolicy read made is not made again', async () => {
    const { lines, lists } = await check(['default'], { observed: { 'default:sys/policies/acl': ['default', 'ops', 'prod-admin', 'prod-admn', 'root', 'typo'] } });
    expect(lines).toEqual([]);
    expect(lists).toEqual([]);
  });

  it('a LIST refused (403) is one warning, and the check is skipped there', async () => {
    const { lines } = await check('denied');
    expect(lines).toEqual([
      'warning: default:sys/policies/acl: the ACL policies here could not be listed: the token may not list them (403 permission denied); whether the policies the manifests name exist was not checked',
    ]);
  });
});
