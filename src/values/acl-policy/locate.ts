/**
 * Where in the policy text a problem is. hcl v1 reports positions for syntax errors only; the
 * decoded document has none, so a rule's problem is placed at its key as written: the n-th
 * quoted occurrence of that key for the n-th rule with it, and a value inside the rule at its
 * first quoted occurrence after the key. A search for text the decoder gave back, not a parse.
 */
export interface Position {
  line: number;
  column: number;
}

export class PolicyText {
  private readonly lineStarts: number[] = [0];
  private readonly seen = new Map<string, number>();

  constructor(private readonly text: string) {
    for (let i = 0; i < text.length; i++) if (text[i] === '\n') this.lineStarts.push(i + 1);
  }

  positionOf(offset: number): Position {
    let line = 0;
    while (line + 1 < this.lineStarts.length && this.lineStarts[line + 1]! <= offset) line++;
    return { line: line + 1, column: offset - this.lineStarts[line]! + 1 };
  }

  /** The offset of the next rule keyed `key` (each call moves past the one before). */
  nextRuleKey(key: string): number {
    const from = this.seen.get(key) ?? 0;
    const at = this.findQuoted(key, from);
    const found = at ?? this.findBare(key, from) ?? 0;
    this.seen.set(key, found + 1);
    return found;
  }

  /** The offset of `word` (quoted, else bare) at or after `from`, or `from` when absent. */
  valueAfter(word: string, from: number): number {
    return this.findQuoted(word, from) ?? this.findBare(word, from) ?? from;
  }

  private findQuoted(word: string, from: number): number | undefined {
    const at = this.text.indexOf(JSON.stringify(word), from);
    return at < 0 ? undefined : at;
  }

  private findBare(word: string, from: number): number | undefined {
    if (word === '') return undefined;
    const pattern = new RegExp(`(?<![\\w-])${escapeRegExp(word)}(?![\\w-])`, 'g');
    pattern.lastIndex = from;
    const match = pattern.exec(this.text);
    return match ? match.index : undefined;
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
