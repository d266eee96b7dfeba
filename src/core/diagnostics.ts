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

/**
 * What a problem is in, so the run's last line sends the user the right way:
 * - manifest:    the manifests or the paths and flags given (fix them and run again);
 * - environment: the settings the run found around it: SERVICE_* variables, a CA file they
 *                name, a server that cannot be reached, a token it refuses;
 * - server:      what a server answered or holds (a refusal of the plan, an answer lockstep
 *                cannot read).
 */
export type DiagnosticOrigin = 'manifest' | 'environment' | 'server';

export interface Diagnostic {
  severity: Severity;
  origin: DiagnosticOrigin;
  message: string;
  /** Where in a manifest; absent for what no manifest line says (a server's answer, a flag). */
  pos?: SourcePos;
  /** The object it is about (`east:auth/ldap/config`), when it is about one and has no position. */
  subject?: string;
}

export class Diagnostics {
  readonly items: Diagnostic[] = [];

  /** A problem in the manifests (or the paths and flags given), at its place when it has one. */
  error(message: string, pos?: SourcePos): void {
    this.items.push({ severity: 'error', origin: 'manifest', message, pos });
  }

  warning(message: string, pos?: SourcePos): void {
    this.items.push({ severity: 'warning', origin: 'manifest', message, pos });
  }

  /** A problem with the settings around the run (see DiagnosticOrigin), at the manifest line that asks for it when one does. */
  environmentError(message: string, pos?: SourcePos): void {
    this.items.push({ severity: 'error', origin: 'environment', message, pos });
  }

  /** About an object the plan names (a refusal, a read that failed), not a manifest line. */
  errorAbout(subject: { toString(): string }, message: string, origin: DiagnosticOrigin = 'server'): void {
    this.items.push({ severity: 'error', origin, message, subject: String(subject) });
  }

  /** A warning about an object the plan names, not a manifest line. */
  warningAbout(subject: { toString(): string }, message: string, origin: DiagnosticOrigin = 'server'): void {
    this.items.push({ severity: 'warning', origin, message, subject: String(subject) });
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

const ORIGIN_PLACES: Readonly<Record<DiagnosticOrigin, string>> = {
  manifest: 'in the manifests',
  environment: 'in the environment',
  server: 'from the servers',
};

/**
 * How many errors there are and what they are in, for a run's last line: `1 error in the
 * manifests`, `2 errors in the environment`, `1 error in the manifests and 1 from the servers`.
 */
export function tallyErrors(diags: Diagnostics): string {
  const counts = new Map<DiagnosticOrigin, number>();
  for (const d of diags.errors) counts.set(d.origin, (counts.get(d.origin) ?? 0) + 1);
  const parts = (['manifest', 'environment', 'server'] as const)
    .filter((origin) => counts.has(origin))
    .map((origin, i) => {
      const n = counts.get(origin)!;
      return i === 0 ? `${n} error${n === 1 ? '' : 's'} ${ORIGIN_PLACES[origin]}` : `${n} ${ORIGIN_PLACES[origin]}`;
    });
  return parts.length === 0 ? 'no errors' : parts.length === 1 ? parts[0]! : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)!}`;
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

/** By file, line, column (positionless last): the order format() prints them in. */
export function sortDiagnostics(items: readonly Diagnostic[]): Diagnostic[] {
  return [...items].sort((a, b) => {
    if (!a.pos || !b.pos) return (a.pos ? 0 : 1) - (b.pos ? 0 : 1);
    if (a.pos.file !== b.pos.file) return a.pos.file < b.pos.file ? -1 : 1;
    return a.pos.line - b.pos.line || a.pos.column - b.pos.column;
  });
}
