import { printableAddress } from '../core/text-escape.js';
import { formatCount } from '../core/count.js';
import { formatPos, type Diagnostic } from '../core/diagnostics.js';
import { summarise, type Change, type Plan, type PlanNote } from '../core/plan.js';
import type { AccessChange, Escalation } from '../core/access.js';
import { NO_ACCESS_CHANGES, userList } from './access.js';
import { failoverDiagrams } from './failover-diagram.js';
import { fieldLines, formatValue, hiddenMarker, type FieldLine } from './fields.js';
import { actionSymbol, changeTags, noChangesButUnmanaged, printable, summaryLine } from './vocabulary.js';
import { escapeHtml as escapeHtmlText, markdownCode, markdownFence } from '../core/text-escape.js';

/** Fields listed in the table per change; the rest are counted. */
const TABLE_FIELDS = 6;

/**
 * The default ceiling on a comment's length. GitHub refuses a comment over 65,536 characters
 * (the API answers 422 "Body is too long"), and the scripts that post a plan often add a
 * heading of their own: this leaves them room.
 */
export const DEFAULT_COMMENT_LIMIT = 60_000;

/** The shortest limit a comment can keep its heading, warnings and truncation notice in. */
export const MIN_COMMENT_LIMIT = 2_000;

export interface MarkdownOptions {
  /** Most characters (UTF-16 code units) the comment may hold; 0 or absent for no limit. */
  maxChars?: number;
  /**
   * What the engine found while planning (a policy that does not exist, at its manifest line):
   * shown with the notes, so a reviewer reading the comment sees it too.
   */
  diagnostics?: readonly Diagnostic[];
}

/**
 * One part of the comment: a head that is always shown, then items shown while the comment has
 * room, then a line counting the rest. Items are shown in their order; when room is short, the
 * comment keeps the items of lowest `priority` first, across all parts (see PRIORITY).
 */
interface Section {
  head: string[];
  /** Closes the part after its items (a `</details>`); absent for most. */
  foot?: string[];
  items: Array<{ text: string; priority: number }>;
  /** Between items: a table row follows its row, a details block stands apart. */
  joiner: '\n' | '\n\n';
  /** The line that stands for `n` items left out. */
  more: (n: number) => string;
}

/**
 * What a shortened comment keeps first: what a reviewer must not miss (destructive changes,
 * deletes and updates in the table, the destructive call-out, warnings), then their diffs, then
 * the other notes, the creates, the unmanaged objects, and last the diffs of creates. A
 * thousand new users cannot hide one changed config.
 */
const PRIORITY = { mustSee: 0, mustSeeDiff: 1, info: 2, create: 3, unmanaged: 4, createDiff: 5 } as const;

/** Room kept for the "… more" lines and the closing notice, which are written last. */
const NOTICE_ROOM = 1_200;

/**
 * The plan as a pull-request comment (GitHub/GitLab markdown): a heading with the summary, a
 * table of changes, destructive changes called out, then a collapsible diff per change, the
 * unmanaged objects and the notes. No trailing newline.
 *
 * With `maxChars`, a plan too long for one comment keeps its heading (the whole summary) and
 * the head of every part, and as many items as fit, most important first (PRIORITY). Every part
 * that lost items says how many, and a closing line says that the whole plan is in
 * `lockstep plan`.
 */
export function renderPlanMarkdown(plan: Plan, opts: MarkdownOptions = {}): string {
  const parts = planParts(plan, opts.diagnostics ?? []);
  const render = (kept: (part: Part) => ReadonlySet<number> | 'all'): string =>
    DISPLAY_ORDER.map((p) => renderSection(parts[p], kept(p)))
      .filter((t) => t !== '')
      .join('\n\n');
  const full = render(() => 'all');
  const limit = opts.maxChars ?? 0;
  if (limit <= 0 || full.length <= limit) return full;

  const heads = DISPLAY_ORDER.reduce((n, p) => n + parts[p].head.join('\n').length + (parts[p].foot ?? []).join('\n').length + 2, 0);
  const kept = keepWithin(parts, limit - NOTICE_ROOM - heads);
  const changes = plan.changes.length;
  const diffs = parts.details.items.length;
  const notice =
    `_This comment is shortened to stay under ${formatCount(limit)} characters: ` +
    `${kept.get('table')!.size} of ${changes} change${changes === 1 ? '' : 's'} listed, ${kept.get('details')!.size} of ${diffs} diff${diffs === 1 ? '' : 's'} shown, ` +
    'destructive changes, deletes and updates first. ' +
    'Run `lockstep plan` (text or `--format json`) for the whole plan, or `--comment-limit 0` for an unshortened comment._';
  return `${render((p) => kept.get(p)!)}\n\n${notice}`;
}

/**
 * The items each part keeps within `room` characters: lowest priority first, then in display
 * order. An item that does not fit ends what its part takes at that priority, so a part shows
 * an unbroken run of its items of each priority.
 */
function keepWithin(parts: Record<Part, Section>, room: number): Map<Part, Set<number>> {
  const candidates = DISPLAY_ORDER.flatMap((part, order) => parts[part].items.map((item, index) => ({ part, order, index, priority: item.priority })));
  candidates.sort((a, b) => a.priority - b.priority || a.order - b.order || a.index - b.index);
  const kept = new Map<Part, Set<number>>(DISPLAY_ORDER.map((p) => [p, new Set<number>()]));
  const closed = new Set<string>();
  let used = 0;
  for (const c of candidates) {
    const run = `${c.part}/${c.priority}`;
    if (closed.has(run)) continue;
    const cost = parts[c.part].items[c.index]!.text.length + parts[c.part].joiner.length;
    if (used + cost > room) {
      closed.add(run);
      continue;
    }
    used += cost;
    kept.get(c.part)!.add(c.index);
  }
  return kept;
}

/** Anything but a plain create: it changes or removes what exists. */
function mustSee(c: Change): boolean {
  return c.destructive || c.action !== 'create';
}

type Part = 'heading' | 'table' | 'destructive' | 'access' | 'diagrams' | 'details' | 'unmanaged' | 'notes';
const DISPLAY_ORDER: readonly Part[] = ['heading', 'table', 'destructive', 'access', 'diagrams', 'details', 'unmanaged', 'notes'];

function planParts(plan: Plan, diagnostics: readonly Diagnostic[]): Record<Part, Section> {
  const none: Section = { head: [], items: [], joiner: '\n', more: () => '' };
  const destructive = plan.changes.filter((c) => c.destructive);
  const n = destructive.length;
  const s = n === 1 ? 's' : '';
  return {
    heading: {
      ...none,
      head:
        plan.changes.length === 0
          ? plan.unmanaged.length > 0
            ? ['### lockstep plan: no changes', '', noChangesButUnmanaged(plan.unmanaged.length)]
            : ['### lockstep plan: no changes', '', 'Live state matches the manifests.']
          : [`### lockstep plan: ${summaryLine(summarise(plan)).replace(/^Plan: /, '').replace(/\.$/, '')}`],
    },
    table:
      plan.changes.length === 0
        ? none
        : {
            head: ['| Action | Address | Changed fields |', '| --- | --- | --- |'],
            items: plan.changes.map((c) => ({ text: tableRow(c), priority: mustSee(c) ? PRIORITY.mustSee : PRIORITY.create })),
            joiner: '\n',
            more: (k) => `| … | ${k} more change${k === 1 ? '' : 's'} | |`,
          },
    destructive:
      n === 0
        ? none
        : {
            head: [`> :warning: **${n} destructive change${n === 1 ? '' : 's'}** (wipe${s} or orphan${s} data, or take${s} access away; apply needs \`--allow-destructive\`):`],
            items: destructive.map((c) => ({ text: `> - ${code(printableAddress(String(c.address)))}`, priority: PRIORITY.mustSee })),
            joiner: '\n',
            more: (k) => `> - … and ${k} more`,
          },
    access: plan.accessChanges === undefined ? none : accessSection(plan.accessChanges),
    diagrams: {
      ...none,
      // A DR transition drawn: who is primary when, and the stretch with none (failover-diagram.ts).
      items: failoverDiagrams(plan).map(({ owner, mermaid }) => ({
        text: [`**DR steps${owner === undefined ? '' : ` of ${code(owner)}`}**, in order:`, '', `${markdownFence(mermaid)}mermaid`, mermaid, markdownFence(mermaid)].join('\n'),
        priority: PRIORITY.mustSeeDiff,
      })),
      joiner: '\n\n',
      more: (k) => `_… ${k} more DR diagram${k === 1 ? '' : 's'} not shown._`,
    },
    details: {
      ...none,
      items: plan.changes.flatMap((c) => {
        const text = renderDetails(c);
        return text === undefined ? [] : [{ text, priority: mustSee(c) ? PRIORITY.mustSeeDiff : PRIORITY.createDiff }];
      }),
      joiner: '\n\n',
      more: (k) => `_… ${k} more diff${k === 1 ? '' : 's'} not shown._`,
    },
    unmanaged:
      plan.unmanaged.length === 0
        ? none
        : {
            head: ['**Unmanaged** (not in any manifest; use `--prune` or `prune: true` to delete):', ''],
            items: plan.unmanaged.map((u) => ({ text: `- ${code(printableAddress(String(u.address)))}`, priority: PRIORITY.unmanaged })),
            joiner: '\n',
            more: (k) => `- … and ${k} more`,
          },
    notes:
      plan.notes.length === 0 && diagnostics.length === 0
        ? none
        : {
            head: ['**Notes**', ''],
            items: [
              ...diagnostics.map((d) => ({ text: renderDiagnostic(d), priority: PRIORITY.mustSee })),
              ...plan.notes.map((n) => ({ text: renderNote(n), priority: n.severity === 'warning' ? PRIORITY.mustSee : PRIORITY.info })),
            ],
            joiner: '\n',
            more: (k) => `- … and ${k} more`,
          },
  };
}

/** Policies in the access table above which it is folded in a <details> block. */
const ACCESS_ROWS_OPEN = 10;

/**
 * The access review as a table, one row per method and policy: who gains it, who loses it
 * (names from the directory, so code spans). Folded when long; counted when the comment is shortened.
 */
function accessSection(changes: readonly AccessChange[]): Section {
  if (changes.length === 0) return { head: [NO_ACCESS_CHANGES.replace(/^Access review:/, '**Access review**:')], items: [], joiner: '\n', more: () => '' };
  const users = new Set(changes.flatMap((c) => [...c.gained, ...c.lost])).size;
  const policies = changes.length === 1 ? '1 policy changes' : `${changes.length} policies change`;
  const title = `**Access review**: ${policies} hands for ${users} directory user${users === 1 ? '' : 's'}`;
  const table = ['| Method | Policy | Gained | Lost |', '| --- | --- | --- | --- |'];
  const folded = changes.length > ACCESS_ROWS_OPEN;
  const list = (names: readonly string[]) => (names.length === 0 ? '' : cell(code(userList(names))));
  return {
    head: folded ? ['<details>', `<summary>${escapeHtml(title.replaceAll('**', ''))}</summary>`, '', ...table] : [title, '', ...table],
    foot: folded ? ['', '</details>'] : undefined,
    items: changes.map((c) => ({
      text: `| ${cell(code(String(c.method)))} | ${cell(code(c.policy))}${c.escalation ? ` ${cell(escalationCell(c.escalation))}` : ''} | ${list(c.gained)} | ${list(c.lost)} |`,
      priority: PRIORITY.mustSeeDiff,
    })),
    joiner: '\n',
    more: (k) => `| … | ${k} more polic${k === 1 ? 'y' : 'ies'} | | |`,
  };
}

/** A called-out gain in the policy cell: `**grants sudo** on \`sys/*\``, the path a code span. */
function escalationCell(e: Escalation): string {
  switch (e.grants) {
    case 'sudo':
      return `**grants sudo** on ${code(e.path)}`;
    case 'write':
      return `**grants write** on ${code(e.path)}, which this plan writes`;
  }
}

/** The head, the kept items in their order, the line for the rest and the foot; '' for a part with nothing. */
function renderSection(section: Section, kept: ReadonlySet<number> | 'all'): string {
  const shown = kept === 'all' ? section.items : section.items.filter((_, i) => kept.has(i));
  const left = section.items.length - shown.length;
  const lines = [...section.head];
  if (shown.length > 0) lines.push(shown.map((item) => item.text).join(section.joiner));
  if (left > 0) lines.push(section.more(left));
  lines.push(...(section.foot ?? []));
  return lines.join(section.joiner);
}

function tableRow(c: Change): string {
  const tags = changeTags(c);
  const action = tags.length > 0 ? `${c.action} (${tags.join(', ')})` : c.action;
  return `| ${action} | ${cell(code(printableAddress(String(c.address))))} | ${cell(tableFields(c))} |`;
}

/**
 * The fields shown under the change (write-only ones are in the details only: they always go;
 * unless their presence is what changed, e.g. a pin to clear that the server holds).
 */
function tableFields(c: Change): string {
  const names = fieldLines(c)
    .filter((f) => !(f.kind === 'hidden' && f.writeOnly && !c.changedFields.includes(f.name)))
    .map((f) => f.name);
  const shown = names.slice(0, TABLE_FIELDS).map(code).join(', ');
  return names.length > TABLE_FIELDS ? `${shown} and ${names.length - TABLE_FIELDS} more` : shown;
}

/** A collapsible diff of one change; undefined when there is nothing under its address. */
function renderDetails(c: Change): string | undefined {
  const fields = fieldLines(c);
  if (fields.length === 0 && c.notes.length === 0 && !c.destructive) return undefined;
  const body = [`  ${printableAddress(String(c.address))}`, ...fields.flatMap(diffField), ...c.notes.map((n) => `# ${printable(n)}`)];
  const fence = markdownFence(body.join('\n'));
  const lines = [
    '<details>',
    `<summary><code>${escapeHtml(`${actionSymbol(c.action)} ${printableAddress(String(c.address))}`)}</code></summary>`,
    '',
  ];
  if (c.destructive) lines.push('> :warning: **Destructive**: runs only with `--allow-destructive`.', '');
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

/**
 * A note's message quotes what the server holds (a name, an error): in markdown nothing from a
 * server or a manifest is outside code, so the whole message is a code span (no @mention,
 * link, HTML or heading can come of it).
 */
function renderNote(n: PlanNote): string {
  const label = n.severity === 'warning' ? ':warning: warning' : 'note';
  return `- ${label}: ${n.address ? `${code(printableAddress(String(n.address)))}: ` : ''}${code(n.message)}`;
}

/** A diagnostic as a note: where (a manifest position, or the object) and the message, both code. */
function renderDiagnostic(d: Diagnostic): string {
  const label = d.severity === 'warning' ? ':warning: warning' : ':x: error';
  const where = d.pos ? formatPos(d.pos) : d.subject;
  return `- ${label}: ${where === undefined ? '' : `${code(where)}: `}${code(d.message)}`;
}

/** An inline code span that survives backticks in the text (text-escape.ts markdownCode). */
function code(text: string): string {
  return markdownCode(text);
}

/** A table cell: pipes would end the cell early. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|');
}

function escapeHtml(text: string): string {
  return escapeHtmlText(printable(text));
}

/**
 * A log as a comment: the title as a heading (code only where it holds what is not plain
 * words), then the log's lines, each through the one printer, in a fence longer than any
 * backtick run in them. What the log quotes (a manifest's or a server's text) stays code.
 */
export function renderLogMarkdown(title: string, log: string): string {
  const lines = log.replace(/\n$/, '').split('\n').map(printable);
  const body = lines.join('\n');
  const fence = markdownFence(body);
  const heading = /^[\w .,:()-]*$/.test(title) ? title : code(title);
  return [`### ${heading}`, '', `${fence}text`, body, fence].join('\n');
}
