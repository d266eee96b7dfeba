import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, it, vi } from 'vitest';
import { startTestServer, type TestCluster } from '../support/server.js';
import { runAclPolicyRefusals, runAclPolicyScenario, runDeniedListScenario } from './acl-policy.support.js';

// Each CLI run is a fresh process (seconds on a busy machine): a generous timeout.
vi.setConfig({ testTimeout: 240_000 });

let cluster: TestCluster;
let dir: string;

beforeAll(async () => {
  cluster = await startTestServer();
  dir = await mkdtemp(path.join(tmpdir(), 'lockstep-acl-kind-'));
});

afterAll(async () => {
  await cluster.server.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the AclPolicy kind against serve', () => {
  it('creates before the groups naming them, warns of a typo (an error when strict), diffs text, prunes, exports', async () => {
    await runAclPolicyScenario(cluster, dir);
  });

  it('refuses a bad text, located inside the block scalar, and the names the service keeps', async () => {
    await runAclPolicyRefusals(dir);
  });

  it('a token that may not list the policies: one warning that the check was skipped, the plan goes on', async () => {
    await runDeniedListScenario(cluster, dir);
  });
});
