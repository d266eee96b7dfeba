import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Address } from '../../src/core/address.js';
import { PLAN_FORMAT_VERSION } from '../../src/core/plan.js';
import { locateManifests, readSavedPlan, samePlan, staleAddresses, writeSavedPlan, type SavedPlan } from '../../src/planfile/planfile.js';
import { change, east, plan } from '../core/builders.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'lockstep-planfile-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const west = (p: string): Address => new Address('west', p);

function savedPlan(): SavedPlan {
  return {
    formatVersion: PLAN_FORMAT_VERSION,
    kind: 'lockstep-plan',
    createdAt: '2024-01-01T00:00:00.000Z',
    manifestPaths: ['/m/ldap.yaml'],
    manifestDigest: 'abc123',
    options: { prune: true, targets: ['east:auth/ldap'], syncSecrets: false, allowUnreachablePrimary: false, force: false },
    fingerprints: { 'east:auth/ldap/config': 'f00d', 'east:auth/ldap/groups/x': 'absent' },
    plan: plan(
      [
        change({
          address: east('auth/ldap/users/alice'),
          action: 'create',
          after: { policies: ['dev'], bindpass: '(sensitive)' },
          dependsOn: [east('auth/ldap/groups/admins'), east('sys/auth/ldap')],
        }),
        change({
          address: west('sys/replication/dr/secondary/promote'),
          action: 'transition',
          reason: 'step',
          owner: east('sys/replication/dr'),
          guards: [{ address: west('sys/replication/dr/status'), description: 'west is DR secondary', expect: { mode: 'secondary' } }],
          notes: ['promote west'],
          destructive: true,
        }),
      ],
      {
        unmanaged: [{ address: east('auth/ldap/users/mallory'), resourceType: 'ldap.user' }],
        notes: [
          { severity: 'warning', message: 'west unreachable', address: west('sys/replication/dr') },
          { severity: 'info', message: 'no address' },
        ],
      },
    ),
  };
}

describe('writeSavedPlan and readSavedPlan', () => {
  it('round-trips, reviving every Address (dependsOn, owner, guards, unmanaged, notes)', async () => {
    const file = path.join(dir, 'p.plan');
    const original = savedPlan();
    await writeSavedPlan(file, original);
    const back = await readSavedPlan(file);

    const [create, step] = back.plan.changes;
    for (const a of [
      create!.address,
      ...create!.dependsOn,
      step!.address,
      step!.owner!,
      step!.guards[0]!.address,
      back.plan.unmanaged[0]!.address,
      back.plan.notes[0]!.address!,
    ]) {
      expect(a).toBeInstanceOf(Address);
    }
    expect(create!.dependsOn[1]!.equals(east('sys/auth/ldap'))).toBe(true);
    expect(step!.owner!.equals(east('sys/replication/dr'))).toBe(true);
    expect(step!.guards[0]!.address.equals(west('sys/replication/dr/status'))).toBe(true);
    expect(back.plan.notes[1]).toEqual({ severity: 'info', message: 'no address' });
    expect(create!.owner).toBeUndefined();
    expect('owner' in create!).toBe(false);
    // Everything else comes back as written.
    expect(JSON.stringify(back)).toBe(JSON.stringify(original));
    expect(samePlan(back.plan, original.plan)).toBe(true);
  });

  it('writes the file readable by its owner only', async () => {
    const file = path.join(dir, 'p.plan');
    await writeSavedPlan(file, savedPlan());
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await readFile(file, 'utf8')).endsWith('}\n')).toBe(true);
  });

  // BUG (src/planfile/planfile.ts, writeSavedPlan): writeFile's `mode` applies only when the
  // file is created, so `plan --out` over an existing 0644 file leaves it 0644. A chmod after
  // the write (or writing a new file and renaming it over) makes it 0600 every time.
  it('makes an existing file owner-only too when overwriting it', async () => {
    const file = path.join(dir, 'old.plan');
    await writeFile(file, 'old', { mode: 0o644 });
    await writeSavedPlan(file, savedPlan());
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it.each([
    ['a YAML manifest', 'apiVersion: lockstep/v1\nkind: LdapAuth\n'],
    ['an empty file', ''],
    ['JSON that is not a plan', '{"changes":[]}'],
    ['JSON null', 'null'],
    ['a plan without changes', JSON.stringify({ ...savedPlan(), plan: { formatVersion: 1 } })],
  ])('refuses %s with a message naming the file', async (_what, text) => {
    const file = path.join(dir, 'not-a-plan');
    await writeFile(file, text);
    await expect(readSavedPlan(file)).rejects.toThrow(`${file}: not a saved lockstep plan`);
  });

  it('refuses another format version, naming the one it reads', async () => {
    const file = path.join(dir, 'future.plan');
    await writeFile(file, JSON.stringify({ ...savedPlan(), formatVersion: PLAN_FORMAT_VERSION + 1 }));
    await expect(readSavedPlan(file)).rejects.toThrow(`not a saved lockstep plan of format version ${PLAN_FORMAT_VERSION}`);
  });

  it('refuses a malformed address', async () => {
    const file = path.join(dir, 'bad.plan');
    const json = JSON.parse(JSON.stringify(savedPlan()));
    json.plan.changes[0].dependsOn = ['no-colon-here'];
    await writeFile(file, JSON.stringify(json));
    await expect(readSavedPlan(file)).rejects.toThrow('saved plan holds a malformed address: no-colon-here');
  });

  it('refuses a missing file with a message naming it', async () => {
    const file = path.join(dir, 'missing.plan');
    await expect(readSavedPlan(file)).rejects.toThrow(`${file}: not a saved lockstep plan`);
  });
});

describe('staleAddresses', () => {
  it('is empty when every fingerprint matches', () => {
    expect(staleAddresses({ 'east:a': '1', 'east:b': 'absent' }, { 'east:b': 'absent', 'east:a': '1' })).toEqual([]);
  });

  it('names changed, newly read and no longer read addresses, sorted', () => {
    const saved = { 'east:c/changed': '1', 'east:a/same': '2', 'east:b/gone': '3', 'east:e/now-absent': '4' };
    const now = { 'east:c/changed': '9', 'east:a/same': '2', 'east:d/new': '5', 'east:e/now-absent': 'absent' };
    expect(staleAddresses(saved, now)).toEqual(['east:b/gone', 'east:c/changed', 'east:d/new', 'east:e/now-absent']);
  });
});

describe('samePlan', () => {
  it('ignores where an earlier version recorded the declaration of a change', () => {
    const a = savedPlan().plan;
    const b = savedPlan().plan;
    (b.changes[0] as unknown as Record<string, unknown>).source = { file: 'moved/elsewhere.yaml', line: 99, column: 1 };
    expect(samePlan(a, b)).toBe(true);
  });

  it('ignores unmanaged objects and notes (only the changes are carried out)', () => {
    const b = savedPlan().plan;
    b.unmanaged = [];
    b.notes = [];
    expect(samePlan(savedPlan().plan, b)).toBe(true);
  });

  it.each([
    ['a value', (p: ReturnType<typeof savedPlan>['plan']) => void (p.changes[0]!.after = { policies: ['admin'] })],
    ['an action', (p: ReturnType<typeof savedPlan>['plan']) => void (p.changes[0]!.action = 'update')],
    ['an address', (p: ReturnType<typeof savedPlan>['plan']) => void (p.changes[0]!.address = east('auth/ldap/users/bob'))],
    ['a dependency', (p: ReturnType<typeof savedPlan>['plan']) => void p.changes[0]!.dependsOn.pop()],
    ['the order', (p: ReturnType<typeof savedPlan>['plan']) => void p.changes.reverse()],
    ['a change more', (p: ReturnType<typeof savedPlan>['plan']) => void p.changes.push(change({ address: east('x'), action: 'create' }))],
  ])('tells plans apart that differ in %s', (_what, edit) => {
    const b = savedPlan().plan;
    edit(b);
    expect(samePlan(savedPlan().plan, b)).toBe(false);
  });
});

describe('locateManifests', () => {
  const at = (manifestPaths: string[], manifestPathsRelative?: string[]): SavedPlan => ({ ...savedPlan(), manifestPaths, manifestPathsRelative });

  it('takes the absolute paths while they all exist', async () => {
    const file = path.join(dir, 'a.yaml');
    await writeFile(file, '');
    expect(await locateManifests(at([file, dir], ['elsewhere/a.yaml', 'elsewhere']), '/nowhere')).toEqual([file, dir]);
  });

  it('falls back to the relative paths from the current directory (a checkout elsewhere)', async () => {
    await mkdir(path.join(dir, 'repo', 'manifests'), { recursive: true });
    await writeFile(path.join(dir, 'repo', 'manifests', 'a.yaml'), '');
    const plan = at(['/gone/repo/manifests/a.yaml', '/gone/repo/manifests'], ['manifests/a.yaml', 'manifests']);
    expect(await locateManifests(plan, path.join(dir, 'repo'))).toEqual([path.join(dir, 'repo', 'manifests', 'a.yaml'), path.join(dir, 'repo', 'manifests')]);
  });

  it('keeps the absolute paths when neither set is all there, or the plan predates relative paths', async () => {
    await writeFile(path.join(dir, 'a.yaml'), '');
    expect(await locateManifests(at(['/gone/a.yaml', '/gone/b.yaml'], ['a.yaml', 'b.yaml']), dir)).toEqual(['/gone/a.yaml', '/gone/b.yaml']);
    expect(await locateManifests(at(['/gone/a.yaml']), dir)).toEqual(['/gone/a.yaml']);
  });
});
