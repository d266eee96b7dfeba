import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../support/cli.js';
import { writeManifestFolder } from '../support/e2e.js';
import { startTestServer, type TestCluster } from '../support/server.js';
import { runNamespaceScenario } from './namespace-kind.support.js';

// Each CLI run is a fresh process (seconds on a busy machine): a generous timeout.
vi.setConfig({ testTimeout: 240_000 });

let cluster: TestCluster;
let dir: string;

beforeAll(async () => {
  cluster = await startTestServer();
  dir = await mkdtemp(path.join(tmpdir(), 'lockstep-ns-kind-'));
});

afterAll(async () => {
  await cluster.server.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the Namespace kind against serve', () => {
  it('refuses, located, a declared namespace whose parent is nowhere, and a document in a namespace the Namespace documents would prune', async () => {
    const m = await writeManifestFolder(path.join(dir, 'refused'), {
      'ns.yaml': 'apiVersion: lockstep/v1\nkind: Namespace\nname: team-x/apps\n---\napiVersion: lockstep/v1\nkind: Namespace\nname: kept\nprune: true\n',
      'ldap.yaml': 'apiVersion: lockstep/v1\nkind: LdapAuth\nnamespace: team-z/q\nusers:\n  bob: {}\n',
    });
    const plan = await runCli(['plan', m], { env: cluster.env });
    expect(plan.code, plan.stdout + plan.stderr).toBe(1);
    expect(plan.stderr).toContain(`${path.join(m, 'ldap.yaml')}:3:12: error: namespace "team-z" is declared by no Namespace document, and the Namespace documents of cluster "default" prune the namespaces none declares`);
    expect(plan.stderr).toContain(`${path.join(m, 'ns.yaml')}:3:7: error: parent namespace "team-x" does not exist on cluster "default"; declare it (kind: Namespace, name: team-x) or create it first`);
    expect(plan.stdout).toBe('');
  });

  it('creates, plans empty, refuses to prune a namespace that holds anything, prunes empty ones, patches metadata, exports', async () => {
    await runNamespaceScenario(cluster, dir);
  });
});
