import { record, type FieldShape, type RecordShape } from '../../core/json-shape.js';
import { assertNever } from '../../core/plan.js';
import { fieldsOf, type FieldForm } from './fields.js';
import { KEY_TYPES, type KeyType } from './types.js';

/**
 * The shapes of `GET sys/managed-keys/<type>/<name>` answers, as the real service gives them
 * (website/content/api-docs/system/managed-keys.mdx, "Read managed key"): booleans as booleans,
 * `mechanism` and `slot` as numbers (hex and decimal text are read too), secrets as "redacted".
 * Built from the field table, so every field it knows is checked.
 */
function shapeOf(form: FieldForm): FieldShape {
  switch (form) {
    case 'bool':
      return 'bool';
    case 'usages':
      return 'text-or-texts';
    case 'text':
    case 'upper':
    case 'curve':
      return 'text';
    case 'mechanism':
      return 'integer-or-hex';
    case 'decimal':
    case 'int':
      return 'integer-or-digits';
    default:
      return assertNever(form);
  }
}

function keyShape(type: KeyType): RecordShape {
  return record(Object.fromEntries(fieldsOf(type).map((f) => [f.name, shapeOf(f.form)])));
}

export const MANAGED_KEY_SHAPES: Readonly<Record<KeyType, RecordShape>> = Object.fromEntries(
  KEY_TYPES.map((type) => [type, keyShape(type)]),
) as Record<KeyType, RecordShape>;
