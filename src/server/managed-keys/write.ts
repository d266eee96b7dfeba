/**
 * A managed-key write (POST sys/managed-keys/:type/:name), create or update: the members given
 * replace the stored values, the others are kept (as other configuration endpoints of the
 * service do); null or "" unsets a field. The result is validated whole, and every problem is
 * reported at once.
 */
import type { JsonObject } from '../util/json.js';
import { convertField } from './convert.js';
import { fieldsOf, type ManagedKeyType } from './fields.js';
import { configProblems, nameProblems, type RuleContext } from './rules.js';

export interface KeyWrite {
  config: JsonObject;
  /** Body members that are not fields of the type (ignored, with the service's warning). */
  ignored: string[];
  problems: string[];
}

export function applyKeyWrite(
  type: ManagedKeyType,
  name: string,
  existing: JsonObject,
  body: JsonObject,
  ctx: RuleContext,
): KeyWrite {
  const fields = fieldsOf(type);
  const config: JsonObject = { ...existing };
  const ignored: string[] = [];
  const problems = nameProblems(name);
  const failed: string[] = [];
  for (const [field, raw] of Object.entries(body)) {
    if (field === 'name' || field === 'type') {
      const expected = field === 'name' ? name : type;
      if (raw !== expected && raw !== null && raw !== '') problems.push(`${field} "${typeof raw === 'string' ? raw : JSON.stringify(raw)}" in the body differs from the path's "${expected}"`);
      continue;
    }
    const spec = fields[field];
    if (spec === undefined) {
      ignored.push(field);
      continue;
    }
    const converted = convertField(field, spec, raw);
    if (!converted.ok) {
      problems.push(converted.error);
      failed.push(field);
    } else if (converted.value === undefined) delete config[field];
    else config[field] = converted.value;
  }
  // A field that did not convert is not also reported missing.
  const ruleProblems = configProblems(type, config, ctx).filter((p) => !failed.some((f) => p.startsWith(`${f} is required`)));
  problems.push(...ruleProblems);
  return { config, ignored: ignored.sort(), problems };
}
