import { RedactionSet } from '../../../src/core/redaction.js';
import { describe, expect, it } from 'vitest';
import type { ApiResponse, ClusterClient, HttpMethod, RequestOptions, RequestPath } from '../../../src/client/types.js';
import { revealDeep } from '../../../src/core/secret.js';
import { drReplicationKind } from '../../../src/kinds/dr-replication/index.js';
import type { ClientPool } from '../../../src/kinds/kind.js';
import { NO_FLAGS } from './fixtures.js';
import { FaultInjector, WorldPool, type FaultKind } from './model/client.js';
import { applyChanges, planOnce, type PlanResult } from './model/harness.js';
import { World } from './model/world-state.js';

const SET = { primary: 'east', secondaries: ['west', 'south'] };
const FAILOVER = { primary: 'west', secondaries: ['east', 'south'] };

async function bootstrapped(): Promise<{ world: World; pool: WorldPool }> {
  const world = new World(['east', 'west', 'south']);
  const pool = new WorldPool(world, new FaultInjector());
  const plan = await planOnce(world, pool, SET, NO_FLAGS);
  const result = await applyChanges(plan, pool, { allowDestructive: true });
  expect(result.refused === false && result.outcome.failed).toEqual([]);
  world.tick();
  world.requests.length = 0;
  return { world, pool };
}

/** Applies with one fault at the first request matching `match`. */
async function applyWithFault(pool: WorldPool, plan: PlanResult, match: string, kind: FaultKind) {
  pool.faults.arm({ match, kind });
  try {
    const r = await applyChanges(plan, pool, { allowDestructive: true });
    if (r.refused) throw new Error('refused');
    expect(pool.faults.fired).toBe(true);
    return r.outcome;
  } finally {
    pool.faults.disarm();
  }
}

describe('applying DR steps against the world', () => {
  it('bootstraps with public keys (no response wrapping) and converges', async () => {
    const { world, pool } = await bootstrapped();
    expect(world.cluster('east').mode).toBe('primary');
    expect(world.follows(world.cluster('west'), world.cluster('east'))).toBe(true);
    expect(world.activation.every((t) => t.publicKey !== '' && t.used)).toBe(true);
    expect((await planOnce(world, pool, SET, NO_FLAGS)).changes).toEqual([]);
  });

  it('fails over without a wipe and deletes every generated operation token', async () => {
    const { world, pool } = await bootstrapped();
    const generations = world.cluster('west').dataGeneration;
    const plan = await planOnce(world, pool, FAILOVER, NO_FLAGS);
    const r = await applyChanges(plan, pool, { allowDestructive: false });
    expect(r.refused === false && r.outcome.failed).toEqual([]);
    expect(world.cluster('west').mode).toBe('primary');
    expect(world.follows(world.cluster('east'), world.cluster('west'))).toBe(true);
    expect(world.follows(world.cluster('south'), world.cluster('west'))).toBe(true);
    expect(world.cluster('west').dataGeneration).toBe(generations);
    expect([...world.generated.values()].map((g) => [g.cluster, g.deleted])).toEqual([
      ['west', true],
      ['east', true],
      ['south', true],
    ]);
    expect(world.violations).toEqual([]);
  });

  it('refuses a step when the world moved since the plan, sending nothing', async () => {
    const { world, pool } = await bootstrapped();
    const plan = await planOnce(world, pool, FAILOVER, NO_FLAGS);
    world.cluster('east').mode = 'disabled'; // someone disabled east meanwhile
    world.requests.length = 0;
    const r = await applyChanges(plan, pool, { allowDestructive: true });
    if (r.refused) throw new Error('refused');
    expect(r.outcome.done).toEqual([]);
    expect(r.outcome.failed[0]!.error).toBe(
      'east:sys/replication/dr/primary/demote: the world moved since the plan: east is now disabled, expected primary; nothing was sent for this step, run plan again',
    );
    expect(world.requests.filter((q) => q.includes('POST'))).toEqual([]);
    expect(r.outcome.notStarted.length).toBe(plan.changes.length - 1);
  });

  it('#26: refuses a step when a cluster it involves was upgraded since the plan (its release is re-read with its status)', async () => {
    const { world, pool } = await bootstrapped();
    const plan = await planOnce(world, pool, FAILOVER, NO_FLAGS);
    world.cluster('east').release = '1.21.1+ent';
    world.requests.length = 0;
    const r = await applyChanges(plan, pool, { allowDestructive: true });
    if (r.refused) throw new Error('refused');
    expect(r.outcome.done).toEqual([]);
    expect(r.outcome.failed[0]!.error).toBe(
      'east:sys/replication/dr/primary/demote: the world moved since the plan: east now reports release 1.21.1+ent, expected 1.21.0+ent (upgraded since the plan?); nothing was sent for this step, run plan again',
    );
    expect(world.requests.filter((q) => q.includes('POST'))).toEqual([]);
  });

  it('a lost answer to a state change is settled by the status: done if it took effect', async () => {
    const { world, pool } = await bootstrapped();
    const plan = await planOnce(world, pool, FAILOVER, NO_FLAGS);
    const outcome = await applyWithFault(pool, plan, 'POST sys/replication/dr/secondary/promote', 'after');
    expect(outcome.failed).toEqual([]);
    expect(world.requests.filter((q) => q.endsWith('secondary/promote'))).toHaveLength(1); // never re-sent
    expect(world.cluster('west').mode).toBe('primary');
  });

  it('a 5xx on a state change is not retried; the status shows it did not happen', async () => {
    const { world, pool } = await bootstrapped();
    const plan = await planOnce(world, pool, FAILOVER, NO_FLAGS);
    const outcome = await applyWithFault(pool, plan, 'POST sys/replication/dr/primary/demote', 'server-error');
    expect(outcome.failed).toHaveLength(1);
    expect(outcome.failed[0]!.error).toContain('(the DR status read afterwards shows the step did not take effect)');
    expect(world.requests.filter((q) => q.endsWith('primary/demote'))).toHaveLength(1);
    expect(world.cluster('east').mode).toBe('primary');
  });

  it('a lost activation token fails the step (it cannot be re-read) and is not re-issued', async () => {
    const { world, pool } = await bootstrapped();
    const plan = await planOnce(world, pool, FAILOVER, NO_FLAGS);
    const outcome = await applyWithFault(pool, plan, 'POST sys/replication/dr/primary/secondary-token', 'after');
    expect(outcome.failed[0]!.change.address.toString()).toBe('west:sys/replication/dr/primary/secondary-token/east');
    expect(world.requests.filter((q) => q.includes('secondary-token'))).toHaveLength(1);
    // Re-running converges.
    const again = await planOnce(world, pool, FAILOVER, NO_FLAGS);
    const r = await applyChanges(again, pool, { allowDestructive: true });
    expect(r.refused === false && r.outcome.failed).toEqual([]);
    expect((await planOnce(world, pool, FAILOVER, NO_FLAGS)).changes).toEqual([]);
  });

  it('a failed step deletes the operation tokens generated so far', async () => {
    const { world, pool } = await bootstrapped();
    const plan = await planOnce(world, pool, FAILOVER, NO_FLAGS);
    const outcome = await applyWithFault(pool, plan, 'POST sys/replication/dr/secondary/update-primary', 'before');
    expect(outcome.failed[0]!.change.address.toString()).toBe('east:sys/replication/dr/secondary/update-primary');
    expect([...world.generated.values()].every((g) => g.deleted)).toBe(true);
    expect([...world.clusters.values()].every((c) => c.operationTokens.size === 0)).toBe(true);
  });

  it('cancels an operation-token attempt left in progress, then generates', async () => {
    const { world, pool } = await bootstrapped();
    world.cluster('west').attempt = { nonce: 'old', otp: 'x'.repeat(28), progress: 1, given: [] };
    const plan = await planOnce(world, pool, FAILOVER, NO_FLAGS);
    const r = await applyChanges(plan, pool, { allowDestructive: true });
    expect(r.refused === false && r.outcome.failed).toEqual([]);
    const west = world.requests.filter((q) => q.startsWith('west ') && q.includes('generate-operation-token'));
    expect(west.slice(0, 3)).toEqual([
      'west GET sys/replication/dr/secondary/generate-operation-token/attempt',
      'west DELETE sys/replication/dr/secondary/generate-operation-token/attempt',
      'west POST sys/replication/dr/secondary/generate-operation-token/attempt',
    ]);
  });

  it('too few key shares: a clear error, the attempt cancelled, nothing changed', async () => {
    const { world, pool } = await bootstrapped();
    const plan = await planOnce(world, pool, { ...FAILOVER, keyShares: ['0a1b2c3d4e5f60718293a4b5c6d7e8f9'] }, NO_FLAGS);
    const r = await applyChanges(plan, pool, { allowDestructive: true });
    if (r.refused) throw new Error('refused');
    expect(r.outcome.failed[0]!.change.address.toString()).toBe('west:sys/replication/dr/secondary/promote');
    expect(r.outcome.failed[0]!.error).toBe('1 key share given, 2 required to generate a DR operation token on west');
    expect(world.cluster('west').attempt).toBeUndefined();
    expect(world.cluster('west').mode).toBe('secondary');
  });

  it('uses given operation tokens and never deletes them', async () => {
    const { world, pool } = await bootstrapped();
    for (const c of ['east', 'west', 'south']) world.cluster(c).operationTokens.add(`given-${c}-token`);
    const operationTokens = { east: 'given-east-token', west: 'given-west-token', south: 'given-south-token' };
    const plan = await planOnce(world, pool, { ...FAILOVER, operationTokens, keyShares: undefined }, NO_FLAGS);
    expect(plan.changes.some((c) => c.address.path.endsWith('operation-token/delete'))).toBe(false);
    const r = await applyChanges(plan, pool, { allowDestructive: true });
    expect(r.refused === false && r.outcome.failed).toEqual([]);
    expect(world.requests.some((q) => q.includes('operation-token'))).toBe(false);
    for (const c of ['east', 'west', 'south']) expect(world.cluster(c).operationTokens.has(`given-${c}-token`)).toBe(true);
  });

  it('a token step given no desired set says so', async () => {
    const { world, pool } = await bootstrapped();
    const plan = await planOnce(world, pool, FAILOVER, NO_FLAGS);
    const promote = plan.changes[1]!;
    world.cluster('east').mode = 'secondary'; // as if the demotion had run
    const err = await drReplicationKind.apply(promote, undefined, { client: pool.get('west'), clients: pool, run: new Map(), redaction: new RedactionSet() }).catch((e: Error) => e);
    expect((err as Error).message).toContain('no DR operation token at hand for west: the step was given no desired DrReplication set');
  });

  it('errors never carry a generated token, even when a server echoes it', async () => {
    const { world, pool } = await bootstrapped();
    const plan = await planOnce(world, pool, FAILOVER, NO_FLAGS);
    const echoing = new EchoingPool(pool, 'secondary/update-primary');
    const run = new Map<string, unknown>();
    const desired = plan.desired.resources[0]!;
    let error = '';
    for (const change of plan.changes) {
      try {
        await drReplicationKind.apply(change, desired, { client: echoing.get(change.address.cluster), clients: echoing, run, redaction: new RedactionSet() });
      } catch (e) {
        error = (e as Error).message;
        break;
      }
    }
    expect(error).toContain('server said: invalid');
    for (const secret of world.secrets) expect(error).not.toContain(secret);
    expect(error).toContain('(sensitive)');
  });
});

/** A pool whose clients answer `path` with a plain Error echoing the request body (a careless server). */
class EchoingPool implements ClientPool {
  constructor(
    readonly inner: WorldPool,
    readonly path: string,
  ) {}

  get(cluster: string): ClusterClient {
    const inner = this.inner.get(cluster);
    const path = this.path;
    // The world's fake clients take paths as text.
    const text = (p: RequestPath): string => (typeof p === 'string' ? p : p.segments.join('/'));
    const request = (method: HttpMethod, p: RequestPath, opts?: RequestOptions): Promise<ApiResponse> => {
      if (text(p).endsWith(path)) return Promise.reject(new Error(`server said: invalid ${JSON.stringify(revealDeep(opts?.body))}`));
      return inner.request(method, text(p), opts);
    };
    return {
      cluster,
      baseUrl: inner.baseUrl,
      requestCount: 0,
      concurrency: 4,
      request,
      read: (p) => inner.read(text(p)),
      write: (p, body) => request('POST', p, { body }),
      delete: (p) => inner.delete(text(p)),
    };
  }
}
