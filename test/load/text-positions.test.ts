import { describe, expect, test } from 'vitest';
import { Diagnostics } from '../../src/core/diagnostics.js';
import type { ValuePath } from '../../src/load/document.js';
import { parseManifest } from '../../src/load/parse.js';

/** The file position of line/column of the text at `path`, through both parsers' documents. */
function textPos(text: string, path: ValuePath, line: number, column: number): [number, number] | undefined {
  const diags = new Diagnostics();
  const [doc] = parseManifest(text, 'm.yaml', '/abs/m.yaml', diags);
  expect(diags.items).toEqual([]);
  const pos = doc!.textPos(path, line, column);
  return pos && [pos.line, pos.column];
}

/** The same text read by the careful parser: a `%YAML` directive makes the fast one decline. */
const careful = (text: string): string => `%YAML 1.2\n---\n${text}`;

describe('textPos: a position inside a text value as written in the file', () => {
  const literal = ['kind: AclPolicy', 'policy: |', '  path "a" {', '    capabilities = ["reed"]', '  }', 'name: x', ''].join('\n');

  test('a literal block scalar: the Nth line after the header, shifted by the block indentation (not by the line\'s own spaces)', () => {
    expect(textPos(literal, ['policy'], 1, 1)).toEqual([3, 3]);
    expect(textPos(literal, ['policy'], 2, 19)).toEqual([4, 21]);
    expect(textPos(careful(literal), ['policy'], 2, 19)).toEqual([6, 21]);
  });

  test('|- and |+ chomping, a header comment, leading empty lines, an indentation indicator, CRLF line ends', () => {
    expect(textPos('policy: |- # the text\n    a\n    bc\nname: x\n', ['policy'], 2, 2)).toEqual([3, 6]);
    expect(textPos('policy: |+\n  a\n\n  b\n\n', ['policy'], 3, 1)).toEqual([4, 3]);
    expect(textPos('policy: |\n\n\n   a\n', ['policy'], 3, 1)).toEqual([4, 4]);
    // An indicator: the value's first line starts with spaces of its own.
    expect(textPos(careful('policy: |2\n     a\n    b\n'), ['policy'], 1, 1)).toEqual([4, 3]);
    expect(textPos(careful('policy: |2\n     a\n    b\n'), ['policy'], 2, 3)).toEqual([5, 5]);
    expect(textPos('policy: |\r\n  ab\r\n  cd\r\n', ['policy'], 2, 2)).toEqual([3, 4]);
  });

  test('the end of a text that ends with a line break (a parser\'s "unexpected end") is the end of its last line, not the next field\'s', () => {
    const policy = 'policy: |\n  path "a" {\n  bogus\nname: x\n';
    // The value is 'path "a" {\nbogus\n': its line 3, column 1 is the end, after the last break.
    expect(textPos(policy, ['policy'], 3, 1)).toEqual([3, 8]);
    expect(textPos(careful(policy), ['policy'], 3, 1)).toEqual([5, 8]);
    expect(textPos('policy: |\n  a\n  bogus\n', ['policy'], 3, 1)).toEqual([3, 8]);
  });

  test('nested in a list or a map', () => {
    expect(textPos('docs:\n  - policy: |\n      x\n      yz\n', ['docs', 0, 'policy'], 2, 2)).toEqual([4, 8]);
  });

  test('a one-line plain or single-quoted text maps; a folded or double-quoted one does not', () => {
    expect(textPos('policy: path x\n', ['policy'], 1, 6)).toEqual([1, 14]);
    expect(textPos("policy: 'path x'\n", ['policy'], 1, 6)).toEqual([1, 15]);
    expect(textPos("policy: 'it''s x'\n", ['policy'], 1, 6)).toBeUndefined();
    expect(textPos('policy: "path\\tx"\n', ['policy'], 1, 6)).toBeUndefined();
    expect(textPos('policy: >\n  a\n  b\n', ['policy'], 1, 1)).toBeUndefined();
    expect(textPos('policy: 3\n', ['policy'], 1, 1)).toBeUndefined();
    expect(textPos('policy: |\n  a\n', ['policy'], 5, 1)).toBeUndefined();
  });
});
