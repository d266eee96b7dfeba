import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Address } from '../../src/core/address.js';
import { PLAN_FORMAT_VERSION } from '../../src/core/plan.js';
import { locateManifests, readSavedPlan, samePlan, staleAddresses, writeSavedPlan, type SavedPlan } from '../../src/planfile/planfile.js';
import fc from 'fast-check';
import { renderPlan } from '../../src/commands/render-plan.js';
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
    ['a JSON list', '[1]'],
  ])('refuses %s with a message naming the file', async (_what, text) => {
    const file = path.join(dir, 'not-a-plan');
    await writeFile(file, text);
    await expect(readSavedPlan(file)).rejects.toThrow(`${file}: not a saved lockstep plan`);
  });

  it('refuses another format version, naming the one it reads', async () => {
    const file = path.join(dir, 'future.plan');
    await writeFile(file, JSON.stringify({ ...savedPlan(), formatVersion: PLAN_FORMAT_VERSION + 1 }));
    await expect(readSavedPlan(file)).rejects.toThrow(
      `${file}: not a saved lockstep plan of format version ${PLAN_FORMAT_VERSION} (its formatVersion is ${PLAN_FORMAT_VERSION + 1}; this build reads only ${PLAN_FORMAT_VERSION}: make the plan again)`,
    );
    await writeFile(file, JSON.stringify({ ...savedPlan(), formatVersion: null }));
    await expect(readSavedPlan(file)).rejects.toThrow('(its formatVersion is not a number;');
  });

  it('#13.10: refuses a plan without changes, naming the file and the field', async () => {
    const file = path.join(dir, 'plan.json');
    await writeFile(file, JSON.stringify({ ...savedPlan(), plan: { formatVersion: 1, unmanaged: [], notes: [] } }));
    await expect(readSavedPlan(file)).rejects.toThrow(`${file}: plan.changes: is missing`);
  });

  it('#13.10: refuses a malformed address, naming the field and not quoting the value', async () => {
    const file = path.join(dir, 'bad.plan');
    const json = JSON.parse(JSON.stringify(savedPlan()));
    json.plan.changes[0].dependsOn = ['no-colon-here'];
    json.plan.changes[1].guards[0].address = 'east:auth/../sys';
    await writeFile(file, JSON.stringify(json));
    const error = await readSavedPlan(file).catch((err: Error) => err);
    expect((error as Error).message).toBe(
      [
        `${file}: plan.changes[0].dependsOn[0]: is a string not of the form cluster:path, expected an address`,
        `${file}: plan.changes[1].guards[0].address: has a segment the service cannot address (".", ".." or a control character), expected an address`,
      ].join('\n'),
    );
  });

  it('#13.10: null fields are named, every one at once, instead of a JavaScript error', async () => {
    const file = path.join(dir, 'plan.json');
    const json = JSON.parse(JSON.stringify(savedPlan()));
    json.plan.changes[1].address = null;
    json.plan.changes[0].guards = null;
    json.options = null;
    json.plan.notes[0].severity = 'loud';
    await writeFile(file, JSON.stringify(json));
    const message = ((await readSavedPlan(file).catch((err: Error) => err)) as Error).message;
    expect(message.split('\n')).toEqual([
      `${file}: options: is null, expected an object`,
      `${file}: plan.changes[0].guards: is null, expected a list`,
      `${file}: plan.changes[1].address: is null, expected an address`,
      `${file}: plan.notes[0].severity: is another string, expected one of "info", "warning"`,
    ]);
    expect(message).not.toMatch(/Cannot read|TypeError|undefined/);
  });

  it('#13.10: a truncated file is named as such, without quoting it', async () => {
    const file = path.join(dir, 'plan.json');
    const text = JSON.stringify(savedPlan());
    await writeFile(file, text.slice(0, Math.floor(text.length / 2)));
    await expect(readSavedPlan(file)).rejects.toThrow(`${file}: not a saved lockstep plan (the JSON ends early: is the file complete?)`);
    await writeFile(file, '{"kind": "lockstep-plan", oops}');
    const message = ((await readSavedPlan(file).catch((err: Error) => err)) as Error).message;
    expect(message).toBe(`${file}: not a saved lockstep plan (the file is not valid JSON)`);
  });

  it('#13.10: any field deleted, set to null or given another type is refused cleanly or loads into a plan that renders', async () => {
    const file = path.join(dir, 'mutated.plan');
    const original = JSON.parse(JSON.stringify(savedPlan())) as unknown;
    const paths = jsonPaths(original);
    const replacement = fc.constantFrom<unknown>(undefined, null, 0, -1.5, '', 'x', true, [], [null], {}, { a: 1 });
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.constantFrom(...paths), replacement), { minLength: 1, maxLength: 3 }), async (edits) => {
        const mutated = JSON.parse(JSON.stringify(original)) as unknown;
        for (const [at, value] of edits) setAt(mutated, at, value);
        await writeFile(file, JSON.stringify(mutated) ?? '');
        let saved: SavedPlan | undefined;
        try {
          saved = await readSavedPlan(file);
        } catch (err) {
          expect(err).toBeInstanceOf(Error);
          expect(err).not.toBeInstanceOf(TypeError);
          const message = (err as Error).message;
          for (const line of message.split('\n')) expect(line.startsWith(`${file}: `), message).toBe(true);
          expect(message).not.toMatch(/Cannot read|is not a function|is not iterable|undefined/);
          return;
        }
        // What loads is a plan every renderer can show (the fields it tolerates are optional).
        for (const format of ['text', 'json', 'markdown'] as const) expect(typeof renderPlan(saved.plan, format, { color: false })).toBe('string');
      }),
      { numRuns: 300, seed: 1309 },
    );
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

/** Every path into a JSON value (objects and lists), the root excluded. */
function jsonPaths(value: unknown, at: Array<string | number> = []): Array<Array<string | number>> {
  if (Array.isArray(value)) return value.flatMap((v, i) => [[...at, i], ...jsonPaths(v, [...at, i])]);
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) => [[...at, k], ...jsonPaths(v, [...at, k])]);
  }
  return [];
}

/** Sets (or, for undefined, deletes) the value at `at`, when its parent still exists. */
function setAt(root: unknown, at: Array<string | number>, value: unknown): void {
  let parent = root as Record<string | number, unknown> | null;
  for (const key of at.slice(0, -1)) {
    if (parent === null || typeof parent !== 'object') return;
    parent = parent[key] as Record<string | number, unknown> | null;
  }
  if (parent === null || typeof parent !== 'object') return;
  const last = at[at.length - 1]!;
  if (value === undefined) delete parent[last];
  else parent[last] = structuredClone(value); // the generated values are shared between runs
}
