import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Options, ValidateFunction } from 'ajv';
import { PACKAGE_ROOT } from '../core/package-root.js';

/** `schemas/` at the package root. */
export const SCHEMA_DIR = path.join(PACKAGE_ROOT, 'schemas') + path.sep;

/**
 * Where the build puts validators compiled ahead of time (`precompile-schemas.ts`), found from
 * wherever this code runs, so tests run from source use them too.
 */
export const PRECOMPILED_DIR = path.join(PACKAGE_ROOT, 'dist', 'validate', 'precompiled') + path.sep;

// strict: false lets the schemas carry editor keywords (description, x-message);
// verbose: true gives each error its parentSchema, where x-message lives.
// The build compiles with these same options, so both kinds of validator give the same errors.
export const AJV_OPTIONS: Options = { strict: false, allErrors: true, verbose: true };

const require = createRequire(import.meta.url);
const validators = new Map<string, ValidateFunction>();

/**
 * The validator of `schemas/<file>`, once per process. The one compiled at build time when it
 * was built from this very schema text; otherwise compiled now (a schema edited since the build).
 * Compiling costs ajv's modules and its code generation on every run, most of start-up.
 */
export function schemaValidator(file: string): ValidateFunction {
  let validate = validators.get(file);
  if (!validate) {
    const text = readFileSync(SCHEMA_DIR + file, 'utf8');
    validate = precompiledValidator(file, text) ?? compileValidator(text);
    validators.set(file, validate);
  }
  return validate;
}

/** Whether `schemas/<file>` lets a document list `rule` in its `acknowledge`. */
export function schemaAcknowledges(file: string, rule: string): boolean {
  const schema = JSON.parse(readFileSync(SCHEMA_DIR + file, 'utf8')) as { properties?: { acknowledge?: { items?: { enum?: unknown[] } } } };
  return schema.properties?.acknowledge?.items?.enum?.includes(rule) ?? false;
}

/** The digest a precompiled validator carries of the schema text it was built from. */
export function schemaDigest(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The validator the build compiled from exactly `text`, if there is one. */
export function precompiledValidator(file: string, text: string, dir: string = PRECOMPILED_DIR): ValidateFunction | undefined {
  let module: (ValidateFunction & { schemaDigest?: unknown }) | undefined;
  try {
    module = require(dir + precompiledName(file)) as ValidateFunction & { schemaDigest?: unknown };
  } catch {
    return undefined; // not built (tests from a bare checkout)
  }
  return typeof module === 'function' && module.schemaDigest === schemaDigest(text) ? module : undefined;
}

/** Compiles a schema with ajv, loaded only when needed. */
export function compileValidator(text: string): ValidateFunction {
  const { Ajv } = require('ajv') as typeof import('ajv');
  return new Ajv(AJV_OPTIONS).compile(JSON.parse(text) as object);
}

/** `ldap-auth.schema.json` → `ldap-auth.schema.cjs`: CommonJS, so it loads synchronously. */
export function precompiledName(file: string): string {
  return file.replace(/\.json$/, '') + '.cjs';
}
