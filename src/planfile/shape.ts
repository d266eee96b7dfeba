import { Address } from '../core/address.js';
import { checkedText, listOf, mapOf, oneOf, orNull, shapeProblems, strictRecord, type FieldShape, type ShapeProblem } from '../core/json-shape.js';
import { segmentProblem } from '../core/path-segment.js';
import type { AccessChange, Escalation } from '../core/access.js';
import { ACTIONS, CHANGE_REASONS, NOTE_SEVERITIES, PLAN_FORMAT_VERSION, type Change, type Guard, type Plan, type PlanNote, type Unmanaged } from '../core/plan.js';

/** The keys a type requires, and those it leaves optional. */
type RequiredKeys<T> = { [K in keyof T]-?: undefined extends T[K] ? never : K }[keyof T];
type OptionalKeys<T> = Exclude<keyof T, RequiredKeys<T>>;
/** A shape's fields for exactly the required (or optional) fields of T: no more, no fewer. */
type FieldsOf<T> = Record<RequiredKeys<T>, FieldShape>;
type OptionalFieldsOf<T> = Record<OptionalKeys<T>, FieldShape>;

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

/**
 * A saved change: every field of core/plan's Change, required as the type requires it. The
 * `satisfies` clauses make the typecheck fail when Change gains, loses or renames a field and this
 * shape does not follow (the saved plan is written from a Change as it is).
 */
const CHANGE = strictRecord(
  {
    address: ADDRESS,
    resourceType: 'text',
    action: oneOf(...ACTIONS),
    reason: oneOf(...CHANGE_REASONS),
    before: orNull('object'),
    after: orNull('object'),
    changedFields: TEXTS,
    writeOnlyFields: TEXTS,
    sensitiveFields: TEXTS,
    destructive: 'bool',
    dependsOn: listOf(ADDRESS),
    guards: listOf(strictRecord({ address: ADDRESS, description: 'text', expect: 'object' } satisfies FieldsOf<Guard>)),
    notes: TEXTS,
  } satisfies FieldsOf<Change>,
  { owner: ADDRESS, clearedFields: TEXTS } satisfies OptionalFieldsOf<Change>,
);

const ESCALATION = strictRecord({ grants: oneOf('sudo', 'write'), path: 'text' } satisfies FieldsOf<Escalation>);
const ACCESS_CHANGE = strictRecord(
  { method: ADDRESS, policy: 'text', gained: TEXTS, lost: TEXTS } satisfies FieldsOf<AccessChange>,
  { escalation: ESCALATION } satisfies OptionalFieldsOf<AccessChange>,
);

const PLAN = strictRecord(
  {
    formatVersion: oneOf(PLAN_FORMAT_VERSION),
    changes: listOf(CHANGE),
    unmanaged: listOf(strictRecord({ address: ADDRESS, resourceType: 'text' } satisfies FieldsOf<Unmanaged>)),
    notes: listOf(strictRecord({ severity: oneOf(...NOTE_SEVERITIES), message: 'text' } satisfies FieldsOf<PlanNote>, { address: ADDRESS } satisfies OptionalFieldsOf<PlanNote>)),
  } satisfies FieldsOf<Plan>,
  { accessChanges: listOf(ACCESS_CHANGE) } satisfies OptionalFieldsOf<Plan>,
);

/** Every field of a saved plan; `kind` and `formatVersion` say whether it is one at all, so they come first. */
const SAVED_PLAN = strictRecord(
  {
    createdAt: 'text',
    manifestPaths: TEXTS,
    manifestDigest: 'text',
    options: strictRecord({ prune: 'bool', targets: TEXTS, syncSecrets: 'bool' }, { allowUnreachablePrimary: 'bool', force: 'bool', allowPartial: 'bool' }),
    fingerprints: mapOf('text'),
    plan: PLAN,
  },
  {
    manifestPathsRelative: TEXTS,
    clusterAddresses: mapOf('text'),
    warnings: listOf(strictRecord({ message: 'text' }, { subject: 'text', file: 'text', line: 'integer', column: 'integer' })),
  },
);

/** Every problem of a parsed saved plan (kind and format version already checked). */
export function savedPlanProblems(raw: unknown): ShapeProblem[] {
  return shapeProblems(raw, SAVED_PLAN, '(the plan)');
}
