import { record, type FieldShape, type RecordShape } from '../../core/json-shape.js';
import { assertNever } from '../../core/plan.js';
import { SNAPSHOT_FIELD_SPECS, type FieldForm } from './fields.js';

/**
 * The shape of `GET sys/storage/raft/snapshot-auto/config/<name>`, as the service gives it:
 * interval in whole seconds, retain and local_max_space whole numbers, booleans, strings
 * (credentials as "redacted"). Built from the field table, so every field it knows is checked.
 */
function shapeOf(form: FieldForm): FieldShape {
  switch (form) {
    case 'duration':
    case 'count':
    case 'bytes':
      return 'integer';
    case 'bool':
      return 'bool';
    case 'string':
      return 'text';
    default:
      return assertNever(form);
  }
}

export const SNAPSHOT_CONFIG_SHAPE: RecordShape = record(Object.fromEntries(SNAPSHOT_FIELD_SPECS.map((f) => [f.name, shapeOf(f.form)])));

/**
 * `GET sys/storage/raft/snapshot-auto/status/<name>`: the times and the last error as strings,
 * consecutive_errors a count (its digits as text are read too).
 */
export const SNAPSHOT_STATUS_SHAPE: RecordShape = record({
  last_snapshot_start: 'text',
  last_snapshot_end: 'text',
  last_snapshot_error: 'text',
  last_snapshot_url: 'text',
  snapshot_start: 'text',
  snapshot_url: 'text',
  next_snapshot_start: 'text',
  consecutive_errors: 'integer-or-digits',
});
