import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../support/manual-clock.js';
import { apiClient, startTestServer } from '../helpers.js';
import { activationToken, DR, expectNoSecretsIn, inSync, member, operationToken, REFUSAL, status, waitFor, type Member } from './support.js';

/**
 * The DR life of one set across the clusters of one server (`serve --clusters`), all over
 * HTTP: bootstrap, replication, refusals on secondaries, planned failover, revocation,
 * disabling and re-enabling. The steps build on each other, in order.
 */
let server: Awaited<ReturnType<typeof startTestServer>>;
let east: Member;
let west: Member;
let south: Member;
let shares: string[];
const secrets = new Set<string>();

beforeAll(async () => {
  server = await startTestServer({ clusters: ['east', 'west', 'south'], keyShares: 3, keyThreshold: 2 });
  [east, west, south] = server.clusters.map(member) as [Member, Member, Member];
  shares = server.clusters[0]!.keyShares;
  for (const c of server.clusters) c.keyShares.forEach((s) => secrets.add(s));
});
afterAll(async () => {
  await server.close();
  expectNoSecretsIn(server.logs, secrets);
});

async function token(primary: Member, id: string, extra: Record<string, unknown> = {}): Promise<string> {
  const t = await activationToken(primary, id, extra);
  secrets.add(t);
  return t;
}

async function group(m: Member, name: string, policies: string[]): Promise<void> {
  expect((await m.api.post(`auth/ldap/groups/${name}`, { policies })).status).toBe(204);
}

describe('a DR replication set on three clusters', () => {
  it('starts with every cluster DR-disabled', async () => {
    for (const m of [east, west, south]) {
      expect(await status(m)).toEqual({ mode: 'disabled' });
      expect((await m.anon.get('sys/health')).body.replication_dr_mode).toBe('disabled');
    }
  });

  it('enables east as primary (root token needed; a second enable is refused)', async () => {
    for (const m of [east, west, south]) expect((await m.api.post('sys/auth/ldap', { type: 'ldap' })).status).toBe(204);
    await group(east, 'admins', ['admin']);
    await group(south, 'south-only', ['local']);
    expect((await east.anon.post(`${DR}/primary/enable`, {})).status).toBe(403);
    expect((await east.api.post(`${DR}/primary/enable`, {})).status).toBe(204);
    const s = await status(east);
    expect(s).toMatchObject({ mode: 'primary', state: 'running', known_secondaries: [], secondaries: [], primary_cluster_addr: new URL(east.cluster.baseUrl).origin });
    expect(s.cluster_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(s.last_wal).toBeGreaterThan(0);
    expect((await east.anon.get('sys/health')).body.replication_dr_mode).toBe('primary');
    const again = await east.api.post(`${DR}/primary/enable`, {});
    expect(again.status).toBe(400);
    expect(again.body.errors[0]).toMatch(/already enabled on this cluster \(its DR mode is primary\)/);
  });

  it('issues activation tokens only to the root token (sudo)', async () => {
    expect((await east.anon.post(`${DR}/primary/secondary-token`, { id: 'x' })).status).toBe(403);
    const other = await server.mintToken({ cluster: 'east', policies: ['default'] });
    secrets.add(other);
    expect((await apiClient(east.cluster, other).post(`${DR}/primary/secondary-token`, { id: 'x' })).status).toBe(403);
    expect((await east.api.post(`${DR}/primary/secondary-token`, {})).status).toBe(400); // id required
    expect((await west.api.post(`${DR}/primary/secondary-token`, { id: 'x' })).body.errors[0]).toMatch(/not a DR primary/);
  });

  it('enables west (wrapped token) and south (token encrypted to its public key); both are wiped and copy east', async () => {
    const wrapped = await east.api.post(`${DR}/primary/secondary-token`, { id: 'west', ttl: '10m' });
    expect(wrapped.status).toBe(200);
    expect(wrapped.body.data).toBeNull();
    expect(wrapped.body.wrap_info).toMatchObject({ ttl: 600, creation_path: `${DR}/primary/secondary-token` });
    const westToken: string = wrapped.body.wrap_info.token;
    secrets.add(westToken);
    expect((await west.api.post(`${DR}/secondary/enable`, { token: westToken })).status).toBe(204);

    const key = await south.api.post(`${DR}/secondary/generate-public-key`, {});
    expect(key.status).toBe(200);
    const publicKey: string = key.body.data.public_key;
    const sealed = await east.api.post(`${DR}/primary/secondary-token`, { id: 'south', secondary_public_key: publicKey });
    expect(sealed.body.wrap_info).toBeNull();
    const southToken: string = sealed.body.data.token;
    secrets.add(southToken);
    expect(southToken.split('.')).toHaveLength(1); // not the readable JWT: only south's key opens it
    expect((await west.api.post(`${DR}/secondary/enable`, { token: southToken })).status).toBe(400); // west is a secondary now
    expect((await south.api.post(`${DR}/secondary/enable`, { token: southToken })).status).toBe(204);

    await inSync(east, west);
    await inSync(east, south); // same merkle root as east: south's own group is gone
    const primary = await status(east);
    expect(primary.known_secondaries).toEqual(['south', 'west']);
    expect(primary.secondaries.map((s: any) => [s.node_id, s.connection_status, s.api_address])).toEqual([
      ['south', 'connected', new URL(south.cluster.baseUrl).origin],
      ['west', 'connected', new URL(west.cluster.baseUrl).origin],
    ]);
    for (const [m, id] of [[west, 'west'], [south, 'south']] as const) {
      const s = await status(m);
      expect(s).toMatchObject({
        mode: 'secondary',
        cluster_id: primary.cluster_id,
        state: 'stream-wals',
        connection_state: 'ready',
        primary_cluster_addr: primary.primary_cluster_addr,
        known_primary_cluster_addrs: [primary.primary_cluster_addr],
        secondary_id: id,
        last_remote_wal: primary.last_wal,
      });
      expect((await m.anon.get('sys/health')).body.replication_dr_mode).toBe('secondary');
    }
  });

  it('refuses a used, an expired and a forged activation token', async () => {
    const used = [...secrets].find((s) => s.split('.').length === 3)!;
    await south.api.post(`${DR}/secondary/enable`, { token: used }); // south is a secondary: refused
    const spare = await token(east, 'spare', { ttl: '1s' });
    // The cluster the token is presented to lives on a clock the test moves past the token's second.
    const clock = new ManualClock();
    const standalone = await startTestServer({ clock });
    try {
      await clock.advance(1_100);
      const lone = member(standalone.clusters[0]!);
      const expired = await lone.api.post(`${DR}/secondary/enable`, { token: spare });
      expect(expired.body.errors).toEqual(['the activation token has expired']);
      const forged = await lone.api.post(`${DR}/secondary/enable`, { token: 'a.b.c' });
      expect(forged.body.errors).toEqual(['invalid activation token']);
      const reused = await lone.api.post(`${DR}/secondary/enable`, { token: used });
      expect(reused.status).toBe(400);
      expect(reused.body.errors[0]).toMatch(/refused the activation: the activation token was revoked, replaced by a newer one, or already used/);
      expect(await status(lone)).toEqual({ mode: 'disabled' }); // nothing changed, nothing wiped
      expect((await lone.api.get('sys/auth')).status).toBe(200);
      expectNoSecretsIn(standalone.logs, secrets);
    } finally {
      await standalone.close();
    }
    expect((await east.api.post(`${DR}/primary/revoke-secondary`, { id: 'spare' })).status).toBe(204);
  });

  it('streams a write on the primary to every secondary within a second', async () => {
    const started = Date.now();
    await group(east, 'operators', ['ops', 'read']);
    await Promise.all([inSync(east, west, 1_000), inSync(east, south, 1_000)]);
    expect(Date.now() - started).toBeLessThan(1_000);
    const [p, w, s] = await Promise.all([status(east), status(west), status(south)]);
    expect(w.last_remote_wal).toBe(p.last_wal);
    expect(s.last_remote_wal).toBe(p.last_wal);
  });

  it('refuses ordinary paths on a secondary, with or without a token, but serves its DR paths', async () => {
    for (const client of [west.api, west.anon]) {
      for (const res of [
        await client.get('auth/ldap/groups/operators'),
        await client.post('auth/ldap/groups/new', { policies: ['x'] }),
        await client.get('sys/auth'),
        await client.list('auth/ldap/groups'),
        await client.get('auth/token/lookup-self'),
        await client.post(`${DR}/primary/demote`, {}),
        await client.get('team-a/sys/managed-keys/pkcs11'),
      ]) {
        expect(res).toEqual({ status: 400, body: { errors: [REFUSAL] } });
      }
    }
    expect((await west.anon.get('sys/health')).status).toBe(472); // #14: a DR secondary's health code (http/sys_health.go)
    expect((await west.anon.get('sys/seal-status')).status).toBe(200);
    expect((await west.anon.get(`${DR}/secondary/generate-operation-token/attempt`)).status).toBe(200);
    expect((await west.anon.post(`${DR}/secondary/promote`, {})).body.errors).toEqual(['"dr_operation_token" is required']);
    expect((await west.anon.post(`${DR}/secondary/promote`, { dr_operation_token: 'hvs.nope' })).body.errors).toEqual(['invalid DR operation token']);
  });

  it('refuses to promote west while east is still a reachable primary (safety check)', async () => {
    const t = await operationToken(west, shares, secrets);
    const res = await west.anon.post(`${DR}/secondary/promote`, { dr_operation_token: t });
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatch(/^safety checks failed: the primary at http:\/\/127\.0\.0\.1:\d+ is reachable and still the DR primary of this set: demote it first; promote with force/);
    expect((await status(west)).mode).toBe('secondary');
    expect((await west.anon.post(`${DR}/secondary/operation-token/delete`, { dr_operation_token: t })).status).toBe(204);
  });

  it('fails over as planned: demote east, promote west, re-point east and south; data then flows from west', async () => {
    const before = await status(east);
    expect((await east.api.post(`${DR}/primary/demote`, {})).status).toBe(204);
    const demoted = await status(east);
    expect(demoted).toMatchObject({ mode: 'secondary', cluster_id: before.cluster_id, state: 'idle', connection_state: 'idle', primary_cluster_addr: '', known_primary_cluster_addrs: [], secondary_id: '' });
    expect((await east.api.get('sys/auth')).body.errors).toEqual([REFUSAL]); // a demoted primary is a secondary
    await waitFor('west sees east stop streaming', async () => ((await status(west)).connection_state === 'transient_failure' ? true : undefined));

    const westOp = await operationToken(west, shares, secrets);
    expect((await west.anon.post(`${DR}/secondary/promote`, { dr_operation_token: westOp })).status).toBe(204);
    const promoted = await status(west);
    expect(promoted).toMatchObject({ mode: 'primary', cluster_id: before.cluster_id, state: 'running', known_secondaries: [], primary_cluster_addr: new URL(west.cluster.baseUrl).origin });
    expect((await west.anon.post(`${DR}/secondary/operation-token/delete`, { dr_operation_token: westOp })).status).toBe(204);
    // West now serves ordinary paths, with the data replicated from east and its own root token.
    expect((await west.api.get('auth/ldap/groups/operators')).body.data.policies).toEqual(['ops', 'read']);

    for (const m of [east, south]) {
      const op = await operationToken(m, shares, secrets);
      const key = (await m.anon.post(`${DR}/secondary/generate-public-key`, {})).body.data.public_key;
      const t = await token(west, m.name, { secondary_public_key: key });
      const res = await m.anon.post(`${DR}/secondary/update-primary`, { dr_operation_token: op, token: t });
      expect(res.status, JSON.stringify(res.body)).toBe(204);
      expect((await m.anon.post(`${DR}/secondary/operation-token/delete`, { dr_operation_token: op })).status).toBe(204);
    }
    await group(west, 'after-failover', ['new']);
    await Promise.all([inSync(west, east, 1_000), inSync(west, south, 1_000)]);
    const p = await status(west);
    expect(p.known_secondaries).toEqual(['east', 'south']);
    expect(await status(east)).toMatchObject({ mode: 'secondary', cluster_id: before.cluster_id, secondary_id: 'east', primary_cluster_addr: p.primary_cluster_addr });
  });

  it('revokes a secondary: disconnected at once, back only with a new token', async () => {
    expect((await west.api.post(`${DR}/primary/revoke-secondary`, { id: 'south' })).status).toBe(204);
    await waitFor('south refused', async () => {
      const s = await status(south);
      return s.connection_state === 'shutdown' && s.state === 'idle' ? true : undefined;
    }, 2_000);
    expect((await status(west)).known_secondaries).toEqual(['east']);
    await group(west, 'while-revoked', ['x']);
    await inSync(west, east);
    expect((await status(south)).merkle_root).not.toBe((await status(west)).merkle_root);

    const op = await operationToken(south, shares, secrets);
    const t = await token(west, 'south');
    expect((await south.anon.post(`${DR}/secondary/update-primary`, { dr_operation_token: op, token: t })).status).toBe(204);
    await inSync(west, south);
    await south.anon.post(`${DR}/secondary/operation-token/delete`, { dr_operation_token: op });
  });

  it('refuses a new token for a registered id; a blank update-primary token forgets the primary', async () => {
    const res = await west.api.post(`${DR}/primary/secondary-token`, { id: 'south' });
    expect(res.body.errors).toEqual(['a secondary with id "south" is already registered; revoke it first']);
    const op = await operationToken(south, shares, secrets);
    expect((await south.anon.post(`${DR}/secondary/update-primary`, { dr_operation_token: op, token: '' })).status).toBe(204);
    expect(await status(south)).toMatchObject({ mode: 'secondary', state: 'idle', connection_state: 'idle', primary_cluster_addr: '' });
    expect((await south.anon.post(`${DR}/secondary/update-primary`, { dr_operation_token: op })).status).toBe(400);
    await south.anon.post(`${DR}/secondary/operation-token/delete`, { dr_operation_token: op });
  });

  it('disables a secondary: it keeps its data and serves it; re-enabling wipes it again', async () => {
    const op = await operationToken(south, shares, secrets);
    expect((await south.anon.post(`${DR}/secondary/disable`, {})).status).toBe(400);
    expect((await south.anon.post(`${DR}/secondary/disable`, { dr_operation_token: op })).status).toBe(204);
    expect(await status(south)).toEqual({ mode: 'disabled' });
    expect((await south.api.get('auth/ldap/groups/after-failover')).body.data.policies).toEqual(['new']);
    await group(south, 'south-again', ['mine']);

    expect((await west.api.post(`${DR}/primary/secondary-token`, { id: 'south' })).status).toBe(400); // still registered
    expect((await west.api.post(`${DR}/primary/revoke-secondary`, { id: 'south' })).status).toBe(204);
    const t = await token(west, 'south');
    expect((await south.api.post(`${DR}/secondary/enable`, { token: t })).status).toBe(204);
    await inSync(west, south);
    expect((await status(south)).cluster_id).toBe((await status(west)).cluster_id);
  });

  it('disables the primary: secondaries lose it; re-enabled, it is another set (new cluster id)', async () => {
    const oldId = (await status(west)).cluster_id;
    expect((await west.api.post(`${DR}/primary/disable`, {})).status).toBe(204);
    expect(await status(west)).toEqual({ mode: 'disabled' });
    await waitFor('east loses its primary', async () => ((await status(east)).connection_state === 'transient_failure' ? true : undefined));
    expect((await west.api.post(`${DR}/primary/demote`, {})).status).toBe(400);

    expect((await west.api.post(`${DR}/primary/enable`, { primary_cluster_addr: 'https://west-lb.example:8201' })).status).toBe(204);
    const renewed = await status(west);
    expect(renewed.cluster_id).not.toBe(oldId);
    expect(renewed.primary_cluster_addr).toBe('https://west-lb.example:8201');
    const op = await operationToken(east, shares, secrets);
    const t = await token(west, 'east');
    const res = await east.anon.post(`${DR}/secondary/update-primary`, { dr_operation_token: op, token: t });
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatch(/another replication set/);
    await east.anon.post(`${DR}/secondary/operation-token/delete`, { dr_operation_token: op });
  });
});
