/**
 * The shapes live answers must have before a planner sees them. Every kind reads through
 * `checkLiveAnswer` with a RecordShape built from its own field table, so a server that
 * answers `url: ["a"]` or `token_ttl: "abc"` is an error naming cluster, path and field, never
 * a value quietly normalised into a plan.
 *
 * Only the fields a kind knows are checked: a newer release that adds fields is accepted.
 * A problem names the field and the kind of value found, never the value (it may be a secret).
 */

/** What one field must hold, as the service answers it. */
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
  | RecordShape
  | TableShape;

/** An object whose named fields have shapes; other fields are tolerated. */
export interface RecordShape {
  kind: 'record';
  fields: Readonly<Record<string, FieldShape>>;
  /** Fields that must be present (others may be absent: an older release may lack them). */
  required?: readonly string[];
}

/** An object whose entries (the keys `isEntry` accepts, e.g. mount paths `ldap/`) are records. */
export interface TableShape {
  kind: 'table';
  entry: RecordShape;
  isEntry(key: string): boolean;
}

export function record(fields: Readonly<Record<string, FieldShape>>, required?: readonly string[]): RecordShape {
  return required ? { kind: 'record', fields, required } : { kind: 'record', fields };
}

/** A mount table (`sys/auth`, `sys/mounts`): every `path/` key is a mount entry. */
export function mountTable(entry: RecordShape): TableShape {
  return { kind: 'table', entry, isEntry: (key) => key.endsWith('/') };
}

export interface ShapeProblem {
  /** `url`, `token_policies[1]`, `ldap/.config.allowed_managed_keys`. */
  field: string;
  /** `is a list, expected a string`. */
  problem: string;
}

/** Every problem of `value` against `shape` (none: it fits). */
export function shapeProblems(value: unknown, shape: RecordShape | TableShape): ShapeProblem[] {
  const problems: ShapeProblem[] = [];
  checkContainer(value, shape, '', problems);
  return problems;
}

function checkContainer(value: unknown, shape: RecordShape | TableShape, at: string, out: ShapeProblem[]): void {
  if (!isObject(value)) {
    out.push({ field: at || '(the answer)', problem: `${found(value)}, expected an object` });
    return;
  }
  if (shape.kind === 'table') {
    for (const key of Object.keys(value)) {
      if (shape.isEntry(key)) checkContainer(value[key], shape.entry, join(at, key), out);
    }
    return;
  }
  for (const name of shape.required ?? []) {
    if (!Object.prototype.hasOwnProperty.call(value, name)) out.push({ field: join(at, name), problem: 'is missing' });
  }
  for (const [name, fieldShape] of Object.entries(shape.fields)) {
    if (!Object.prototype.hasOwnProperty.call(value, name)) continue;
    checkField(value[name], fieldShape, join(at, name), out);
  }
}

function checkField(value: unknown, shape: FieldShape, at: string, out: ShapeProblem[]): void {
  if (typeof shape !== 'string') return checkContainer(value, shape, at, out);
  switch (shape) {
    case 'text':
      if (typeof value !== 'string') out.push({ field: at, problem: `${found(value)}, expected a string` });
      return;
    case 'bool':
      if (typeof value !== 'boolean') out.push({ field: at, problem: `${found(value)}, expected true or false` });
      return;
    case 'integer':
      if (!isInteger(value)) out.push({ field: at, problem: `${found(value)}, expected an integer` });
      return;
    case 'integer-or-digits':
      if (!isInteger(value) && !(typeof value === 'string' && /^\s*[0-9]*\s*$/.test(value))) {
        out.push({ field: at, problem: `${found(value)}, expected an integer` });
      }
      return;
    case 'integer-or-hex':
      if (!isInteger(value) && !(typeof value === 'string' && /^\s*(0[xX][0-9a-fA-F]+)?\s*$/.test(value))) {
        out.push({ field: at, problem: `${found(value)}, expected an integer or 0x hexadecimal text` });
      }
      return;
    case 'texts':
      return checkTexts(value, at, 'a list of strings', out);
    case 'text-or-texts':
      if (typeof value === 'string') return;
      return checkTexts(value, at, 'a string or a list of strings', out);
    default:
      return assertNeverShape(shape);
  }
}

function checkTexts(value: unknown, at: string, expected: string, out: ShapeProblem[]): void {
  if (value === null) return;
  if (!Array.isArray(value)) {
    out.push({ field: at, problem: `${found(value)}, expected ${expected}` });
    return;
  }
  value.forEach((item, i) => {
    if (typeof item !== 'string') out.push({ field: `${at}[${i}]`, problem: `${found(item)}, expected a string` });
  });
}

function isInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
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

function join(at: string, name: string): string {
  return at === '' ? name : `${at}.${name}`;
}

function assertNeverShape(x: never): never {
  throw new Error(`unknown field shape ${String(x)}`);
}

/** Where an answer came from: how its errors name it. */
export interface AnswerSource {
  cluster: string;
  /** POST too: some answers that matter come from writes (a DR operation-token attempt). */
  method: 'GET' | 'LIST' | 'POST';
  /** The request path relative to the base URL. */
  path: string;
}

/** A live answer that does not have the shape lockstep expects. The message holds no value. */
export class LiveShapeError extends Error {
  constructor(
    readonly source: AnswerSource,
    readonly problems: readonly ShapeProblem[],
  ) {
    super(describeProblems(source, problems));
    this.name = 'LiveShapeError';
  }
}

/** How many problems one message lists before "and N more". */
const LISTED = 5;

function describeProblems(source: AnswerSource, problems: readonly ShapeProblem[]): string {
  const listed = problems.slice(0, LISTED).map((p) => `field ${JSON.stringify(p.field)} ${p.problem}`);
  const more = problems.length > LISTED ? `; and ${problems.length - LISTED} more` : '';
  return `${source.cluster}: ${source.method} ${source.path}: ${listed.join('; ')}${more}`;
}

/** `data` when it has `shape`; else a LiveShapeError naming cluster, path and every bad field. */
export function checkLiveAnswer<T>(source: AnswerSource, data: T, shape: RecordShape | TableShape): T {
  const problems = shapeProblems(data, shape);
  if (problems.length > 0) throw new LiveShapeError(source, problems);
  return data;
}
