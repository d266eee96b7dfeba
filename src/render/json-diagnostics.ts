import { sortDiagnostics, type Diagnostic, type DiagnosticOrigin, type Diagnostics, type Severity } from '../core/diagnostics.js';

/**
 * A diagnostic as every `--format json` document carries it (plan, validate, apply): its
 * subject address, or its place in a manifest, when it has one.
 */
export interface JsonDiagnostic {
  severity: Severity;
  /** What the problem is in: the manifests, the environment, or a server's answer. */
  origin: DiagnosticOrigin;
  message: string;
  subject?: string;
  file?: string;
  line?: number;
  column?: number;
}

/** In the order stderr shows them: by file, line, column, positionless last. */
export function diagnosticsToJson(diagnostics: Diagnostics | readonly Diagnostic[] | undefined): JsonDiagnostic[] {
  const items = diagnostics === undefined ? [] : 'items' in diagnostics ? diagnostics.items : diagnostics;
  return sortDiagnostics(items).map((d) => ({
    severity: d.severity,
    origin: d.origin,
    message: d.message,
    ...(d.subject !== undefined ? { subject: d.subject } : {}),
    ...(d.pos ? { file: d.pos.file, line: d.pos.line, column: d.pos.column } : {}),
  }));
}
