/**
 * Namespaces as a path prefix (`/v1/team-a/sys/...`, nested `a/b/...`): created through
 * sys/namespaces (#14: a namespace never created serves nothing), each with its
 * own managed keys and mount table (so allowed_managed_keys and the delete guard are per
 * namespace); the root namespace's paths are unchanged.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { splitNamespace } from '../../../src/server/namespaces/path.js';
import { createNamespaces } from '../helpers.js';
import { startKeyServer, type KeyClient, type KeyServer } from './helpers.js';

let s: KeyServer;
let root: KeyClient;
let teamA: KeyClient;
let teamB: KeyClient;
let nested: KeyClient;

beforeAll(async () => {
  s = await startKeyServer();
  root = s.client();
  teamA = s.client('team-a');
  teamB = s.client('team-b');
  nested = s.client('team-a/sub');
  await createNamespaces(s.server.clusters[0]!, 'team-a/sub', 'team-b', 'fresh', 'fresh2');
});
afterAll(() => s?.close());

const aws = (kmsKey: string) => ({ key_type: 'RSA', key_bits: '2048', kms_key: kmsKey });

describe('managed keys per namespace', () => {
  it('a key exists only in its namespace; the same name may be used (even with another type) elsewhere', async () => {
    await teamA.putKey('provAkms', 'signer', aws('alias/a'));
    expect((await teamA.get('sys/managed-keys/provAkms/signer')).body.data.kms_key).toBe('alias/a');
    expect((await root.get('sys/managed-keys/provAkms/signer')).status).toBe(404);
    expect((await teamB.list('sys/managed-keys/provAkms')).status).toBe(404);
    expect((await nested.get('sys/managed-keys/provAkms/signer')).status).toBe(404);

    await root.putKey('provAkms', 'signer', aws('alias/root'));
    await nested.putKey('provBkeyvault', 'signer', { tenant_id: 't', vault_name: 'v', key_name: 'k', key_type: 'RSA-HSM' });
    expect((await teamA.get('sys/managed-keys/provAkms/signer')).body.data.kms_key).toBe('alias/a');
    expect((await root.get('sys/managed-keys/provAkms/signer')).body.data.kms_key).toBe('alias/root');
    expect((await nested.list('sys/managed-keys/provBkeyvault')).body.data.keys).toEqual(['signer']);
    expect((await teamA.list('sys/managed-keys/provBkeyvault')).status).toBe(404);
  });

  it('uniqueness across types holds within a namespace', async () => {
    const res = await teamA.post('sys/managed-keys/provBkeyvault/signer', { tenant_id: 't', vault_name: 'v', key_name: 'k', key_type: 'RSA-HSM' });
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatch(/already exists with type provAkms/);
  });

  it('deleting in one namespace leaves the others alone', async () => {
    await teamB.putKey('provAkms', 'temp', aws('alias/t'));
    await root.putKey('provAkms', 'temp', aws('alias/t'));
    expect((await teamB.delete('sys/managed-keys/provAkms/temp')).status).toBe(204);
    expect((await root.get('sys/managed-keys/provAkms/temp')).status).toBe(200);
  });
});

describe('mount tables per namespace', () => {
  it('a namespace starts with its default mounts (no secret/), stable before anything is written', async () => {
    const first = await s.client('fresh').get('sys/mounts');
    expect(first.status).toBe(200);
    expect(Object.keys(first.body.data)).toEqual(['cubbyhole/', 'identity/', 'sys/']);
    const again = await s.client('fresh').get('sys/mounts');
    expect(again.body.data).toEqual(first.body.data);
    expect(Object.keys((await s.client('fresh').get('sys/auth')).body.data)).toEqual(['token/']);
    // Another namespace's default mounts are its own.
    const other = (await s.client('fresh2').get('sys/mounts')).body.data;
    expect(other['sys/'].uuid).not.toBe(first.body.data['sys/'].uuid);
  });

  it('mounts made in a namespace are its own; the root table is unchanged', async () => {
    expect((await teamA.post('sys/mounts/pki', { type: 'pki' })).status).toBe(204);
    expect(Object.keys((await teamA.get('sys/mounts')).body.data)).toEqual(['cubbyhole/', 'identity/', 'pki/', 'sys/']);
    expect(Object.keys((await root.get('sys/mounts')).body.data)).toEqual(['cubbyhole/', 'identity/', 'secret/', 'sys/']);
    expect((await teamB.get('sys/mounts/pki')).status).toBe(400);
    // The same path may be mounted in another namespace.
    expect((await root.post('sys/mounts/pki', { type: 'pki' })).status).toBe(204);
  });

  it('allowed_managed_keys and the delete guard are per namespace', async () => {
    await teamA.putKey('provAkms', 'guarded', aws('alias/g'));
    await root.putKey('provAkms', 'guarded', aws('alias/g'));
    expect((await teamA.post('sys/mounts/pki/tune', { allowed_managed_keys: ['guarded'] })).status).toBe(204);
    expect((await teamA.get('sys/mounts/pki/tune')).body.data.allowed_managed_keys).toEqual(['guarded']);
    expect((await root.get('sys/mounts/pki/tune')).body.data).not.toHaveProperty('allowed_managed_keys');

    const refused = await teamA.delete('sys/managed-keys/provAkms/guarded');
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0]).toMatch(/listed in allowed_managed_keys of "pki\/"/);
    // The root's key of the same name is not listed by any root mount.
    expect((await root.delete('sys/managed-keys/provAkms/guarded')).status).toBe(204);
    expect((await teamA.get('sys/managed-keys/provAkms/guarded')).status).toBe(200);
  });

  it('auth methods are per namespace too', async () => {
    expect((await teamB.post('sys/auth/ldap', { type: 'ldap' })).status).toBe(204);
    expect((await teamB.post('auth/ldap/groups/admins', { policies: 'admin' })).status).toBe(204);
    expect((await teamB.get('auth/ldap/groups/admins')).body.data.policies).toEqual(['admin']);
    expect((await root.get('auth/ldap/groups/admins')).status).toBe(404);
    expect(Object.keys((await root.get('sys/auth')).body.data)).toEqual(['token/']);
  });
});

describe('routing', () => {
  it('splits the namespace prefix off at the first sys or auth segment', () => {
    expect(splitNamespace('sys/mounts')).toEqual({ namespace: '', rest: 'sys/mounts' });
    expect(splitNamespace('a/b/sys/managed-keys/pkcs11/k')).toEqual({ namespace: 'a/b', rest: 'sys/managed-keys/pkcs11/k' });
    expect(splitNamespace('team-a/auth/ldap/login/sys')).toEqual({ namespace: 'team-a', rest: 'auth/ldap/login/sys' });
    expect(splitNamespace('nothing/here')).toEqual({ namespace: '', rest: 'nothing/here' });
    expect(splitNamespace('identity/sys/mounts')).toBeUndefined();
  });

  it('root paths work as before; root-only paths are not served in a namespace', async () => {
    expect((await root.get('sys/health')).status).toBe(200);
    expect((await teamA.get('sys/health')).status).toBe(404);
  });

  it('reserved or malformed namespace names reach nothing', async () => {
    for (const ns of ['cubbyhole', 'identity/x', 'root', '-bad', 'a b']) {
      expect((await s.client(ns).get('sys/mounts')).status, ns).toBe(404);
    }
  });

  it('a namespace still needs the root token', async () => {
    const token = await s.server.mintToken({ policies: ['default'] });
    const res = await fetch(`${s.server.clusters[0]!.baseUrl}/team-a/sys/managed-keys/provAkms/signer`, { headers: { 'X-Vault-Token': token } });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ errors: ['1 error occurred:\n\t* permission denied\n\n'] });
    const anonymous = await fetch(`${s.server.clusters[0]!.baseUrl}/team-a/sys/mounts`);
    expect(anonymous.status).toBe(403);
  });

  it('the X-Vault-Namespace header names the namespace too; a path prefix is relative to it', async () => {
    const c = s.server.clusters[0]!;
    const get = (path: string, namespace: string) =>
      fetch(`${c.baseUrl}/${path}`, { headers: { 'X-Vault-Token': c.rootToken, 'X-Vault-Namespace': namespace } }).then(async (r) => ({ status: r.status, body: await r.json() }));
    expect((await get('sys/managed-keys/provAkms/signer', 'team-a/')).body.data.kms_key).toBe('alias/a');
    expect((await get('sub/sys/managed-keys/provBkeyvault?list=true', 'team-a')).body.data.keys).toEqual(['signer']);
    expect((await get('sys/managed-keys/provAkms/signer', 'root')).body.data.kms_key).toBe('alias/root');
  });

  it('the LIST method works in a namespace', async () => {
    expect((await teamA.call('LIST', 'sys/managed-keys/provAkms')).body.data.keys).toEqual(['guarded', 'signer']);
  });
});

describe('persistence', () => {
  it('namespaced keys and mounts survive a restart', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lockstep-mk-ns-'));
    try {
      const first = await startKeyServer({ dataDir: dir });
      await createNamespaces(first.server.clusters[0]!, 'p/q');
      await first.client('p/q').putKey('provAkms', 'kept', aws('alias/kept'));
      await first.client('p/q').post('sys/mounts/transit', { type: 'transit', config: { allowed_managed_keys: 'kept' } });
      const before = (await first.client('p/q').get('sys/mounts')).body.data;
      await first.close();
      const second = await startKeyServer({ dataDir: dir });
      try {
        const ns = second.client('p/q');
        expect((await ns.get('sys/managed-keys/provAkms/kept')).body.data.kms_key).toBe('alias/kept');
        expect((await ns.get('sys/mounts')).body.data).toEqual(before);
        expect((await ns.delete('sys/managed-keys/provAkms/kept')).status).toBe(400);
      } finally {
        await second.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
