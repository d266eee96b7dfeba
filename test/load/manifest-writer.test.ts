import { describe, expect, it } from 'vitest';
import { EnvReference, manifestText, withUniqueEnvNames } from '../../src/load/manifest-writer.js';

describe('withUniqueEnvNames', () => {
  it('keeps the first use of a name and numbers the later ones past every name already taken', () => {
    const docs = [
      { a: new EnvReference('X'), b: [new EnvReference('X'), new EnvReference('X_2')] },
      { c: { d: new EnvReference('X') } },
    ];
    const { documents, renamed } = withUniqueEnvNames(docs);
    expect(manifestText(documents)).toBe('a: ${env:X}\nb:\n  - ${env:X_3}\n  - ${env:X_2}\n---\nc:\n  d: ${env:X_4}\n');
    expect(renamed).toEqual([
      { from: 'X', to: 'X_3' },
      { from: 'X', to: 'X_4' },
    ]);
    // Inputs are not mutated.
    expect((docs[0]!.b as EnvReference[])[0]!.name).toBe('X');
  });

  it('leaves documents without collisions as they are, keys named __proto__ included', () => {
    const doc = JSON.parse('{"__proto__": {"p": 1}, "e": 2}') as Record<string, unknown>;
    const { documents, renamed } = withUniqueEnvNames([doc]);
    expect(renamed).toEqual([]);
    expect(Object.keys(documents[0] as object)).toEqual(['__proto__', 'e']);
  });
});
