import type { Address } from '../../../core/address.js';
import type { DesiredState, LiveResource } from '../../../core/resource.js';
import { changedFieldsOf, writtenBy } from '../../../diff/diff.js';
import type { ReadAhead } from '../../kind.js';
import { LDAP_RESOURCE_TYPES } from '../addresses.js';
import { aheadKey, LOGIN_DECIDING_FIELDS } from './triggers.js';

/**
 * Called once the plan has read a method's config (`have`): when the manifest's config updates
 * a field every login reads, the plan will review the method and read every directory user, so
 * that read starts now, while the method's groups and users are still being read, instead of
 * after the plan (review.ts readDirectoryAhead). Decided as the diff decides the update
 * (diff.ts changedFieldsOf, writtenBy) and the review its methods (triggers.ts): a plan without that change
 * reaches no directory. That holds while the LDAP kind has no `plan` of its own (its changes are
 * the generic diff's) and its `settle` leaves configs alone (name-case.ts); a test ties both.
 */
export function startReviewAhead(method: Address, desired: DesiredState, have: LiveResource, readAhead: ReadAhead): void {
  const want = desired.resources.find((r) => r.resourceType === LDAP_RESOURCE_TYPES.config && r.address.equals(have.address));
  if (!want) return;
  if (!changedFieldsOf(want, have).some((f) => LOGIN_DECIDING_FIELDS.has(f))) return;
  const configs = [have.attrs, writtenBy(want, have)] as const;
  // The review's module (and the LDAP client) load only now: most plans never need them.
  const abandoned = new AbortController();
  readAhead.start(
    aheadKey(method),
    import('./review.js').then((m) => m.readDirectoryAhead(configs, want, abandoned.signal)),
    () => abandoned.abort(),
  );
}
