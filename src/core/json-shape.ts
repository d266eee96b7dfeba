import { isJsonObject } from './json.js';
/**
 * Shapes of JSON that comes from outside (a server's answers, a saved plan), checked field by
 * field before anything reads it. One checker, every problem at once, each naming its field
 * (`token_policies[1]`, `plan.changes[3].address`) and the kind of value found, never the value
 * itself (it may be a secret). Fields a record does not name are tolerated.
 */

/** What one field must hold. */
export type FieldShape =
  /** A string. */
  | 'text'
  /** true or false. */
  | 'bool'
  /**
   * An integer held exactly (seconds, counts, bytes): what the service sends for a Go int. Its
   * sign is a value, not a shape: a negative one is the normaliser's to show as drift.
   */
  | 'integer'
  /** An integer or its decimal digits as a string (a pkcs11 slot, a key version); '' is unset. */
  | 'integer-or-digits'
  /** An integer or `0x` hexadecimal text (a pkcs11 mechanism); '' is unset. */
  | 'integer-or-hex'
  /** A list of strings; null too (Go's nil slice). */
  | 'texts'
  /** A comma-joined string or a list of strings (null too). */
  | 'text-or-texts'
  /** Any JSON object. */
  | 'object'
  | RecordShape
  | TableShape
  | ListShape
  | OneOfShape
  | OrNullShape
  | CheckedTextShape;

/** An object whose named fields have shapes; other fields are tolerated. */
export interface RecordShape {
  kind: 'record';
  fields: Readonly<Record<string, FieldShape>>;
  /** Fields that must be present (others may be absent: an older release may lack them). */
  required?: readonly string[];
}

/** An object whose entries (the keys `isEntry` accepts, e.g. mount paths `ldap/`) have one shape. */
export interface TableShape {
  kind: 'table';
  entry: FieldShape;
  isEntry(key: string): boolean;
}

/** A list whose every item has one shape (never null). */
export interface ListShape {
  kind: 'list';
  item: FieldShape;
}

/** Exactly one of a few values. */
export interface OneOfShape {
  kind: 'one-of';
  values: ReadonlyArray<string | number>;
}

export interface OrNullShape {
  kind: 'or-null';
  shape: FieldShape;
}

/** A string that `problem` accepts (returns undefined for); else `expected` names what was wanted. */
export interface CheckedTextShape {
  kind: 'checked-text';
  expected: string;
  problem(text: string): string | undefined;
}

export function record(fields: Readonly<Record<string, FieldShape>>, required?: readonly string[]): RecordShape {
  return required ? { kind: 'record', fields, required } : { kind: 'record', fields };
}

/** A record all of whose fields but `optional` ones must be present. */
export function strictRecord(fields: Readonly<Record<string, FieldShape>>, optional: Readonly<Record<string, FieldShape>> = {}): RecordShape {
  return { kind: 'record', fields: { ...fields, ...optional }, required: Object.keys(fields) };
}

/** A mount table (`sys/auth`, `sys/mounts`): every `path/` key is a mount entry. */
export function mountTable(entry: RecordShape): TableShape {
  return { kind: 'table', entry, isEntry: (key) => key.endsWith('/') };
}

/** An object every value of which has `entry`'s shape. */
export function mapOf(entry: FieldShape): TableShape {
  return { kind: 'table', entry, isEntry: () => true };
}

export function listOf(item: FieldShape): ListShape {
  return { kind: 'list', item };
}

export function oneOf(...values: Array<string | number>): OneOfShape {
  return { kind: 'one-of', values };
}

export function orNull(shape: FieldShape): OrNullShape {
  return { kind: 'or-null', shape };
}

export function checkedText(expected: string, problem: (text: string) => string | undefined): CheckedTextShape {
  return { kind: 'checked-text', expected, problem };
}

export interface ShapeProblem {
  /** `url`, `token_policies[1]`, `ldap/.config.allowed_managed_keys`; printable (keys escaped). */
  field: string;
  /** `is a list, expected a string`. */
  problem: string;
}

/**
 * Every problem of `value` against `shape` (none: it fits). `root` names the value itself when
 * it is the one that is wrong.
 */
export function shapeProblems(value: unknown, shape: FieldShape, root = '(the answer)'): ShapeProblem[] {
  const out: ShapeProblem[] = [];
  check(value, shape, '', out);
  return out.map((p) => (p.field === '' ? { ...p, field: root } : p));
}

function check(value: unknown, shape: FieldShape, at: string, out: ShapeProblem[]): void {
  const wrong = (expected: string): void => void out.push({ field: at, problem: `${found(value)}, expected ${expected}` });
  if (typeof shape === 'string') {
    switch (shape) {
      case 'text':
        return typeof value === 'string' ? undefined : wrong('a string');
      case 'bool':
        return typeof value === 'boolean' ? undefined : wrong('true or false');
      case 'integer':
        return isInteger(value) ? undefined : wrong('an integer');
      case 'integer-or-digits':
        return isInteger(value) || (typeof value === 'string' && /^\s*[0-9]*\s*$/.test(value)) ? undefined : wrong('an integer');
      case 'integer-or-hex':
        return isInteger(value) || (typeof value === 'string' && /^\s*(0[xX][0-9a-fA-F]+)?\s*$/.test(value)) ? undefined : wrong('an integer or 0x hexadecimal text');
      case 'texts':
        if (value === null) return;
        return Array.isArray(value) ? check(value, TEXT_LIST, at, out) : wrong('a list of strings');
      case 'text-or-texts':
        if (typeof value === 'string' || value === null) return;
        return Array.isArray(value) ? check(value, TEXT_LIST, at, out) : wrong('a string or a list of strings');
      case 'object':
        return isJsonObject(value) ? undefined : wrong('an object');
      default:
        return assertNeverShape(shape);
    }
  }
  switch (shape.kind) {
    case 'record':
      if (!isJsonObject(value)) return wrong('an object');
      for (const name of shape.required ?? []) if (!has(value, name)) out.push({ field: join(at, name), problem: 'is missing' });
      // A loop over the names, not Object.entries: every answer of a read passes here.
      for (const name in shape.fields) if (has(value, name)) check(value[name], shape.fields[name]!, join(at, name), out);
      return;
    case 'table':
      if (!isJsonObject(value)) return wrong('an object');
      for (const key of Object.keys(value)) if (shape.isEntry(key)) check(value[key], shape.entry, join(at, escapeKey(key)), out);
      return;
    case 'list':
      if (!Array.isArray(value)) return wrong('a list');
      for (let i = 0; i < value.length; i++) check(value[i], shape.item, `${at}[${i}]`, out);
      return;
    case 'one-of':
      if ((typeof value === 'string' || typeof value === 'number') && shape.values.includes(value)) return;
      return void out.push({
        field: at,
        problem: `${typeof value === 'string' ? 'is another string' : found(value)}, expected ${shape.values.length === 1 ? '' : 'one of '}${shape.values.map((v) => JSON.stringify(v)).join(', ')}`,
      });
    case 'or-null':
      return value === null ? undefined : check(value, shape.shape, at, out);
    case 'checked-text': {
      if (typeof value !== 'string') return wrong(shape.expected);
      const problem = shape.problem(value);
      return problem === undefined ? undefined : void out.push({ field: at, problem: `${problem}, expected ${shape.expected}` });
    }
    default:
      return assertNeverShape(shape);
  }
}

/** The shape of `texts` items, made once (not per answer). */
const TEXT_LIST: ListShape = { kind: 'list', item: 'text' };

function isInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value);
}

function has(o: Record<string, unknown>, name: string): boolean {
  return Object.prototype.hasOwnProperty.call(o, name);
}

/** What kind of value was found, never the value itself. */
function found(value: unknown): string {
  if (value === null) return 'is null';
  if (value === undefined) return 'is missing';
  if (Array.isArray(value)) return 'is a list';
  switch (typeof value) {
    case 'string':
      return value.trim() === '' ? 'is an empty string' : 'is a string';
    case 'boolean':
      return 'is a boolean';
    case 'number':
      if (!Number.isFinite(value)) return 'is not a finite number';
      if (!Number.isInteger(value)) return 'is a fraction';
      if (!Number.isSafeInteger(value)) return 'is a number too large to hold exactly';
      return 'is a number';
    case 'object':
      return 'is an object';
    default:
      return `is a ${typeof value}`;
  }
}

/** A key from outside as part of a field name: quotes, backslashes and control characters escaped. */
function escapeKey(key: string): string {
  return JSON.stringify(key).slice(1, -1);
}

function join(at: string, name: string): string {
  return at === '' ? name : `${at}.${name}`;
}

function assertNeverShape(x: never): never {
  throw new Error(`unknown field shape ${JSON.stringify(x)}`);
}
