import { Address } from '../core/address.js';
import { segmentProblem } from '../core/path-segment.js';
import { PLAN_FORMAT_VERSION } from '../core/plan.js';

/**
 * The shape of a saved plan, checked field by field before anything reads it: a file edited by
 * hand, truncated or written by another build is refused naming the field
 * (`plan.changes[3].address: expected a string, found null`), never met with a JavaScript
 * error halfway through an apply. Fields it does not know are tolerated (earlier builds wrote
 * a `source` per change). Problems name fields and kinds of values, never values.
 */

type Check = (value: unknown, at: string, out: string[]) => void;

const text: Check = (v, at, out) => {
  if (typeof v !== 'string') out.push(`${at}: expected a string, found ${kindOf(v)}`);
};

const bool: Check = (v, at, out) => {
  if (typeof v !== 'boolean') out.push(`${at}: expected true or false, found ${kindOf(v)}`);
};

function oneOf(values: readonly string[]): Check {
  return (v, at, out) => {
    if (typeof v === 'string' && values.includes(v)) return;
    out.push(`${at}: expected one of ${values.map((x) => JSON.stringify(x)).join(', ')}, found ${typeof v === 'string' ? 'another string' : kindOf(v)}`);
  };
}

/** An address the service can address: `cluster:path`, each segment addressable. */
const address: Check = (v, at, out) => {
  if (typeof v !== 'string') return void out.push(`${at}: expected an address (cluster:path), found ${kindOf(v)}`);
  const parsed = Address.parse(v);
  if (!parsed || parsed.segments.length === 0) return void out.push(`${at}: expected an address (cluster:path), found a string that is none`);
  if (parsed.segments.some((s) => segmentProblem(s) !== undefined)) out.push(`${at}: expected an address the service can address, found one with a "." or ".." segment or a control character`);
};

function list(item: Check): Check {
  return (v, at, out) => {
    if (!Array.isArray(v)) return void out.push(`${at}: expected a list, found ${kindOf(v)}`);
    v.forEach((x, i) => item(x, `${at}[${i}]`, out));
  };
}

/** A JSON object of any content (a change's before/after values, a guard's expectation). */
const anyObject: Check = (v, at, out) => {
  if (!isObject(v)) out.push(`${at}: expected an object, found ${kindOf(v)}`);
};

function orNull(check: Check): Check {
  return (v, at, out) => (v === null ? undefined : check(v, at, out));
}

function mapOf(value: Check): Check {
  return (v, at, out) => {
    if (!isObject(v)) return void out.push(`${at}: expected an object, found ${kindOf(v)}`);
    for (const [k, x] of Object.entries(v)) value(x, `${at}[${JSON.stringify(k)}]`, out);
  };
}

/** An object with these fields (`optional` ones may be absent); other fields are tolerated. */
function record(required: Readonly<Record<string, Check>>, optional: Readonly<Record<string, Check>> = {}): Check {
  return (v, at, out) => {
    if (!isObject(v)) return void out.push(`${at}: expected an object, found ${kindOf(v)}`);
    for (const [name, check] of Object.entries(required)) {
      if (!has(v, name)) out.push(`${at}.${name}: missing`);
      else check(v[name], `${at}.${name}`, out);
    }
    for (const [name, check] of Object.entries(optional)) if (has(v, name)) check(v[name], `${at}.${name}`, out);
  };
}

const CHANGE = record({
  address,
  resourceType: text,
  action: oneOf(['create', 'update', 'delete', 'transition']),
  reason: oneOf(['declared', 'prune', 'sync-secrets', 'replace', 'step']),
  before: orNull(anyObject),
  after: orNull(anyObject),
  changedFields: list(text),
  writeOnlyFields: list(text),
  sensitiveFields: list(text),
  destructive: bool,
  dependsOn: list(address),
  guards: list(record({ address, description: text, expect: anyObject })),
  notes: list(text),
}, { owner: address });

const PLAN = record({
  formatVersion: oneOfNumber(PLAN_FORMAT_VERSION),
  changes: list(CHANGE),
  unmanaged: list(record({ address, resourceType: text })),
  notes: list(record({ severity: oneOf(['info', 'warning']), message: text }, { address })),
});

/** Every field of a saved plan but `kind` and `formatVersion`, which say whether it is one at all. */
const SAVED_PLAN = record(
  {
    createdAt: text,
    manifestPaths: list(text),
    manifestDigest: text,
    options: record({ prune: bool, targets: list(text), syncSecrets: bool }, { allowUnreachablePrimary: bool, force: bool }),
    fingerprints: mapOf(text),
    plan: PLAN,
  },
  { manifestPathsRelative: list(text) },
);

function oneOfNumber(n: number): Check {
  return (v, at, out) => {
    if (v !== n) out.push(`${at}: expected ${n}, found ${kindOf(v)}`);
  };
}

/** Every problem of a parsed saved plan (kind and format version already checked). */
export function savedPlanProblems(raw: unknown): string[] {
  const out: string[] = [];
  SAVED_PLAN(raw, '', out);
  // Fields at the top are named without the leading dot: `plan.changes[3].address`.
  return out.map((p) => (p.startsWith('.') ? p.slice(1) : p));
}

function has(o: Record<string, unknown>, name: string): boolean {
  return Object.prototype.hasOwnProperty.call(o, name);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** What kind of value was found, never the value. */
function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (v === undefined) return 'nothing';
  if (Array.isArray(v)) return 'a list';
  switch (typeof v) {
    case 'string':
      return 'a string';
    case 'number':
      return 'a number';
    case 'boolean':
      return 'a boolean';
    case 'object':
      return 'an object';
    default:
      return `a ${typeof v}`;
  }
}
