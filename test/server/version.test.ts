/**
 * The release a cluster reports (`serve --cluster-version NAME=VERSION`). The service reports
 * version/version.go VersionNumber() (`1.21.0+ent`) in http/sys_health.go (`version`) and
 * http/sys_seal.go (`version`), its OpenAPI document's info.version is the number without
 * metadata (sdk/framework/openapi.go NewOASDocument), and built-in plugins run as
 * `v<number>+builtin.vault` (helper/versions DefaultBuiltinVersion). The DR status carries none
 * (api-docs/system/replication/replication-dr.mdx).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { parseClusterVersion } from '../../src/commands/serve.js';
import { EMULATED_VERSION } from '../../src/server/version.js';
import { apiClient, startTestServer } from './helpers.js';

async function reported(cluster: Parameters<typeof apiClient>[0]) {
  const api = apiClient(cluster);
  const [health, seal, auth, help] = await Promise.all([api.get('sys/health'), api.get('sys/seal-status'), api.get('sys/auth'), api.get('sys/auth?help=1')]);
  return {
    health: health.body.version,
    seal: seal.body.version,
    plugin: auth.body.data['token/'].running_plugin_version,
    openapi: help.body.openapi.info.version,
  };
}

describe('serve --cluster-version', () => {
  it('makes each named cluster report its release everywhere the service reports one; the others keep the default', async () => {
    const server = await startTestServer({ clusters: ['east', 'west'], clusterVersions: { west: '1.21.1+ent.hsm' } });
    try {
      const [east, west] = server.clusters;
      expect(await reported(east!)).toEqual({ health: EMULATED_VERSION, seal: EMULATED_VERSION, plugin: 'v1.21.0+builtin.vault', openapi: '1.21.0' });
      expect(await reported(west!)).toEqual({ health: '1.21.1+ent.hsm', seal: '1.21.1+ent.hsm', plugin: 'v1.21.1+builtin.vault', openapi: '1.21.1' });
    } finally {
      await server.close();
    }
  });

  it('is an upgrade when the cluster starts again on its data with another release: its state is kept', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'lockstep-version-'));
    try {
      const before = await startTestServer({ clusters: ['east'], dataDir, rootToken: 'root' });
      expect((await apiClient(before.clusters[0]!).post('sys/auth/ldap', { type: 'ldap' })).status).toBe(204);
      await before.close();
      const after = await startTestServer({ clusters: ['east'], dataDir, rootToken: 'root', clusterVersions: { east: '1.22.0-rc1+ent' } });
      try {
        const api = apiClient(after.clusters[0]!);
        expect((await api.get('sys/health')).body.version).toBe('1.22.0-rc1+ent');
        expect((await api.get('sys/auth')).body.data['ldap/'].running_plugin_version).toBe('v1.22.0-rc1+builtin.vault');
      } finally {
        await after.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('refuses a cluster it does not run and a release the service could not report', async () => {
    await expect(startTestServer({ clusters: ['east'], clusterVersions: { south: '1.21.0+ent' } })).rejects.toThrow(
      '--cluster-version south=1.21.0+ent: no cluster named "south" (clusters: east)',
    );
    await expect(startTestServer({ clusters: ['east'], clusterVersions: { east: 'v1.21' } })).rejects.toThrow('--cluster-version east=v1.21: not a release');
  });

  it('is read on the command line as NAME=VERSION, repeatable, each release checked', () => {
    const parse = (argv: string[]) => {
      const program = new Command().exitOverride().option('--cluster-version <name=version>', '', parseClusterVersion);
      program.configureOutput({ writeErr: () => undefined });
      return program.parse(argv, { from: 'user' }).opts().clusterVersion as Record<string, string> | undefined;
    };
    expect(parse(['--cluster-version', 'east=1.21.1+ent', '--cluster-version', 'west = 1.20.4+prem'])).toEqual({ east: '1.21.1+ent', west: '1.20.4+prem' });
    for (const bad of [['east'], ['=1.21.0'], ['east='], ['east=1.21'], ['east=banana'], ['east=1.21.0', 'east=1.21.1']]) {
      expect(() => parse(bad.flatMap((v) => ['--cluster-version', v])), bad.join(' ')).toThrow();
    }
  });
});
