import type { Change, Plan } from '../core/plan.js';
import { printable } from '../core/text-escape.js';
import { actionSymbol } from './vocabulary.js';

/**
 * The plan's dependency order as a Graphviz DOT digraph (`lockstep graph`, as `terraform
 * graph`): one node per change, labelled with its action mark and address, boxed by cluster;
 * an edge from each change to the ones that wait for it, so arrows point the way apply goes.
 * Destructive changes are drawn red, steps of a transition rounded. Only addresses and actions
 * are drawn: no value of the plan.
 */
export function renderPlanDot(plan: Plan): string {
  const inPlan = new Set(plan.changes.map((c) => String(c.address)));
  const byCluster = new Map<string, Change[]>();
  for (const c of plan.changes) {
    const changes = byCluster.get(c.address.cluster) ?? [];
    if (changes.length === 0) byCluster.set(c.address.cluster, changes);
    changes.push(c);
  }

  const lines = [
    'digraph lockstep {',
    '  // An edge A -> B: B runs after A.',
    '  compound = "true";',
    '  newrank = "true";',
    '  node [shape = "box", fontname = "monospace"];',
  ];
  for (const [cluster, changes] of [...byCluster].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    lines.push(`  subgraph ${quote(`cluster_${cluster}`)} {`, `    label = ${quote(cluster)};`);
    for (const c of changes) lines.push(`    ${quote(String(c.address))} [${nodeAttributes(c)}];`);
    lines.push('  }');
  }
  // A change may wait for one the plan does not hold (left out by --target): drawn dashed.
  const outside = new Set<string>();
  for (const c of plan.changes) {
    for (const d of c.dependsOn) {
      const from = String(d);
      if (!inPlan.has(from)) outside.add(from);
      lines.push(`  ${quote(from)} -> ${quote(String(c.address))};`);
    }
  }
  for (const address of [...outside].sort()) lines.push(`  ${quote(address)} [style = "dashed", label = ${quote(`${address} (not in this plan)`)}];`);
  lines.push('}');
  return lines.join('\n');
}

function nodeAttributes(c: Change): string {
  const attrs = [`label = ${quote(`${actionSymbol(c.action)} ${String(c.address)}`)}`];
  if (c.action === 'transition') attrs.push('style = "rounded"');
  if (c.destructive) attrs.push('color = "red"', 'fontcolor = "red"');
  return attrs.join(', ');
}

/**
 * A DOT string: control characters shown escaped (printable), tabs and line ends as spaces, then `\` and `"` escaped, so
 * nothing in a name can end the string or become one of DOT's own escapes (`\n`, `\l`, `\N`).
 */
function quote(text: string): string {
  return `"${printable(text).replace(/[\t\n]/g, ' ').replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}
