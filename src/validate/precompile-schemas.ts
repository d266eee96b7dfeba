/**
 * Build step (`npm run build`): compiles every schema of `schemas/` into standalone validator
 * code under `dist/validate/precompiled/`, so a run loads a small module instead of ajv and its
 * code generator. Each module carries the digest of the schema text it was built from; a run
 * whose schema differs compiles at run time instead (see schemas.ts).
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { AJV_OPTIONS, PRECOMPILED_DIR, precompiledName, SCHEMA_DIR, schemaDigest } from './schemas.js';

const require = createRequire(import.meta.url);

export function precompileSchemas(outDir: string = PRECOMPILED_DIR): string[] {
  const { Ajv } = require('ajv') as typeof import('ajv');
  const standaloneCode = (require('ajv/dist/standalone/index.js') as typeof import('ajv/dist/standalone/index.js')).default;
  mkdirSync(outDir, { recursive: true });
  const written: string[] = [];
  for (const file of readdirSync(SCHEMA_DIR).filter((f) => f.endsWith('.schema.json')).sort()) {
    const text = readFileSync(SCHEMA_DIR + file, 'utf8');
    const ajv = new Ajv({ ...AJV_OPTIONS, code: { source: true, esm: false } });
    const code = standaloneCode(ajv, ajv.compile(JSON.parse(text) as object));
    writeFileSync(outDir + precompiledName(file), `${code}\nmodule.exports.schemaDigest = ${JSON.stringify(schemaDigest(text))};\n`);
    written.push(file);
  }
  return written;
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'))) {
  console.log(`precompiled ${precompileSchemas().length} schemas into ${PRECOMPILED_DIR}`);
}
