import type { Diagnostics } from '../core/diagnostics.js';
import { diagnosticsToJson, type JsonDiagnostic } from './json-diagnostics.js';

/** `validate --format json`: the shape scripts rely on (docs/commands.md, "JSON documents"). */
export interface JsonValidation {
  /** No error among the diagnostics (warnings allowed): what exit 0 says. */
  valid: boolean;
  /** YAML documents read, valid or not. */
  documents: number;
  /** Every problem of every file, warnings included, each placed in its file when it has a place. */
  diagnostics: JsonDiagnostic[];
}

export function validationToJson(documents: number, diagnostics: Diagnostics): JsonValidation {
  return { valid: !diagnostics.hasErrors(), documents, diagnostics: diagnosticsToJson(diagnostics) };
}
