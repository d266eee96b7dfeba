import { describe, expect, it } from 'vitest';
import { canonicalPolicyName, policyNameProblem } from '../../../src/kinds/acl-policy/names.js';

// vault/policy_store.go: sanitizeName (trim, lower case), immutablePolicies (root,
// response-wrapping, control-group: "cannot update %q policy"); default may be written.
describe('ACL policy names as the service keeps them', () => {
  it('stores a name trimmed and lower-cased as Go does', () => {
    expect(canonicalPolicyName('Prod-Admin')).toBe('prod-admin');
    expect(canonicalPolicyName('ÄRGER')).toBe('ärger');
  });

  it("refuses the service's own policies, whatever their case, and accepts default", () => {
    for (const name of ['root', 'ROOT', 'response-wrapping', 'Control-Group']) expect(policyNameProblem(name), name).toMatch(/is the service's own policy and cannot be written/);
    expect(policyNameProblem('default')).toBeUndefined();
    expect(policyNameProblem('Default')).toBeUndefined();
  });

  it('refuses what cannot be one path segment, and spaces the service would trim', () => {
    expect(policyNameProblem('a/b')).toMatch(/must not contain "\/"/);
    expect(policyNameProblem('..')).toMatch(/cannot be addressed/);
    expect(policyNameProblem(' ops')).toMatch(/must not start or end with spaces/);
    expect(policyNameProblem('ops team')).toBeUndefined();
  });
});
