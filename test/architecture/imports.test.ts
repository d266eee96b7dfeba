import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AUTH_MOUNT_TYPE } from '../../src/kinds/auth-mount/scope.js';
import { KIND_NAMES, loadKinds } from '../../src/kinds/registry.js';

// Imports point one way: the pipeline's stages only downwards, the emulator apart (it imports
// nothing of the reconciler but the adapters and the shared value forms), and no module reaches
// itself again through its imports. A new cycle or an upward import fails here, naming the files.

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

/** Which top-level folders of src/ each may import (besides itself). `.` is src/ itself (cli.ts). */
const MAY_IMPORT: Record<string, readonly string[]> = {
  // What the service can address, its printable-path rule included (values/printable.ts).
  core: ['values'],
  // The value forms the service accepts, read alike by the reconciler and the emulator: a leaf.
  values: [],
  // The outside systems as the service talks to them; an LDAP login lower-cases names as Go does.
  adapters: ['values'],
  load: ['core'],
  client: ['core'],
  diff: ['core'],
  order: ['core'],
  render: ['core'],
  planfile: ['core'],
  apply: ['core'],
  build: ['core'],
  check: ['core', 'adapters', 'values'],
  kinds: ['core', 'adapters', 'check', 'client', 'diff', 'load', 'values'],
  validate: ['core', 'kinds', 'load', 'values'],
  // Plans from prepared manifests and live state, problems as diagnostics; prints nothing.
  engine: ['core', 'client', 'diff', 'order', 'kinds', 'load', 'validate', 'values'],
  commands: ['core', 'adapters', 'load', 'client', 'diff', 'order', 'render', 'planfile', 'apply', 'check', 'kinds', 'validate', 'engine', 'server', 'values'],
  server: ['adapters', 'values'],
  '.': ['commands', 'core'],
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(full);
    return e.name.endsWith('.ts') ? [full] : [];
  });
}

// `import ... from './x.js'`, `export ... from './x.js'`, `import('./x.js')`: relative specifiers only.
const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^;]*?\bfrom\s+['"](\.[^'"]+)['"]|\bimport\(\s*['"](\.[^'"]+)['"]\s*\)/g;

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(IMPORT)].map((m) => path.resolve(path.dirname(file), (m[1] ?? m[2])!).replace(/\.js$/, '.ts'));
}

const files = sourceFiles(SRC);
const graph = new Map(files.map((f) => [f, importsOf(f)]));
const rel = (f: string): string => path.relative(SRC, f);
const topFolder = (f: string): string => (rel(f).includes(path.sep) ? rel(f).split(path.sep)[0]! : '.');

describe('imports', () => {
  it('finds the sources and their imports', () => {
    expect(files.length).toBeGreaterThan(300);
    expect([...graph.values()].flat().length).toBeGreaterThan(1000);
  });

  it('every relative import names a file that exists', () => {
    const missing = [...graph].flatMap(([f, targets]) => targets.filter((t) => !graph.has(t)).map((t) => `${rel(f)} -> ${rel(t)}`));
    expect(missing).toEqual([]);
  });

  it('no folder imports a stage above it, and the emulator imports nothing of the reconciler', () => {
    expect(Object.keys(MAY_IMPORT).sort()).toEqual([...new Set(files.map(topFolder))].sort());
    const upward = [...graph].flatMap(([f, targets]) =>
      targets
        .filter((t) => topFolder(t) !== topFolder(f) && !(MAY_IMPORT[topFolder(f)] ?? []).includes(topFolder(t)))
        .map((t) => `${rel(f)} -> ${rel(t)}`),
    );
    expect(upward).toEqual([]);
  });

  // A kind is a folder of kinds/ that the registry loads (kinds/registry.ts, as the CLI loads
  // them); every other folder of kinds/ (cluster placement, auth mounts) is shared by the kinds,
  // as the files of kinds/ itself are.
  const kindsFolderOf = (f: string): string | undefined => {
    const parts = rel(f).split(path.sep);
    return parts[0] === 'kinds' && parts.length > 2 ? parts[1] : undefined;
  };
  /** The folder of a kind: its name in kebab case (LdapAuth → ldap-auth). */
  const folderOfKind = (kind: string): string => kind.replace(/(?<=[a-z0-9])([A-Z])/g, '-$1').toLowerCase();
  const loadRegistry = async () => {
    const modules = await loadKinds();
    return { modules, folders: new Set(modules.map((m) => folderOfKind(m.kind))) };
  };

  it('every kind of the registry is the folder of its name, with the module it loads', async () => {
    const { modules } = await loadRegistry();
    expect(modules.map((m) => m.kind)).toEqual([...KIND_NAMES]);
    for (const m of modules) expect(graph.has(path.join(SRC, 'kinds', folderOfKind(m.kind), 'index.ts')), m.kind).toBe(true);
  });

  it('#15.2: no kind imports another kind; shared folders of kinds/ import no kind', async () => {
    const { folders } = await loadRegistry();
    expect(folders.size).toBeGreaterThan(1);
    const crossing = [...graph].flatMap(([f, targets]) =>
      targets
        .filter((t) => {
          const from = kindsFolderOf(f);
          const to = kindsFolderOf(t);
          return from !== undefined && to !== undefined && to !== from && folders.has(to);
        })
        .map((t) => `${rel(f)} -> ${rel(t)}`),
    );
    expect(crossing).toEqual([]);
  });

  it('#15.4: auth mounts are shared: their module names no method type, and every auth kind uses it', async () => {
    const { modules, folders } = await loadRegistry();
    // An auth kind is one whose changes include auth mounts; its method is its name's first word.
    const authKinds = modules.filter((m) => m.resourceTypes.includes(AUTH_MOUNT_TYPE)).map((m) => folderOfKind(m.kind));
    expect(authKinds.length).toBeGreaterThan(0);
    const methods = authKinds.map((k) => k.split('-')[0]!);
    const shared = files.filter((f) => kindsFolderOf(f) === 'auth-mount');
    expect(shared.length).toBeGreaterThan(0);
    expect(shared.filter((f) => methods.some((m) => readFileSync(f, 'utf8').toLowerCase().includes(m))).map(rel)).toEqual([]);
    // The mount's resource type is named there only: a kind takes it (and the mount) from there.
    const ownMountType = files.filter((f) => folders.has(kindsFolderOf(f) ?? '') && readFileSync(f, 'utf8').includes(`'${AUTH_MOUNT_TYPE}'`));
    expect(ownMountType.map(rel)).toEqual([]);
    // Every auth kind imports the shared module.
    const usesShared = (folder: string): boolean =>
      files.some((f) => kindsFolderOf(f) === folder && graph.get(f)!.some((t) => kindsFolderOf(t) === 'auth-mount'));
    expect(authKinds.filter((k) => !usesShared(k))).toEqual([]);
  });

  it('no import cycle between files', () => {
    expect(cyclesOf(graph).map((c) => c.map(rel).join(' -> '))).toEqual([]);
  });
});

/** Strongly connected components of more than one file (Tarjan), each a cycle to report. */
function cyclesOf(g: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of g.get(v) ?? []) {
      if (!g.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.reverse());
    }
  };
  for (const f of g.keys()) if (!index.has(f)) visit(f);
  return found;
}
