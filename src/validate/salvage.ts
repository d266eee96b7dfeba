import type { ErrorObject } from 'ajv';
import type { ValuePath } from '../load/document.js';
import { pointerToPath } from './schema-errors.js';

/**
 * A document that failed its schema or a reference, with the values they refused taken out, so
 * that the rules about single values (names, mount paths, each field's own form, a policy's
 * text) still run on the rest and one run reports every problem. What is left has passed the
 * schema at its own place; a required field may be missing, so the rules that run on it are the
 * ones that read each value for itself (`KindModule.checkValues`), never the rules between fields,
 * which would report the absence of a refused value as a problem of its own.
 */
export interface SalvagedValue {
  data: Record<string, unknown>;
  /** Top-level fields taken out (`cluster`, `namespace`: then the document is not placed). */
  refusedFields: ReadonlySet<string>;
}

/**
 * `value` without the values at `refused`, or undefined when the document itself is refused (not
 * a mapping, or an error at its root). An item of a list takes the whole list out: removing it
 * would shift the positions of the items after it. The input is never changed; what is not on a
 * refused path is shared.
 */
export function withoutRefused(value: unknown, refused: readonly ValuePath[]): SalvagedValue | undefined {
  if (!isMapping(value)) return undefined;
  let data: Record<string, unknown> = value;
  const refusedFields = new Set<string>();
  for (const path of refused) {
    const cut = prunablePath(data, path);
    if (cut.length === 0) return undefined;
    refusedFields.add(cut[0]!);
    data = without(data, cut);
  }
  return { data, refusedFields };
}

/**
 * The value paths ajv's errors refuse: an unknown field's value, and the value any other error
 * is about. A missing required field refuses nothing (the rest of its mapping is as good), nor
 * does an `if` (its `then` branch's errors say where).
 */
export function refusedBySchema(errors: readonly ErrorObject[]): ValuePath[] {
  const out: ValuePath[] = [];
  for (const e of errors) {
    if (e.keyword === 'required' || e.keyword === 'if') continue;
    const at = pointerToPath(e.instancePath);
    out.push(e.keyword === 'additionalProperties' ? [...at, String((e.params as { additionalProperty: unknown }).additionalProperty)] : at);
  }
  return out;
}

/** `path` cut before the first list on it (as keys), or where it leaves the value. */
function prunablePath(root: Record<string, unknown>, path: ValuePath): string[] {
  const out: string[] = [];
  let at: unknown = root;
  for (const step of path) {
    if (!isMapping(at)) break;
    const key = String(step);
    out.push(key);
    if (!Object.hasOwn(at, key)) break;
    at = at[key];
  }
  return out;
}

function without(value: Record<string, unknown>, path: readonly string[]): Record<string, unknown> {
  const [key, ...rest] = path as [string, ...string[]];
  if (!Object.hasOwn(value, key)) return value;
  // A spread defines own properties, so a key named `__proto__` stays a key.
  const copy = { ...value };
  if (rest.length === 0) {
    delete copy[key];
    return copy;
  }
  const child = value[key];
  if (!isMapping(child)) return value;
  copy[key] = without(child, rest);
  return copy;
}

function isMapping(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
