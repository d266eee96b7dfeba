import { printable } from './text-escape.js';

/**
 * Diagnostics are collected, never thrown one by one (as Terraform's tfdiags): every stage adds
 * what it finds and the command prints them all at once as `file:line:column: error: message`.
 */
export interface SourcePos {
  file: string;
  /** 1-based. */
  line: number;
  /** 1-based. */
  column: number;
}

export type Severity = 'error' | 'warning';

export interface Diagnostic {
  severity: Severity;
  message: string;
  /** Where in a manifest; absent for what no manifest line says (a server's answer, a flag). */
  pos?: SourcePos;
  /** The object it is about (`east:auth/ldap/config`), when it is about one and has no position. */
  subject?: string;
}

export class Diagnostics {
  readonly items: Diagnostic[] = [];

  error(message: string, pos?: SourcePos): void {
    this.items.push({ severity: 'error', message, pos });
  }

  warning(message: string, pos?: SourcePos): void {
    this.items.push({ severity: 'warning', message, pos });
  }

  /** About an object the plan names (a refusal, a read that failed), not a manifest line. */
  errorAbout(subject: { toString(): string }, message: string): void {
    this.items.push({ severity: 'error', message, subject: String(subject) });
  }

  /** A warning about an object the plan names, not a manifest line. */
  warningAbout(subject: { toString(): string }, message: string): void {
    this.items.push({ severity: 'warning', message, subject: String(subject) });
  }

  add(d: Diagnostic): void {
    this.items.push(d);
  }

  append(other: Diagnostics): void {
    this.items.push(...other.items);
  }

  hasErrors(): boolean {
    return this.items.some((d) => d.severity === 'error');
  }

  get errors(): Diagnostic[] {
    return this.items.filter((d) => d.severity === 'error');
  }

  get warnings(): Diagnostic[] {
    return this.items.filter((d) => d.severity === 'warning');
  }

  /** Sorted by file, line, column (positionless last), each formatted. */
  format(): string[] {
    return sortDiagnostics(this.items).map(formatDiagnostic);
  }
}

export function formatPos(pos: SourcePos): string {
  return `${pos.file}:${pos.line}:${pos.column}`;
}

/** One line as printed; a manifest's or server's control characters are made visible. */
export function formatDiagnostic(d: Diagnostic): string {
  const message = printable(d.message);
  if (d.pos) return `${printable(formatPos(d.pos))}: ${d.severity}: ${message}`;
  return d.subject ? `${d.severity}: ${printable(d.subject)}: ${message}` : `${d.severity}: ${message}`;
}

function sortDiagnostics(items: readonly Diagnostic[]): Diagnostic[] {
  return [...items].sort((a, b) => {
    if (!a.pos || !b.pos) return (a.pos ? 0 : 1) - (b.pos ? 0 : 1);
    if (a.pos.file !== b.pos.file) return a.pos.file < b.pos.file ? -1 : 1;
    return a.pos.line - b.pos.line || a.pos.column - b.pos.column;
  });
}
