import { chmod, mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalStore, openObjectStore, snapshotObjectName, StorageError } from '../../../src/adapters/storage/index.js';
import { storeContract, type ContractTarget } from './contract.js';
import { unwritableDir } from './unwritable.js';

let base: string;
beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'lockstep-local-store-'));
});
afterAll(async () => {
  await chmod(base, 0o700).catch(() => undefined);
  await rm(base, { recursive: true, force: true });
});

describe('local store: contract (path_prefix without trailing slash)', () => {
  let target: ContractTarget;
  beforeAll(() => {
    const pathPrefix = join(base, 'plain');
    target = { store: openObjectStore({ storage_type: 'local', path_prefix: pathPrefix, local_max_space: 1e9 }), pathPrefix };
  });
  storeContract(() => target);
});

describe('local store: contract (path_prefix with trailing slash)', () => {
  let target: ContractTarget;
  beforeAll(() => {
    const pathPrefix = join(base, 'slashed') + '/';
    target = { store: openObjectStore({ storage_type: 'local', path_prefix: pathPrefix, local_max_space: 1e9 }), pathPrefix };
  });
  storeContract(() => target);
});

describe('local store: contract (relative path_prefix)', () => {
  let target: ContractTarget;
  beforeAll(() => {
    const pathPrefix = relative(process.cwd(), join(base, 'relative'));
    target = { store: openObjectStore({ storage_type: 'local', path_prefix: pathPrefix, local_max_space: 1e9 }), pathPrefix };
  });
  storeContract(() => target);
});

describe('local store', () => {
  it('creates the directory on first write, private to the owner', async () => {
    const dir = join(base, 'deep', 'er', 'snaps');
    const store = new LocalStore(dir);
    const name = snapshotObjectName(dir, 'vault-snapshot', 1n);
    await store.put(name, Buffer.from('x'));
    expect((await stat(dir)).isDirectory()).toBe(true);
    expect((await stat(name)).mode & 0o777).toBe(0o600);
    expect(store.describe()).toBe(`file://${dir}`);
    expect(store.urlOf(name)).toBe(`file://${dir}/vault-snapshot-1.snap`);
  });

  it('writes atomically: a failed write leaves neither the object nor a temp file', async () => {
    const dir = join(base, 'atomic');
    const store = new LocalStore(dir);
    const name = join(dir, 'vault-snapshot-5.snap');
    await store.put(name, Buffer.from('old content'));
    // A directory where the object should go makes the final rename fail after the data was written.
    const blocked = join(dir, 'vault-snapshot-6.snap');
    await mkdir(join(blocked, 'child'), { recursive: true });
    const err = await store.put(blocked, Buffer.from('new content')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StorageError);
    expect(await readdir(dir)).toEqual(expect.not.arrayContaining([expect.stringMatching(/^\.lockstep-tmp-/)]));
    expect((await store.get(name)).toString()).toBe('old content');
  });

  it('never lists temp files, so an in-flight write is invisible', async () => {
    const dir = join(base, 'inflight');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, '.lockstep-tmp-abc123-vault-snapshot-9.snap'), 'half');
    await writeFile(join(dir, 'vault-snapshot-8.snap'), 'whole');
    const store = new LocalStore(dir);
    expect((await store.list(join(dir, ''))).map((o) => o.name)).toEqual([join(dir, 'vault-snapshot-8.snap')]);
    expect((await store.list(dir + '/')).map((o) => o.name)).toEqual([join(dir, 'vault-snapshot-8.snap')]);
  });

  it('an overwrite never shows a mix: readers see old or new', async () => {
    const dir = join(base, 'swap');
    const store = new LocalStore(dir);
    const name = join(dir, 'vault-snapshot-1.snap');
    const a = Buffer.alloc(4 * 1024 * 1024, 0x61);
    const b = Buffer.alloc(4 * 1024 * 1024, 0x62);
    await store.put(name, a);
    const writing = store.put(name, b);
    const seen: string[] = [];
    for (let i = 0; i < 20; i++) {
      const got = await store.get(name);
      seen.push(got.equals(a) ? 'a' : got.equals(b) ? 'b' : 'mixed');
    }
    await writing;
    expect(seen).not.toContain('mixed');
    expect((await store.get(name)).equals(b)).toBe(true);
  });

  it('refuses names outside its directory', async () => {
    const dir = join(base, 'fenced');
    const store = new LocalStore(dir);
    for (const bad of [join(dir, '..', 'escape.snap'), '/etc/passwd', dir]) {
      const err = await store.put(bad, Buffer.from('x')).catch((e: unknown) => e);
      expect(err).toMatchObject({ kind: 'invalid-config' });
    }
  });

  it('never lists above its directory, even for a prefix naming a sibling', async () => {
    const dir = join(base, 'sib');
    await mkdir(join(base, 'sibling'), { recursive: true });
    await writeFile(join(base, 'sibling', 'x.snap'), 'x');
    const store = new LocalStore(dir);
    await store.put(join(dir, 'y.snap'), Buffer.from('y'));
    expect((await store.list(dir)).map((o) => o.name)).toEqual([join(dir, 'y.snap')]);
  });

  it('reports a read-only directory as access-denied', async () => {
    const ro = await unwritableDir();
    try {
      const store = new LocalStore(ro.path);
      const err = await store.put(join(ro.path, 'a.snap'), Buffer.from('x')).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(StorageError);
      expect(err).toMatchObject({ kind: 'access-denied' });
    } finally {
      await ro.release();
    }
  });

  it('knows the free space of its filesystem, even before the directory exists', async () => {
    const free = await new LocalStore(join(base, 'not', 'yet')).freeSpace();
    expect(free).toBeGreaterThan(0);
  });
});
