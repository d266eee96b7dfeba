import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, it, vi } from 'vitest';
import { useRealServer } from '../support/real-server.js';
import { runNamespaceScenario } from '../e2e/namespace-kind.support.js';

/**
 * The Namespace kind against the real server (OpenBao serves sys/namespaces): the same scenario
 * as against serve (test/e2e/namespace-kind.test.ts). OpenBao deletes a namespace in the
 * background (vault/namespace_store.go DeleteNamespace: 200 `status: in-progress`, read back
 * `tainted` until done); lockstep's reads leave a tainted namespace alone, so the plan after a
 * prune is empty however far the deletion got.
 */
vi.setConfig({ testTimeout: 240_000 });
const server = useRealServer();
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'lockstep-ns-kind-real-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the Namespace kind against the real server', () => {
  it('creates, plans empty, refuses to prune a namespace that holds anything, prunes empty ones, patches metadata, exports', async () => {
    await runNamespaceScenario(server(), dir);
  });
});
