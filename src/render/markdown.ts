import { summarise, type Change, type Plan, type PlanNote } from '../core/plan.js';
import { fieldLines, formatValue, hiddenMarker, type FieldLine } from './fields.js';
import { actionSymbol, changeTags, printable, summaryLine } from './vocabulary.js';

/** Fields listed in the table per change; the rest are counted. */
const TABLE_FIELDS = 6;

/**
 * The plan as a pull-request comment (GitHub/GitLab markdown): a heading with the summary, a
 * table of changes, destructive changes called out, then a collapsible diff per change.
 * No trailing newline.
 */
export function renderPlanMarkdown(plan: Plan): string {
  const parts: string[] = [];
  if (plan.changes.length === 0) {
    parts.push('### lockstep plan: no changes', 'Live state matches the manifests.');
  } else {
    parts.push(`### lockstep plan: ${summaryLine(summarise(plan)).replace(/^Plan: /, '').replace(/\.$/, '')}`);
    parts.push(renderTable(plan.changes));
    const destructive = plan.changes.filter((c) => c.destructive);
    if (destructive.length > 0) parts.push(renderDestructiveWarning(destructive));
    for (const c of plan.changes) {
      const details = renderDetails(c);
      if (details) parts.push(details);
    }
  }
  if (plan.unmanaged.length > 0) {
    parts.push(
      [
        '**Unmanaged** (not in any manifest; use `--prune` or `prune: true` to delete):',
        '',
        ...plan.unmanaged.map((u) => `- ${code(String(u.address))}`),
      ].join('\n'),
    );
  }
  if (plan.notes.length > 0) {
    parts.push(['**Notes**', '', ...plan.notes.map(renderNote)].join('\n'));
  }
  return parts.join('\n\n');
}

function renderTable(changes: Change[]): string {
  const rows = changes.map((c) => {
    const tags = changeTags(c);
    const action = tags.length > 0 ? `${c.action} (${tags.join(', ')})` : c.action;
    return `| ${action} | ${cell(code(String(c.address)))} | ${cell(tableFields(c))} |`;
  });
  return ['| Action | Address | Changed fields |', '| --- | --- | --- |', ...rows].join('\n');
}

/** The fields shown under the change (write-only ones are in the details only: they always go). */
function tableFields(c: Change): string {
  const names = fieldLines(c)
    .filter((f) => !(f.kind === 'hidden' && f.writeOnly))
    .map((f) => f.name);
  const shown = names.slice(0, TABLE_FIELDS).map(code).join(', ');
  return names.length > TABLE_FIELDS ? `${shown} and ${names.length - TABLE_FIELDS} more` : shown;
}

function renderDestructiveWarning(changes: Change[]): string {
  const n = changes.length;
  return [
    `> :warning: **${n} destructive change${n === 1 ? '' : 's'}** (wipe${n === 1 ? 's' : ''} or orphan${n === 1 ? 's' : ''} data; apply needs \`--allow-destructive\`):`,
    ...changes.map((c) => `> - ${code(String(c.address))}`),
  ].join('\n');
}

/** A collapsible diff of one change; undefined when there is nothing under its address. */
function renderDetails(c: Change): string | undefined {
  const fields = fieldLines(c);
  if (fields.length === 0 && c.notes.length === 0 && !c.destructive) return undefined;
  const body = [`  ${printable(String(c.address))}`, ...fields.flatMap(diffField), ...c.notes.map((n) => `# ${printable(n)}`)];
  const fence = fenceFor(body.join('\n'));
  const lines = [
    '<details>',
    `<summary><code>${escapeHtml(`${actionSymbol(c.action)} ${String(c.address)}`)}</code></summary>`,
    '',
  ];
  if (c.destructive) lines.push('> :warning: **Destructive**: wipes or orphans data; runs only with `--allow-destructive`.', '');
  lines.push(`${fence}diff`, ...body, fence, '', '</details>');
  return lines.join('\n');
}

/** Lines in diff syntax: the sign in column 0 so the block is highlighted. */
function diffField(f: FieldLine): string[] {
  switch (f.kind) {
    case 'set':
      return [`+ ${f.name}: ${formatValue(f.value)}`];
    case 'change': {
      const out: string[] = [];
      if (f.before !== undefined) out.push(`- ${f.name}: ${formatValue(f.before)}`);
      if (f.after !== undefined) out.push(`+ ${f.name}: ${formatValue(f.after)}`);
      return out;
    }
    case 'lines':
      return [`  ${f.name}:`, ...f.lines.map((l) => `${l.sign}     ${printable(l.text)}`)];
    case 'hidden':
      return [`  ${f.name}: ${hiddenMarker(f)}`];
  }
}

function renderNote(n: PlanNote): string {
  const label = n.severity === 'warning' ? ':warning: warning' : 'note';
  return `- ${label}: ${n.address ? `${code(String(n.address))}: ` : ''}${escapeMarkdown(printable(n.message))}`;
}

/** An inline code span that survives backticks in the text. */
function code(text: string): string {
  const t = printable(text);
  if (!t.includes('`')) return `\`${t}\``;
  return `\`\` ${t} \`\``;
}

/** A table cell: pipes would end the cell early. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|');
}

/** A code fence longer than any backtick run in the content, so a value cannot close it. */
function fenceFor(content: string): string {
  const longest = Math.max(0, ...(content.match(/`+/g) ?? []).map((r) => r.length));
  return '`'.repeat(Math.max(3, longest + 1));
}

function escapeHtml(text: string): string {
  return printable(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function escapeMarkdown(text: string): string {
  return text.replace(/([\\`*_<>|[\]])/g, '\\$1');
}
