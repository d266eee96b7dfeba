import type { Diagnostics } from '../../core/diagnostics.js';
import { MountPath } from '../../core/mount-path.js';
import type { ResolvedDocument } from '../../load/document.js';
import { reportAt } from '../report.js';
import { describeAuthMount, type AuthMountGroup, type MountedDocument } from './mounts.js';

/** `mount` is a mount path by the service's rules (core/mount-path.ts): one segment or more. */
export function checkMountPath(doc: ResolvedDocument<{ mount?: string }>, diags: Diagnostics): void {
  const mount: unknown = doc.data.mount;
  if (typeof mount !== 'string') return; // absent, or refused by the schema (said there)
  const parsed = MountPath.parse(mount);
  if (!parsed.ok) reportAt(diags, doc, ['mount'], `${JSON.stringify(mount)} ${parsed.problem}`);
}

/**
 * No declared mount lies within another of the same cluster and namespace (`team` and
 * `team/corp`): the service refuses to enable the second ("path is already in use at team/",
 * vault/auth.go enableCredentialInternal). Reported at each document of the inner mount. Mounts of
 * every auth kind share one table, so `groups` are all kinds' groups.
 */
export function checkMountOverlaps(groups: ReadonlyArray<AuthMountGroup<MountedDocument>>, diags: Diagnostics): void {
  for (const inner of groups) {
    for (const outer of groups) {
      if (inner === outer || inner.cluster !== outer.cluster || inner.namespace !== outer.namespace) continue;
      if (!inner.mount.overlaps(outer.mount) || inner.mount.segments.length <= outer.mount.segments.length) continue;
      for (const doc of inner.docs) {
        reportAt(diags, doc, doc.data.mount === undefined ? [] : ['mount'], `${describeAuthMount(inner)} lies within ${describeAuthMount(outer)}: the service refuses to enable a mount inside another`);
      }
    }
  }
}
