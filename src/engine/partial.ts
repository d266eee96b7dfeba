import { relative } from 'node:path';
import { Diagnostics } from '../core/diagnostics.js';
import type { Plan } from '../core/plan.js';
import { listManifestFiles } from '../load/files.js';
import { readManifestFiles } from '../load/loader.js';
import { manifestRoot } from '../load/manifest-root.js';
import type { Prepared } from '../validate/types.js';
import { goToLower } from '../values/index.js';

/** A file that holds a document of lockstep's (`apiVersion: lockstep/v1`), whatever else it holds. */
const LOCKSTEP_MANIFEST = /^apiVersion:\s*["']?lockstep\//m;

/** How many of the files left out a message names before it counts the rest. */
const FILES_NAMED = 5;

/**
 * The manifest set is the unit (contract section 3): a plan of part of it (one file of a
 * directory, as an editor's "run this file" or a CI job per changed file does) must not delete
 * what the rest declares. For each delete of the plan, the whole set under each path's root
 * (manifest-root.ts) is prepared once (its files that hold lockstep documents) and, when it declares the object, the delete is an error
 * naming the files this run left out. A set that cannot be prepared whole (a sibling's own
 * errors) refuses every delete: what it declares is unknown. `--allow-partial` skips this.
 */
export async function deletesOfTheRest(paths: readonly string[], plan: Plan, prepareSet: (paths: string[]) => Promise<Prepared>): Promise<Diagnostics> {
  const diags = new Diagnostics();
  const deletes = plan.changes.filter((c) => c.action === 'delete');
  if (deletes.length === 0) return diags;
  const roots = [...new Set((await Promise.all(paths.map(manifestRoot))).filter((r): r is string => r !== undefined))].sort();
  if (roots.length === 0) return diags;
  const ignored = new Diagnostics();
  const read = new Set((await listManifestFiles(paths, ignored)).map((f) => f.absoluteFile));
  // lockstep's own manifests only: a git work tree holds other YAML (compose files, charts).
  const leftOut = (await readManifestFiles(roots, ignored)).filter((f) => !read.has(f.absoluteFile) && LOCKSTEP_MANIFEST.test(f.text));
  if (leftOut.length === 0) return diags;
  const named = leftOut.slice(0, FILES_NAMED).map((f) => shown(f.absoluteFile)).join(', ') + (leftOut.length > FILES_NAMED ? ` and ${leftOut.length - FILES_NAMED} more` : '');
  const whole = await prepareSet([...paths, ...leftOut.map((f) => f.absoluteFile)]);
  if (whole.diags.hasErrors()) {
    for (const c of deletes) {
      diags.errorAbout(c.address, `would be deleted, but the rest of the manifest set (${named}) could not be read to know whether it declares it (${whole.diags.errors.length} errors there): plan the whole set, or --allow-partial`);
    }
    return diags;
  }
  // Compared without case: a name's case may be the server's to decide (an LDAP mount whose config
  // no manifest manages keeps declared names as written until read), and refusing a delete of a
  // name that differs from a declared one only in case errs on the safe side.
  const declared = new Set([...whole.desired.values()].flatMap((state) => state.resources.map((r) => goToLower(String(r.address)))));
  for (const c of deletes) {
    if (!declared.has(goToLower(String(c.address)))) continue;
    diags.errorAbout(c.address, `would be deleted, but the manifest set declares it in a file this run did not read (${named}): plan the whole set (${roots.map(shown).join(', ')}), or --allow-partial to delete it anyway`);
  }
  return diags;
}

/** A path as the user would type it from here. */
function shown(path: string): string {
  return relative(process.cwd(), path) || '.';
}
