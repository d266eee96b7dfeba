import type { Change, Plan } from '../core/plan.js';
import type { JsonObject, JsonValue } from '../core/json.js';

/**
 * A DR transition as a Mermaid sequence diagram, for pull-request comments (GitHub and GitLab
 * render ```mermaid blocks): lockstep and the set's clusters, each cluster's DR mode at the
 * start, the steps in order, each change of mode as it happens, and the stretch in which the
 * set has no DR primary highlighted. Two primaries would be called out in red: a plan never
 * makes them, and a plan that starts from them shows them.
 *
 * It reads only what the plan already holds, and only its names and modes: the steps
 * (`action: transition`), their `before`/`after` (the cluster's `mode`, the primary it
 * `follows`) and their guards (the mode every cluster involved is expected in). A cluster's
 * mode changes only by a step on that cluster, so the first thing the plan says of a cluster
 * is its mode at the start. Nothing else of the plan is drawn (no values: the plan is redacted,
 * and the diagram shows less still).
 */
export function failoverDiagrams(plan: Plan): Array<{ owner: string | undefined; mermaid: string }> {
  const sets = new Map<string, Change[]>();
  for (const c of plan.changes) {
    if (c.action !== 'transition') continue;
    // Steps without an owner (older saved plans) are one transition.
    const key = c.owner === undefined ? '' : String(c.owner);
    const steps = sets.get(key) ?? [];
    if (steps.length === 0) sets.set(key, steps);
    steps.push(c);
  }
  return [...sets].map(([owner, steps]) => ({ owner: owner === '' ? undefined : owner, mermaid: diagramOf(steps) }));
}

type Mode =
  | { kind: 'primary' }
  /** follows: the primary it follows; null: none; undefined: not said. */
  | { kind: 'secondary'; follows: string | null | undefined }
  | { kind: 'disabled' }
  | { kind: 'unreachable' }
  | { kind: 'unknown' };

const DR_STATUS_PATH = /(^|\/)sys\/replication\/dr\/status$/;
const DR_PREFIX = /^(?:.*\/)?sys\/replication\/dr\//;

function diagramOf(steps: readonly Change[]): string {
  const start = startModes(steps);
  // In the order the steps reach them; clusters only checked, never stepped on, last.
  const firstStep = (name: string): number => {
    const i = steps.findIndex((s) => s.address.cluster === name);
    return i < 0 ? steps.length : i;
  };
  const clusters = [...start.keys()].sort((a, b) => firstStep(a) - firstStep(b));
  const id = new Map(clusters.map((name, i) => [name, `c${i + 1}`]));
  const lines = ['sequenceDiagram', '    participant lockstep'];
  for (const name of clusters) lines.push(`    participant ${id.get(name)} as ${label(name)}`);
  for (const name of clusters) lines.push(`    Note over ${id.get(name)}: ${describe(start.get(name)!)}`);

  const modes = new Map(start);
  const across = clusters.length > 1 ? `${id.get(clusters[0]!)},${id.get(clusters[clusters.length - 1]!)}` : id.get(clusters[0]!)!;
  twoPrimaries(modes, lines, across);
  let outage = openOutage(modes, lines, across);
  steps.forEach((step, i) => {
    const name = step.address.cluster;
    const what = label(step.address.path.replace(DR_PREFIX, ''));
    lines.push(`    lockstep->>${id.get(name)}: ${i + 1}. ${what}${step.destructive ? ' (destructive)' : ''}`);
    const after = modeOf(viewOf(step, 'after'));
    if (after.kind === 'unknown' || sameMode(modes.get(name)!, after)) return;
    modes.set(name, after);
    if (outage && after.kind === 'primary') {
      lines.push('    end');
      outage = false;
    }
    lines.push(`    Note over ${id.get(name)}: ${describe(after)}`);
    if (after.kind === 'primary') twoPrimaries(modes, lines, across);
    if (!outage) outage = openOutage(modes, lines, across);
  });
  if (outage) lines.push('    end');
  return lines.join('\n');
}

/** Two primaries at once, called out in red (a plan starts from them at worst, never makes them). */
function twoPrimaries(modes: ReadonlyMap<string, Mode>, lines: string[], across: string): void {
  const primaries = primariesOf(modes);
  if (primaries.length < 2) return;
  lines.push('    rect rgba(220, 0, 0, 0.25)', `    Note over ${across}: ${primaries.length} DR primaries: ${primaries.map(label).join(', ')}`, '    end');
}

/**
 * Opens the highlighted stretch without a primary when the set has replication (a secondary)
 * and no cluster is primary. Said only when the mode of every cluster the plan names is known.
 */
function openOutage(modes: ReadonlyMap<string, Mode>, lines: string[], across: string): boolean {
  const all = [...modes.values()];
  if (all.some((m) => m.kind === 'unknown')) return false;
  if (all.some((m) => m.kind === 'primary') || !all.some((m) => m.kind === 'secondary')) return false;
  lines.push('    rect rgba(255, 165, 0, 0.2)', `    Note over ${across}: no DR primary: the set takes no writes`);
  return true;
}

/** Each cluster the steps name, in order of first mention, with the first mode the plan gives it. */
function startModes(steps: readonly Change[]): Map<string, Mode> {
  const modes = new Map<string, Mode>();
  const learn = (name: string, mode: Mode): void => {
    const known = modes.get(name);
    if (known === undefined || known.kind === 'unknown') modes.set(name, mode);
  };
  steps.forEach((step, i) => {
    // Whom a secondary follows depends on the other clusters: a later step's `before` tells it
    // as it is then (after a demotion, say), not at the start.
    const before = modeOf(viewOf(step, 'before'));
    learn(step.address.cluster, i > 0 && before.kind === 'secondary' ? { kind: 'secondary', follows: undefined } : before);
    for (const g of step.guards) if (DR_STATUS_PATH.test(g.address.path)) learn(g.address.cluster, modeOf(g.expect));
    // A primary named as followed or as the new primary is part of the picture, mode unknown
    // unless a step or guard says it.
    for (const view of [viewOf(step, 'before'), viewOf(step, 'after')]) {
      for (const key of ['follows', 'new_primary']) {
        const named = view?.[key];
        if (typeof named === 'string' && named !== '') learn(named, { kind: 'unknown' });
      }
    }
  });
  return modes;
}

/** A step's before or after without its sensitive and write-only fields: those are never drawn. */
function viewOf(step: Change, which: 'before' | 'after'): JsonObject | null {
  const view = step[which];
  if (view === null) return null;
  const hidden = new Set([...step.sensitiveFields, ...step.writeOnlyFields]);
  return Object.fromEntries(Object.entries(view).filter(([k]) => !hidden.has(k)));
}

function modeOf(view: JsonObject | null): Mode {
  if (view === null) return { kind: 'unknown' };
  if (view['reachable'] === false) return { kind: 'unreachable' };
  switch (view['mode']) {
    case 'primary':
      return { kind: 'primary' };
    case 'disabled':
      return { kind: 'disabled' };
    case 'secondary':
      return { kind: 'secondary', follows: 'follows' in view ? text(view['follows']) : undefined };
    default:
      return { kind: 'unknown' };
  }
}

function text(v: JsonValue | undefined): string | null {
  return typeof v === 'string' && v !== '' ? v : null;
}

/** No news: the same mode, and for a secondary no new primary (a demotion elsewhere is drawn as the stretch without one). */
function sameMode(a: Mode, b: Mode): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind !== 'secondary' || b.kind !== 'secondary') return true;
  return a.follows === b.follows || typeof b.follows !== 'string';
}

function primariesOf(modes: ReadonlyMap<string, Mode>): string[] {
  return [...modes].filter(([, m]) => m.kind === 'primary').map(([name]) => name);
}

function describe(mode: Mode): string {
  switch (mode.kind) {
    case 'primary':
      return 'DR primary';
    case 'secondary':
      if (mode.follows === undefined) return 'DR secondary';
      return mode.follows === null ? 'DR secondary, following no primary' : `DR secondary of ${label(mode.follows)}`;
    case 'disabled':
      return 'DR disabled';
    case 'unreachable':
      return 'unreachable';
    case 'unknown':
      return 'DR mode not read by this plan';
  }
}

/**
 * Text as Mermaid shows it literally: names and paths are letters, digits and `_ . - /` (cluster
 * names are; anything else, say from a hand-edited saved plan, becomes `_`), so no character
 * can end a line, open a comment (`%%`), an entity (`#...;`) or a new statement.
 */
function label(s: string): string {
  return s.replace(/[^A-Za-z0-9_./-]/g, '_').slice(0, 120) || '_';
}
