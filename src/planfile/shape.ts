import { Address } from '../core/address.js';
import { checkedText, listOf, mapOf, oneOf, orNull, shapeProblems, strictRecord, type ShapeProblem } from '../core/json-shape.js';
import { segmentProblem } from '../core/path-segment.js';
import { PLAN_FORMAT_VERSION } from '../core/plan.js';

/**
 * The shape of a saved plan (core/json-shape), checked before anything reads it: a file edited
 * by hand, truncated or written by another build is refused naming each field
 * (`plan.changes[3].address: is null, expected an address`), never met with a
 * JavaScript error halfway through an apply. Fields it does not know are tolerated (earlier
 * builds wrote a `source` per change).
 */

/** An address the service can address: `cluster:path`, each segment addressable. */
const ADDRESS = checkedText('an address', (text) => {
  const parsed = Address.parse(text);
  if (!parsed || parsed.segments.length === 0) return 'is a string not of the form cluster:path';
  if (parsed.segments.some((s) => segmentProblem(s) !== undefined)) return 'has a segment the service cannot address (".", ".." or a control character)';
  return undefined;
});

const TEXTS = listOf('text');

const CHANGE = strictRecord(
  {
    address: ADDRESS,
    resourceType: 'text',
    action: oneOf('create', 'update', 'delete', 'transition'),
    reason: oneOf('declared', 'prune', 'sync-secrets', 'replace', 'step'),
    before: orNull('object'),
    after: orNull('object'),
    changedFields: TEXTS,
    writeOnlyFields: TEXTS,
    sensitiveFields: TEXTS,
    destructive: 'bool',
    dependsOn: listOf(ADDRESS),
    guards: listOf(strictRecord({ address: ADDRESS, description: 'text', expect: 'object' })),
    notes: TEXTS,
  },
  { owner: ADDRESS, clearedFields: TEXTS },
);

const PLAN = strictRecord({
  formatVersion: oneOf(PLAN_FORMAT_VERSION),
  changes: listOf(CHANGE),
  unmanaged: listOf(strictRecord({ address: ADDRESS, resourceType: 'text' })),
  notes: listOf(strictRecord({ severity: oneOf('info', 'warning'), message: 'text' }, { address: ADDRESS })),
});

/** Every field of a saved plan; `kind` and `formatVersion` say whether it is one at all, so they come first. */
const SAVED_PLAN = strictRecord(
  {
    createdAt: 'text',
    manifestPaths: TEXTS,
    manifestDigest: 'text',
    options: strictRecord({ prune: 'bool', targets: TEXTS, syncSecrets: 'bool' }, { allowUnreachablePrimary: 'bool', force: 'bool' }),
    fingerprints: mapOf('text'),
    plan: PLAN,
  },
  { manifestPathsRelative: TEXTS, clusterAddresses: mapOf('text') },
);

/** Every problem of a parsed saved plan (kind and format version already checked). */
export function savedPlanProblems(raw: unknown): ShapeProblem[] {
  return shapeProblems(raw, SAVED_PLAN, '(the plan)');
}
