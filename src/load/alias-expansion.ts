import type { Document, Node } from 'yaml';
import { yamlLibrary } from './yaml-library.js';

/**
 * The most text, counted as JSON characters, that the aliases of one run's manifests may add
 * when expanded. An alias repeats a value without repeating its text: a short manifest can
 * expand to gigabytes ("billion laughs", or one large string aliased many times), which loads
 * fine as shared values and then kills whatever writes it out (a plan, a digest). Counting the
 * size aliases expand to, rather than how many there are, bounds both forms; 4 MiB is far more
 * than any manifest's reuse of a policy list or a setting needs.
 */
export const MAX_ALIAS_EXPANSION = 4 * 1024 * 1024;

/** What the aliases of the run's manifests have expanded to so far: one per run, across files. */
export class AliasBudget {
  #used = 0;
  constructor(readonly limit: number = MAX_ALIAS_EXPANSION) {}

  get exhausted(): boolean {
    return this.#used > this.limit;
  }

  /** Adds one alias's expansion; false when that takes the run over the limit. */
  spend(size: number): boolean {
    this.#used += size;
    return !this.exhausted;
  }
}

export interface AliasProblem {
  message: string;
  offset: number;
}

/**
 * The first problem with the aliases of `doc`, in document order, or undefined: an alias whose
 * anchor is missing (it would load as nothing), one that lies inside the value it names (a
 * value without end), or the alias that takes the run's aliases past the budget. Each alias
 * counts the JSON size of all it expands to, aliases inside it included.
 */
export function aliasProblem(doc: Document.Parsed, budget: AliasBudget): AliasProblem | undefined {
  const { visit, isAlias } = yamlLibrary();
  const sizes = new JsonSizes(doc);
  let found: AliasProblem | undefined;
  visit(doc, {
    Alias(_, alias) {
      const offset = alias.range?.[0] ?? 0;
      const target = alias.resolve(doc);
      if (target === undefined || isAlias(target)) {
        found = { message: `YAML: unknown alias "*${alias.source}" (the anchor must be defined before it)`, offset };
      } else if (budget.exhausted) {
        found = { message: `YAML: alias "*${alias.source}" not expanded: the manifests' aliases already expand to more than ${budgetText(budget)}`, offset };
      } else {
        const size = sizes.of(target);
        if (size === CYCLE) found = { message: `YAML: alias "*${alias.source}" lies inside the value it repeats (it would never end)`, offset };
        else if (!budget.spend(size)) {
          found = {
            message: `YAML: alias "*${alias.source}" takes what the manifests' aliases expand to past ${budgetText(budget)} (each use counts the size of the value it repeats)`,
            offset,
          };
        }
      }
      return found ? visit.BREAK : undefined;
    },
  });
  return found;
}

function budgetText(budget: AliasBudget): string {
  return `${budget.limit.toLocaleString('en-US')} characters`;
}

const CYCLE = -1;

/**
 * The size of each node as JSON, aliases expanded, memoised (a value aliased many times is
 * measured once: exponential nesting costs linear time). Iterative: a document nested as deep
 * as the parser allows must not run out of stack here.
 */
class JsonSizes {
  readonly #doc: Document.Parsed;
  readonly #known = new Map<Node, number>();

  constructor(doc: Document.Parsed) {
    this.#doc = doc;
  }

  /** CYCLE when the node contains an alias of itself or of a node around it. */
  of(root: Node): number {
    const open = new Set<Node>();
    const stack: Array<{ node: Node; childrenPushed: boolean }> = [{ node: root, childrenPushed: false }];
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const { node } = top;
      if (this.#known.has(node)) {
        stack.pop();
        continue;
      }
      const children = this.#children(node);
      if (!top.childrenPushed) {
        if (open.has(node)) return CYCLE;
        open.add(node);
        top.childrenPushed = true;
        for (const child of children) if (!this.#known.has(child)) stack.push({ node: child, childrenPushed: false });
        continue;
      }
      stack.pop();
      open.delete(node);
      const sum = children.reduce((total, c) => total + (this.#known.get(c) ?? 0), 0);
      this.#known.set(node, this.#sizeFromChildren(node, sum));
    }
    return this.#known.get(root) ?? 0;
  }

  /**
   * A node's size as JSON.stringify would write it, from its children's (`sum`, all known):
   * brackets, a `:` per entry and a `,` between entries, keys as strings, `null` for no value.
   */
  #sizeFromChildren(node: Node, sum: number): number {
    const { isAlias, isMap, isNode, isScalar, isSeq } = yamlLibrary();
    if (isScalar(node)) return (JSON.stringify(node.value) ?? 'null').length;
    if (isAlias(node)) return sum;
    const separators = 2 + Math.max(0, node.items.length - 1);
    if (isSeq(node)) return sum + separators;
    if (!isMap(node)) return sum;
    let size = sum + separators + node.items.length;
    for (const pair of node.items) {
      // A key is written as a string: `1` as `"1"`; no value as `null`.
      if (isScalar(pair.key) && typeof pair.key.value !== 'string') size += stringSize(pair.key.value) - (this.#known.get(pair.key) ?? 0);
      if (!isNode(pair.key)) size += stringSize(pair.key);
      if (!isNode(pair.value)) size += 4;
    }
    return size;
  }

  /** The nodes a node's JSON is made of: an alias's target, a map's keys and values, a list's items. */
  #children(node: Node): Node[] {
    const { isAlias, isCollection, isNode, isPair } = yamlLibrary();
    if (isAlias(node)) {
      const target = node.resolve(this.#doc);
      return target === undefined ? [] : [target];
    }
    if (!isCollection(node)) return [];
    const out: Node[] = [];
    for (const item of node.items as unknown[]) {
      if (isPair(item)) {
        if (isNode(item.key)) out.push(item.key);
        if (isNode(item.value)) out.push(item.value);
      } else if (isNode(item)) out.push(item);
    }
    return out;
  }
}

/** A scalar key as JSON writes it: a string (`1` as `"1"`, no key as `""`). */
function stringSize(value: unknown): number {
  const text = typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint' ? String(value) : typeof value === 'string' ? value : '';
  return JSON.stringify(text).length;
}
