import { printableAddress } from '../core/text-escape.js';
import type { ChalkInstance } from 'chalk';
import { summarise, type Change, type Plan, type PlanNote, type Unmanaged } from '../core/plan.js';
import { ACCESS_HEADING, accessLines, escalationWords, NO_ACCESS_CHANGES, userList } from './access.js';
import type { AccessChange } from '../core/access.js';
import { fieldLines, formatValue, hiddenMarker, type DiffLine, type FieldLine } from './fields.js';
import { actionColor, actionSymbol, changeTags, makeChalk, NO_CHANGES, noChangesButUnmanaged, printable, summaryLine, UNMANAGED_HEADING } from './vocabulary.js';

const FIELD_INDENT = '      ';
const DIFF_INDENT = '        ';

/**
 * The text plan of contract section 4: one block per change, then unmanaged objects, plan
 * notes and the summary line. No trailing newline (the caller prints it as a line).
 */
export function renderPlanText(plan: Plan, opts: { color: boolean }): string {
  const chalk = makeChalk(opts.color);
  const tail: string[] = [];
  if (plan.accessChanges) tail.push(renderAccessReview(plan.accessChanges, chalk));
  if (plan.unmanaged.length > 0) tail.push(renderUnmanaged(plan.unmanaged));
  if (plan.notes.length > 0) tail.push(renderPlanNotes(plan.notes, chalk));
  if (plan.changes.length === 0) return [plan.unmanaged.length > 0 ? noChangesButUnmanaged(plan.unmanaged.length) : NO_CHANGES, ...tail].join('\n\n');

  const blocks = plan.changes.map((c) => renderChange(c, chalk)).join('\n');
  const summary = chalk.bold(summaryLine(summarise(plan)));
  // As in the contract, the summary follows the blocks directly unless other sections come between.
  if (tail.length === 0) return `${blocks}\n${summary}`;
  return [blocks, ...tail, summary].join('\n\n');
}

/** `  ~ east:auth/ldap/config` with its tags, e.g. `   (prune)`. */
function changeHeader(change: Change, chalk: ChalkInstance): string {
  const paint = actionColor(chalk, change.action);
  const tags = changeTags(change);
  const tagText = tags.length > 0 ? `   ${paint(`(${tags.join(', ')})`)}` : '';
  return `  ${paint(actionSymbol(change.action))} ${printableAddress(String(change.address))}${tagText}`;
}

function renderChange(change: Change, chalk: ChalkInstance): string {
  // One text built as it goes: a plan of 10,000 changes made an array of lines for each.
  let text = changeHeader(change, chalk);
  for (const field of fieldLines(change)) text += renderField(field, chalk);
  for (const note of change.notes) text += `\n${FIELD_INDENT}${chalk.dim(`# ${printable(note)}`)}`;
  return text;
}

/** The lines of one field, each after a line break. */
function renderField(field: FieldLine, chalk: ChalkInstance): string {
  switch (field.kind) {
    case 'set':
      return `\n${FIELD_INDENT}${field.name}: ${formatValue(field.value)}`;
    case 'change':
      return `\n${FIELD_INDENT}${field.name}: ${formatValue(field.before)} -> ${formatValue(field.after)}`;
    case 'lines':
      return `\n${FIELD_INDENT}${field.name}:${field.lines.map((l) => `\n${DIFF_INDENT}${diffLine(l, chalk)}`).join('')}`;
    case 'hidden':
      return `\n${FIELD_INDENT}${field.name}: ${hiddenMarker(field)}`;
  }
}

function diffLine(line: DiffLine, chalk: ChalkInstance): string {
  if (line.skipped !== undefined) return chalk.dim(`  ${line.text}`);
  const text = `${line.sign} ${printable(line.text)}`;
  return line.sign === '+' ? chalk.green(text) : line.sign === '-' ? chalk.red(text) : text;
}

/** Per method, per policy: `+ prod-admin: fry, leela, … (27 users)`, then `- ops: bender (1 user)`. */
function renderAccessReview(changes: readonly AccessChange[], chalk: ChalkInstance): string {
  if (changes.length === 0) return NO_ACCESS_CHANGES;
  const lines = [ACCESS_HEADING];
  let method: string | undefined;
  for (const line of accessLines(changes)) {
    if (line.method !== method) lines.push(`  ${printable((method = line.method))}`);
    const calledOut = line.escalation ? ` (${printable(escalationWords(line.escalation))})` : '';
    const text = `${line.sign} ${printable(line.policy)}: ${userList(line.users)}${calledOut}`;
    lines.push(`    ${line.sign === '+' ? chalk.green(text) : chalk.red(text)}`);
  }
  return lines.join('\n');
}

function renderUnmanaged(items: Unmanaged[]): string {
  return [UNMANAGED_HEADING, ...items.map((u) => `  ${printableAddress(String(u.address))}`)].join('\n');
}

function renderPlanNotes(notes: PlanNote[], chalk: ChalkInstance): string {
  return notes.map((n) => formatPlanNote(n, chalk)).join('\n');
}

/** `warning: east:sys/replication/dr: message` or `note: message`. */
export function formatPlanNote(note: PlanNote, chalk: ChalkInstance): string {
  const label = note.severity === 'warning' ? chalk.yellow('warning:') : 'note:';
  return `${label} ${note.address ? `${printableAddress(String(note.address))}: ` : ''}${printable(note.message)}`;
}
