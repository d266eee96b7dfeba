import { printable } from '../core/text-escape.js';
import type { ChalkInstance } from 'chalk';
import { Chalk } from 'chalk';
import { assertNever, type Action, type Change, type ChangeReason, type PlanSummary } from '../core/plan.js';

/** The one-character mark of an action, as in the contract's text plan. */
export function actionSymbol(action: Action): string {
  switch (action) {
    case 'create':
      return '+';
    case 'update':
      return '~';
    case 'delete':
      return '-';
    case 'transition':
      return '>';
    default:
      return assertNever(action);
  }
}

/** Colour of an action: green create, yellow update, red delete, cyan transition. */
export function actionColor(chalk: ChalkInstance, action: Action): (text: string) => string {
  switch (action) {
    case 'create':
      return chalk.green;
    case 'update':
      return chalk.yellow;
    case 'delete':
      return chalk.red;
    case 'transition':
      return chalk.cyan;
    default:
      return assertNever(action);
  }
}

/** Tag shown after the address for reasons worth a word (a declared change or a step needs none). */
function reasonTag(reason: ChangeReason): string | undefined {
  switch (reason) {
    case 'declared':
    case 'step':
      return undefined;
    case 'prune':
      return 'prune';
    case 'sync-secrets':
      return 'sync-secrets';
    case 'replace':
      return 'replace';
    default:
      return assertNever(reason);
  }
}

/** Tags of a change, e.g. `["prune"]`, `["destructive"]`. */
export function changeTags(change: Change): string[] {
  const tags: string[] = [];
  const reason = reasonTag(change.reason);
  if (reason) tags.push(reason);
  if (change.destructive) tags.push('destructive');
  return tags;
}

/**
 * `Plan: 1 to add, 2 to change, 0 to delete.`: `, 3 transitions` only when there are some, and
 * ` (2 destructive)` only when some of them are.
 */
export function summaryLine(s: PlanSummary): string {
  const transitions = s.transition > 0 ? `, ${s.transition} transition${s.transition === 1 ? '' : 's'}` : '';
  const destructive = s.destructive > 0 ? ` (${s.destructive} destructive)` : '';
  return `Plan: ${s.add} to add, ${s.change} to change, ${s.delete} to delete${transitions}${destructive}.`;
}

export const NO_CHANGES = 'No changes. Live state matches the manifests.';

/** Said instead of NO_CHANGES when nothing is to change but the servers hold objects no manifest lists: they do not match. */
export function noChangesButUnmanaged(count: number): string {
  const them = count === 1 ? 'object on the servers is' : 'objects on the servers are';
  return `No changes to make, but ${count} ${them} in no manifest (unmanaged, below).`;
}
export const UNMANAGED_HEADING = 'Unmanaged (not in any manifest; use --prune or prune: true to delete):';

// Made once: an apply renders a progress line per change, and making a Chalk is not cheap.
const COLOURED = new Chalk({ level: 1 });
const PLAIN = new Chalk({ level: 0 });

/** A chalk that colours at the basic 16-colour level, or not at all: no escape codes when off. */
export function makeChalk(color: boolean): ChalkInstance {
  return color ? COLOURED : PLAIN;
}

export { printable };
