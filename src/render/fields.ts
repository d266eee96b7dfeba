import { printable } from '../core/text-escape.js';
import { createRequire } from 'node:module';
import type { JsonObject } from '../core/json.js';
import { assertNever, type Change } from '../core/plan.js';
import { isSecret, REDACTED } from '../core/secret.js';

/**
 * What to show under one change, independent of the output format. Text and markdown both
 * render from this, so the two never disagree about what changed or what is hidden.
 */
export type FieldLine =
  /** create: the value set. */
  | { kind: 'set'; name: string; value: unknown }
  /** update/transition: before -> after (`undefined` = the field is absent on that side). */
  | { kind: 'change'; name: string; before: unknown; after: unknown }
  /** A multi-line string (a PEM) that changed, as a line diff. */
  | { kind: 'lines'; name: string; lines: DiffLine[] }
  /**
   * A sensitive and/or write-only field: never a value. `cleared`: a write-only field the
   * manifest does not set, which the write sends empty.
   */
  | { kind: 'hidden'; name: string; sensitive: boolean; writeOnly: boolean; cleared?: boolean };

export interface DiffLine {
  sign: '+' | '-' | ' ';
  /** For a `' '` line standing for a run of unchanged lines: how many. */
  skipped?: number;
  text: string;
}

let differ: typeof import('diff') | undefined;
/** The line differ, loaded when a multi-line value (a PEM) changed: most plans never need it. */
function lineDiffer(): typeof import('diff') {
  return (differ ??= createRequire(import.meta.url)('diff') as typeof import('diff'));
}

/** Unchanged lines kept around each change in a multi-line diff; longer runs are folded. */
const CONTEXT = 2;

export function fieldLines(change: Change): FieldLine[] {
  // The lists are a few names each, most of them empty: looked through, not made into sets.
  const { sensitiveFields: sensitive, writeOnlyFields: writeOnly } = change;
  const out: FieldLine[] = [];
  for (const name of shownFields(change)) {
    // Write-only fields come last, once, whatever before/after hold for them.
    if (writeOnly.includes(name)) continue;
    const before = valueOf(change.before, name);
    const after = valueOf(change.after, name);
    // A Secret in a plan is a bug upstream; it still never shows (nor its length, nor a diff).
    if (sensitive.includes(name) || isSecret(before) || isSecret(after)) {
      out.push({ kind: 'hidden', name, sensitive: true, writeOnly: false });
    } else if (isMultiline(before) || isMultiline(after)) {
      out.push({ kind: 'lines', name, lines: lineDiff(textOf(before), textOf(after)) });
    } else if (change.action === 'create') {
      out.push({ kind: 'set', name, value: after });
    } else {
      out.push({ kind: 'change', name, before, after });
    }
  }
  if (writeOnly.length === 0) return out;
  const cleared = change.clearedFields ?? [];
  for (const name of [...new Set(writeOnly)].sort()) {
    if (cleared.includes(name)) out.push({ kind: 'hidden', name, sensitive: false, writeOnly: true, cleared: true });
    else out.push({ kind: 'hidden', name, sensitive: sensitive.includes(name), writeOnly: true });
  }
  return out;
}

/** Fields listed for each action: all of `after` on create, the differing ones otherwise. */
function shownFields(change: Change): string[] {
  switch (change.action) {
    case 'create':
      return Object.keys(change.after ?? {}).sort();
    case 'update':
      return change.changedFields;
    case 'transition':
      return change.changedFields.length > 0 ? change.changedFields : differingKeys(change.before, change.after);
    case 'delete':
      return []; // the address says it all; keeps prune lists short
    default:
      return assertNever(change.action);
  }
}

function differingKeys(a: JsonObject | null, b: JsonObject | null): string[] {
  const keys = new Set([...Object.keys(a ?? {}), ...Object.keys(b ?? {})]);
  return [...keys].filter((k) => JSON.stringify(a?.[k]) !== JSON.stringify(b?.[k])).sort();
}

function valueOf(obj: JsonObject | null, name: string): unknown {
  return obj && Object.prototype.hasOwnProperty.call(obj, name) ? obj[name] : undefined;
}

function isMultiline(v: unknown): v is string {
  return typeof v === 'string' && v.includes('\n');
}

function textOf(v: unknown): string {
  if (v === undefined || v === null) return '';
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/** A line diff with long unchanged runs folded to one `...` line. */
function lineDiff(before: string, after: string): DiffLine[] {
  const all: DiffLine[] = [];
  for (const part of lineDiffer().diffLines(before, after)) {
    const sign = part.added ? '+' : part.removed ? '-' : ' ';
    for (const text of splitLines(part.value)) all.push({ sign, text });
  }
  return foldContext(all);
}

function splitLines(value: string): string[] {
  const lines = value.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

function foldContext(lines: DiffLine[]): DiffLine[] {
  const out: DiffLine[] = [];
  let i = 0;
  while (i < lines.length) {
    if (lines[i]!.sign !== ' ') {
      out.push(lines[i++]!);
      continue;
    }
    let j = i;
    while (j < lines.length && lines[j]!.sign === ' ') j++;
    const keepHead = i === 0 ? 0 : CONTEXT;
    const keepTail = j === lines.length ? 0 : CONTEXT;
    const run = j - i;
    if (run > keepHead + keepTail + 1) {
      out.push(...lines.slice(i, i + keepHead));
      out.push({ sign: ' ', skipped: run - keepHead - keepTail, text: `... (${run - keepHead - keepTail} unchanged lines)` });
      out.push(...lines.slice(j - keepTail, j));
    } else {
      out.push(...lines.slice(i, j));
    }
    i = j;
  }
  return out;
}

/**
 * A value as compact JSON, `(none)` when absent. A Secret nested in it (by mistake) shows as
 * "(sensitive)": JSON.stringify goes through Secret#toJSON. JSON escapes the C0 controls only:
 * what else printable() escapes (C1 controls, the bidirectional controls that reorder what
 * follows, zero-width characters) is escaped too, as `\uXXXX`, which JSON reads back the same.
 */
export function formatValue(v: unknown): string {
  if (v === undefined) return '(none)';
  return printable(JSON.stringify(v) ?? `(${typeof v})`);
}

/** The `(sensitive)`, `(sensitive, write-only)`, `(write-only)` or `(cleared, write-only)` marker of a hidden field. */
export function hiddenMarker(line: { sensitive: boolean; writeOnly: boolean; cleared?: boolean }): string {
  if (line.cleared) return '(cleared, write-only)';
  if (line.sensitive && line.writeOnly) return '(sensitive, write-only)';
  return line.writeOnly ? '(write-only)' : REDACTED;
}
