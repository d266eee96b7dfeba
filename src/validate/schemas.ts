import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';

/** `schemas/` at the package root: the same place from `src/validate` and `dist/validate`. */
export const SCHEMA_DIR = fileURLToPath(new URL('../../schemas/', import.meta.url));

// strict: false lets the schemas carry editor keywords (description, x-message);
// verbose: true gives each error its parentSchema, where x-message lives.
const ajv = new Ajv({ strict: false, allErrors: true, verbose: true });
const compiled = new Map<string, ValidateFunction>();

/** The validator of `schemas/<file>`, compiled once per process. */
export function schemaValidator(file: string): ValidateFunction {
  let validate = compiled.get(file);
  if (!validate) {
    const schema = JSON.parse(readFileSync(SCHEMA_DIR + file, 'utf8')) as object;
    validate = ajv.compile(schema);
    compiled.set(file, validate);
  }
  return validate;
}
