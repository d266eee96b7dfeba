import type { ErrorObject } from 'ajv';
import type { Diagnostic } from '../core/diagnostics.js';
import type { LoadedDocument, ValuePath } from '../load/document.js';
import { atPath, formatValuePath } from '../load/value-path.js';
import { didYouMean } from '../core/suggest.js';

/**
 * Turns ajv's errors into plain diagnostics: unknown fields at the key (with a suggestion),
 * everything else at the value, one message per value. No message ever quotes a value
 * (it could be a secret). A schema may give a field's message in `x-message`, and the field it
 * is reported at in `x-at`.
 */
export function schemaDiagnostics(errors: readonly ErrorObject[], doc: LoadedDocument): Diagnostic[] {
  const combinators = errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf');
  // The errors of an anyOf's branches (at its value or below it; a $ref'd branch reports a
  // schemaPath outside the anyOf, so the value path is what tells) say why each alternative
  // failed; the anyOf itself says it once. Our schemas use anyOf on leaf values only.
  const isBranchError = (e: ErrorObject): boolean =>
    combinators.some(
      (c) =>
        c !== e &&
        (e.instancePath.startsWith(`${c.instancePath}/`) || (e.instancePath === c.instancePath && !isCombinator(e))),
    );
  const out: Diagnostic[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    if (isBranchError(error)) continue;
    // ajv's "must match "then" schema" says nothing the then-branch's own errors do not; a
    // schema that has more to say gives it in x-message.
    if (error.keyword === 'if' && (error.parentSchema as { 'x-message'?: string } | undefined)?.['x-message'] === undefined) continue;
    const d = toDiagnostic(error, doc);
    const key = `${d.pos?.line}:${d.pos?.column}:${d.message}`;
    if (!seen.has(key)) {
      seen.add(key);
      out.push(d);
    }
  }
  return out;
}

function isCombinator(e: ErrorObject): boolean {
  return e.keyword === 'anyOf' || e.keyword === 'oneOf';
}

function toDiagnostic(error: ErrorObject, doc: LoadedDocument): Diagnostic {
  const path = pointerToPath(error.instancePath);
  const parentSchema = (error.parentSchema ?? {}) as { properties?: Record<string, unknown>; 'x-message'?: string; 'x-at'?: string };
  const where = path.length > 0 ? ` in ${formatValuePath(path)}` : '';
  switch (error.keyword) {
    case 'additionalProperties': {
      const field = String((error.params as { additionalProperty: string }).additionalProperty);
      const known = Object.keys(parentSchema.properties ?? {});
      return {
        severity: 'error',
        origin: 'manifest',
        message: `unknown field "${field}"${where}${didYouMean(field, known)}`,
        pos: doc.keyPos([...path, field]),
      };
    }
    case 'required': {
      const field = String((error.params as { missingProperty: string }).missingProperty);
      return { severity: 'error', origin: 'manifest', message: `missing required field "${field}"${where}`, pos: doc.pos(path) };
    }
    default:
      return {
        severity: 'error',
        origin: 'manifest',
        message: atPath(path, parentSchema['x-message'] ?? defaultMessage(error)),
        // A schema may say which field its message is about (`x-at`): a rule over the whole
        // document (a type's config) is reported at that field, not at the document's first line.
        pos: doc.pos(parentSchema['x-at'] !== undefined ? [...path, parentSchema['x-at']] : path),
      };
  }
}

function defaultMessage(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'type':
      return `must be ${describeTypes(params.type)}`;
    case 'enum':
      return `must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'const':
      return `must be ${JSON.stringify(params.allowedValue)}`;
    case 'minimum':
      return `must be ${String(params.limit)} or more`;
    case 'pattern':
      return 'has an invalid form';
    default:
      return error.message ?? 'is invalid';
  }
}

const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  boolean: 'true or false (unquoted)',
  integer: 'a whole number',
  number: 'a number',
  object: 'a mapping',
  array: 'a list',
  null: 'empty',
};

function describeTypes(type: unknown): string {
  const types = Array.isArray(type) ? type : [type];
  return types.map((t) => TYPE_NAMES[String(t)] ?? String(t)).join(' or ');
}

/** `/config/token_policies/0` → ['config', 'token_policies', '0'] (JSON Pointer unescaped). */
export function pointerToPath(pointer: string): ValuePath {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}
