/**
 * The scheduler against an in-memory object store (the real backends are covered by
 * local-schedule and cloud-schedule): schedules follow the store, including whole-store
 * replacements (restore, DR sync); one attempt at a time; errors are scrubbed of secrets;
 * intervals beyond setTimeout's range; stop() cancels everything.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ObjectInfo, ObjectStore } from '../../../src/adapters/storage/index.js';
import { configKey } from '../../../src/server/snapshots/config-store.js';
import { decodeSnapshot } from '../../../src/server/snapshots/format.js';
import { snapshotKeyOf } from '../../../src/server/snapshots/snapshot-key.js';
import { SnapshotScheduler } from '../../../src/server/snapshots/scheduler.js';
import { KvStore } from '../../../src/server/storage/kv-store.js';

class MemoryObjects implements ObjectStore {
  readonly objects = new Map<string, Buffer>();
  puts = 0;
  /** When set, put waits for it. */
  gate: Promise<void> | undefined;
  failWith: Error | undefined;

  async put(name: string, data: Buffer): Promise<void> {
    this.puts++;
    if (this.gate) await this.gate;
    if (this.failWith) throw this.failWith;
    this.objects.set(name, data);
  }
  async list(prefix: string): Promise<ObjectInfo[]> {
    return [...this.objects].filter(([n]) => n.startsWith(prefix)).map(([name, d]) => ({ name, size: d.length, modified: new Date() }));
  }
  async get(name: string): Promise<Buffer> {
    return this.objects.get(name)!;
  }
  async remove(name: string): Promise<void> {
    this.objects.delete(name);
  }
  describe(): string {
    return 'memory';
  }
  urlOf(name: string): string {
    return `mem://${name}`;
  }
}

const SECRET = 'canary-secret-value-123';
const s3Config = (over: object = {}) => ({
  interval: 1,
  retain: 2,
  path_prefix: 'snaps',
  file_prefix: 'vault-snapshot',
  storage_type: 'provA-s3',
  provA_s3_bucket: 'b',
  provA_s3_region: 'r',
  provA_access_key_id: 'id',
  provA_secret_access_key: SECRET,
  provA_session_token: '',
  provA_s3_endpoint: '',
  provA_s3_disable_tls: false,
  provA_s3_force_path_style: false,
  provA_s3_enable_kms: false,
  provA_s3_server_side_encryption: false,
  provA_s3_kms_key: '',
  ...over,
});

/** Any root key will do: the scheduler seals with what its cluster gives it. */
const KEY = snapshotKeyOf('ab'.repeat(32));

async function setup() {
  const { store } = await KvStore.open();
  const objects = new MemoryObjects();
  const logs: string[] = [];
  const scheduler = new SnapshotScheduler({ name: 'c1', id: 'id-1', store, log: (l) => logs.push(l), snapshotKey: () => KEY }, { open: () => objects });
  scheduler.start();
  return { store, objects, logs, scheduler };
}

const stoppers: Array<() => Promise<void>> = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const stop of stoppers.splice(0)) await stop();
});

describe('snapshot scheduler', () => {
  it('follows the store: writes, deletes and whole-store replacements', async () => {
    vi.useFakeTimers();
    const { store, objects, scheduler } = await setup();
    stoppers.push(() => scheduler.stop());
    await store.put(configKey('a'), s3Config());
    expect(Date.parse(scheduler.status('a')!.next_snapshot_start as string)).toBe(Date.now() + 1000);
    await vi.advanceTimersByTimeAsync(3100);
    expect(objects.puts).toBe(3);
    expect(objects.objects.size).toBe(2); // retain 2

    // A replacement without the configuration ends its schedule...
    await store.replaceAll([]);
    expect(scheduler.status('a')).toBeUndefined();
    await vi.advanceTimersByTimeAsync(3000);
    expect(objects.puts).toBe(3);
    // ...and one with it starts it again.
    await store.replaceAll([[configKey('a'), s3Config({ interval: 2 })]]);
    await vi.advanceTimersByTimeAsync(2100);
    expect(objects.puts).toBe(4);

    // An unchanged configuration keeps its schedule and status across a replacement.
    const before = scheduler.status('a');
    await store.replaceAll(store.entries());
    expect(scheduler.status('a')).toEqual(before);

    await store.delete(configKey('a'));
    await vi.advanceTimersByTimeAsync(5000);
    expect(objects.puts).toBe(4);
  });

  it('snapshots the whole store at one write index', async () => {
    vi.useFakeTimers();
    const { store, objects, scheduler } = await setup();
    stoppers.push(() => scheduler.stop());
    await store.write([{ key: 'x/1', value: 'one' }, { key: 'x/2', value: { n: 2 } }]);
    await store.put(configKey('a'), s3Config());
    const index = store.index;
    await vi.advanceTimersByTimeAsync(1000);
    const [, data] = [...objects.objects][0]!;
    const snapshot = decodeSnapshot(data, [KEY]);
    expect(snapshot.header).toMatchObject({ cluster_name: 'c1', cluster_id: 'id-1', index, entries: store.size });
    expect(new Map(snapshot.entries)).toEqual(new Map(store.entries()));
  });

  it('runs one attempt at a time per configuration', async () => {
    vi.useFakeTimers();
    const { store, objects, logs, scheduler } = await setup();
    stoppers.push(() => scheduler.stop());
    let release!: () => void;
    objects.gate = new Promise((r) => (release = r));
    await store.put(configKey('a'), s3Config());
    await vi.advanceTimersByTimeAsync(3500);
    expect(objects.puts).toBe(1);
    expect(logs.filter((l) => l.includes('still being written'))).toHaveLength(2);
    const running = scheduler.status('a')!;
    expect(running.snapshot_url).toMatch(/^mem:\/\/snaps\/vault-snapshot-\d+\.snap$/);
    expect(running.snapshot_start).not.toBe('0001-01-01T00:00:00Z');
    release();
    objects.gate = undefined;
    await vi.advanceTimersByTimeAsync(1000);
    expect(objects.puts).toBe(2);
    expect(scheduler.status('a')!.snapshot_url).toBe('');
  });

  it('scrubs secrets from errors an adapter did not scrub', async () => {
    vi.useFakeTimers();
    const { store, objects, logs, scheduler } = await setup();
    stoppers.push(() => scheduler.stop());
    objects.failWith = new Error(`signature mismatch for key ${SECRET}`);
    await store.put(configKey('a'), s3Config());
    await vi.advanceTimersByTimeAsync(2000);
    const status = scheduler.status('a')!;
    expect(status.consecutive_errors).toBe(2);
    expect(status.last_snapshot_error).toBe('signature mismatch for key (sensitive)');
    expect(JSON.stringify([status, logs])).not.toContain(SECRET);
  });

  it('waits intervals longer than setTimeout can (24.8 days)', async () => {
    vi.useFakeTimers();
    const { store, objects, scheduler } = await setup();
    stoppers.push(() => scheduler.stop());
    await store.put(configKey('a'), s3Config({ interval: 30 * 86400 }));
    await vi.advanceTimersByTimeAsync(29 * 86400_000);
    expect(objects.puts).toBe(0);
    await vi.advanceTimersByTimeAsync(86400_000 + 1000);
    expect(objects.puts).toBe(1);
  });

  it('stop() cancels every timer and ignores later writes', async () => {
    vi.useFakeTimers();
    const { store, objects, scheduler } = await setup();
    await store.put(configKey('a'), s3Config());
    await scheduler.stop();
    expect(vi.getTimerCount()).toBe(0);
    await store.put(configKey('b'), s3Config());
    await vi.advanceTimersByTimeAsync(5000);
    expect(objects.puts).toBe(0);
  });
});
