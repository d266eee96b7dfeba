import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { Address } from '../../src/core/address.js';
import { PLAN_FORMAT_VERSION, type Plan } from '../../src/core/plan.js';
import { Secret } from '../../src/core/secret.js';
import type { KindPlan, PlanFlags } from '../../src/kinds/kind.js';
import { renderPlanDot } from '../../src/render/dot.js';
import { failoverDiagrams } from '../../src/render/failover-diagram.js';
import { renderPlanMarkdown } from '../../src/render/markdown.js';
import { DISABLED, DOWN, planFor, primaryStatus, secondaryStatus, SHARE_TEXTS, type DocSpec } from '../kinds/dr-replication/fixtures.js';
import type { JsonObject } from '../../src/core/json.js';
import { change } from '../core/builders.js';
import { expectGolden } from './golden.js';

const E = 'https://east:8201';
const W = 'https://west:8201';
const shares = { keyShares: SHARE_TEXTS };
const steady = { east: primaryStatus('C1', ['west', 'south'], E), west: secondaryStatus('C1', 'west', E), south: secondaryStatus('C1', 'south', E) };

function planOf(spec: DocSpec, statuses: Record<string, JsonObject>, flags: Partial<PlanFlags> = {}): Plan {
  const kind: KindPlan = planFor(spec, statuses, flags);
  expect(kind.errors).toEqual([]);
  return { formatVersion: PLAN_FORMAT_VERSION, changes: kind.changes, unmanaged: kind.unmanaged, notes: kind.notes };
}

const planned = (): Plan => planOf({ primary: 'west', secondaries: ['east', 'south'], ...shares }, steady);
const unplanned = (): Plan =>
  planOf({ primary: 'west', secondaries: ['east', 'south'], ...shares }, { east: DOWN, west: secondaryStatus('C1', 'west', E), south: secondaryStatus('C1', 'south', E) }, { allowUnreachablePrimary: true });
const bootstrap = (): Plan => planOf({ primary: 'east', secondaries: ['west', 'south'], ...shares }, { east: DISABLED, west: DISABLED, south: DISABLED });
const returning = (): Plan =>
  planOf(
    { primary: 'west', secondaries: ['east', 'south'], ...shares },
    { east: primaryStatus('C1', ['west', 'south'], E), west: primaryStatus('C1', ['south'], W), south: secondaryStatus('C1', 'south', W) },
  );

/** The one diagram of a plan of one replication set. */
function diagram(plan: Plan): string {
  const all = failoverDiagrams(plan);
  expect(all).toHaveLength(1);
  return all[0]!.mermaid;
}

/** How many clusters are DR primary after each line of a diagram, as its notes say. */
function primariesAlong(mermaid: string): number[] {
  const mode = new Map<string, string>();
  const counts: number[] = [];
  for (const line of mermaid.split('\n')) {
    const m = /^ {4}Note over (c\d+): (.*)$/.exec(line);
    if (m) mode.set(m[1]!, m[2]!);
    counts.push([...mode.values()].filter((v) => v === 'DR primary').length);
  }
  return counts;
}

describe('the DR failover as a Mermaid sequence diagram', () => {
  it('a planned failover: the clusters, the ordered steps, the stretch with no primary, never two (golden)', () => {
    const text = diagram(planned());
    expectGolden('failover-planned.mmd', text);
    // The stretch without a primary: from east's demotion to west's promotion, nothing else in it.
    const lines = text.split('\n');
    const open = lines.indexOf('    rect rgba(255, 165, 0, 0.2)');
    expect(lines[open - 2]).toBe('    lockstep->>c1: 1. primary/demote');
    expect(lines.slice(open + 1, open + 4)).toEqual(['    Note over c1,c3: no DR primary: the set takes no writes', '    lockstep->>c2: 2. secondary/promote', '    end']);
    expect(lines.filter((l) => l.startsWith('    lockstep->>'))).toHaveLength(11);
    expect(Math.max(...primariesAlong(text))).toBe(1);
    expect(text).not.toContain('DR primaries');
  });

  it('an unplanned failover: no primary from the start until the promotion, the old primary unreachable and never stepped on (golden)', () => {
    const text = diagram(unplanned());
    expectGolden('failover-unplanned.mmd', text);
    const lines = text.split('\n');
    expect(lines.slice(2, 12)).toEqual([
      '    participant c1 as west',
      '    participant c2 as south',
      '    participant c3 as east',
      '    Note over c1: DR secondary, following no primary',
      '    Note over c2: DR secondary',
      '    Note over c3: unreachable',
      '    rect rgba(255, 165, 0, 0.2)',
      '    Note over c1,c3: no DR primary: the set takes no writes',
      '    lockstep->>c1: 1. secondary/promote',
      '    end',
    ]);
    expect(lines.some((l) => l.startsWith('    lockstep->>c3'))).toBe(false);
  });

  it('a bootstrap has no outage to show: nothing replicated before the primary is enabled (golden)', () => {
    const text = diagram(bootstrap());
    expectGolden('bootstrap.mmd', text);
    expect(text).not.toContain('no DR primary');
    expect(text).toContain('lockstep->>c2: 4. secondary/enable (destructive)');
  });

  it('a plan that demotes a returning primary claims nothing about a cluster it did not read (golden)', () => {
    const text = diagram(returning());
    expectGolden('returning-primary.mmd', text);
    expect(text).toContain('Note over c2: DR mode not read by this plan');
    expect(text).not.toContain('no DR primary');
  });

  it('a plan that starts from two primaries (as the guards say) shows them in red, and no outage when one is demoted', () => {
    const status = (cluster: string, mode: string) => ({ address: new Address(cluster, 'sys/replication/dr/status'), description: '', expect: { mode } });
    const plan: Plan = {
      formatVersion: PLAN_FORMAT_VERSION,
      changes: [
        change({
          address: new Address('east', 'sys/replication/dr/primary/demote'),
          action: 'transition',
          before: { mode: 'primary' },
          after: { mode: 'secondary', follows: null },
          guards: [status('east', 'primary'), status('west', 'primary')],
        }),
      ],
      unmanaged: [],
      notes: [],
    };
    expect(diagram(plan).split('\n').slice(6)).toEqual([
      '    rect rgba(220, 0, 0, 0.25)',
      '    Note over c1,c2: 2 DR primaries: east, west',
      '    end',
      '    lockstep->>c1: 1. primary/demote',
      '    Note over c1: DR secondary, following no primary',
    ]);
  });

  it('never draws two primaries for any plan the planner makes from any mix of states', () => {
    const states = (name: string): JsonObject[] => [
      primaryStatus('C1', [], E),
      secondaryStatus('C1', name, E),
      secondaryStatus('C1', name, W),
      DISABLED,
      DOWN,
    ];
    let drawn = 0;
    for (const primary of ['east', 'west', 'south']) {
      for (const e of states('east')) for (const w of states('west')) for (const s of states('south')) {
        for (const allowUnreachablePrimary of [false, true]) {
          const kind = planFor({ primary, secondaries: ['east', 'west', 'south'].filter((n) => n !== primary), ...shares }, { east: e, west: w, south: s }, { allowUnreachablePrimary });
          if (kind.errors.length > 0 || kind.changes.length === 0) continue;
          const plan: Plan = { formatVersion: PLAN_FORMAT_VERSION, changes: kind.changes, unmanaged: [], notes: [] };
          const text = diagram(plan);
          const counts = primariesAlong(text);
          const startedWith = counts[counts.findIndex((_, i) => text.split('\n')[i]!.startsWith('    lockstep->>')) - 1] ?? 0;
          // Past the start, never more primaries than one (or than the start had, while a plan demotes them).
          const after = counts.slice(text.split('\n').findIndex((l) => l.startsWith('    lockstep->>')));
          expect(Math.max(...after), text).toBeLessThanOrEqual(Math.max(1, startedWith));
          drawn++;
        }
      }
    }
    expect(drawn).toBeGreaterThan(50);
  });

  it('the markdown comment shows it in a ```mermaid block under the table', () => {
    const md = renderPlanMarkdown(planned());
    expect(md).toContain('**DR steps of `west:sys/replication/dr`**, in order:\n\n```mermaid\nsequenceDiagram\n');
    expect(md.indexOf('```mermaid')).toBeLessThan(md.indexOf('<details>'));
  });

  it('draws no secret: not even one a broken plan carries in a sensitive field or in a name it draws', () => {
    const CANARY = 'CANARY-5e1d-failover-diagram';
    const secret = new Secret(CANARY, 'env:CANARY');
    const plan = planned();
    plan.changes = plan.changes.map((c, i) =>
      i === 0
        ? { ...c, after: { ...c.after, new_primary: CANARY, follows: secret as never }, sensitiveFields: ['new_primary'], notes: [CANARY] }
        : { ...c, before: { ...c.before, follows: secret as never }, guards: c.guards.map((g) => ({ ...g, description: CANARY })) },
    );
    for (const text of [diagram(plan), renderPlanDot(plan)]) expect(text).not.toContain(CANARY);
  });

  it('names that are not plain are drawn plainly: no line break, comment or entity gets into the diagram', () => {
    const plan: Plan = {
      formatVersion: PLAN_FORMAT_VERSION,
      changes: [
        change({ address: new Address('ea;st%%x', 'sys/replication/dr/primary/demote'), action: 'transition', before: { mode: 'primary' }, after: { mode: 'secondary', follows: 'we#st\nNote over c1: hi' } }),
      ],
      unmanaged: [],
      notes: [],
    };
    const text = diagram(plan);
    expect(text).toContain('participant c1 as ea_st__x');
    expect(text).toContain('Note over c1: DR secondary of we_st_Note_over_c1__hi');
    expect(text.split('\n')).toHaveLength(8);
  });
});

describe('the dependency order as Graphviz DOT', () => {
  it('a failover: one node per step in its cluster box, each step after the one before (golden)', () => {
    expectGolden('failover-planned.dot', renderPlanDot(planned()));
  });

  it('renders with graphviz (dot -Tsvg): every step a node, every dependency an edge', () => {
    const plan = planned();
    const dot = spawnSync('dot', ['-Tsvg'], { input: renderPlanDot(plan), encoding: 'utf8' });
    expect(dot.error).toBeUndefined();
    expect(dot.stderr).toBe('');
    expect(dot.status).toBe(0);
    const svg = dot.stdout;
    expect(svg).toContain('<svg');
    expect([...svg.matchAll(/<g id="node\d+" class="node">/g)]).toHaveLength(plan.changes.length);
    expect([...svg.matchAll(/<g id="edge\d+" class="edge">/g)]).toHaveLength(plan.changes.length - 1);
    for (const cluster of ['east', 'west', 'south']) expect(svg).toContain(`<title>cluster_${cluster}</title>`);
  });

  it('quotes names so nothing in them ends a string or becomes an escape, and still renders', () => {
    const odd = new Address('east', ['auth', 'ldap', 'groups', 'a"b\\nc']);
    const plan: Plan = {
      formatVersion: PLAN_FORMAT_VERSION,
      changes: [change({ address: odd, action: 'create', dependsOn: [new Address('east', 'auth/ldap')] })],
      unmanaged: [],
      notes: [],
    };
    const text = renderPlanDot(plan);
    expect(text).toContain('"east:auth/ldap/groups/a\\"b\\\\nc" [label = "+ east:auth/ldap/groups/a\\"b\\\\nc"];');
    expect(text).toContain('"east:auth/ldap" [style = "dashed", label = "east:auth/ldap (not in this plan)"];');
    const dot = spawnSync('dot', ['-Tplain'], { input: text, encoding: 'utf8' });
    expect(dot.status, dot.stderr).toBe(0);
    expect(dot.stdout).toContain('"+ east:auth/ldap/groups/a\\"b\\\\nc"');
  });
});
