import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Address } from '../../src/core/address.js';
import { ABSENT, fingerprint } from '../../src/core/fingerprint.js';
import { canonicalJson, copyJson, jsonEqual, jsonText } from '../../src/core/json.js';
import { Secret } from '../../src/core/secret.js';

describe('canonicalJson and jsonEqual', () => {
  it('sorts object keys at every depth, so key order never matters', () => {
    expect(canonicalJson({ b: 1, a: { d: [{ z: 1, y: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[{"y":2,"z":1}]},"b":1}');
    expect(jsonEqual({ a: 1, b: { c: 2, d: 3 } }, { b: { d: 3, c: 2 }, a: 1 })).toBe(true);
  });

  it('keeps array order: normalising lists is the kinds’ job, not the comparison’s', () => {
    expect(jsonEqual(['a', 'b'], ['b', 'a'])).toBe(false);
  });

  it('tells types apart (3600 is not "3600", true is not "true", null is not absent)', () => {
    expect(jsonEqual(3600, '3600')).toBe(false);
    expect(jsonEqual(true, 'true')).toBe(false);
    expect(jsonEqual({ a: null }, {})).toBe(false);
    expect(jsonEqual(null, undefined)).toBe(false);
  });

  it('treats an absent field and an undefined one alike (JSON has no undefined)', () => {
    expect(jsonEqual({ a: 1, b: undefined }, { a: 1 })).toBe(true);
  });

  it('serialises objects with toJSON through it (Address as its string, Secret redacted)', () => {
    expect(canonicalJson({ at: new Address('east', 'auth/ldap') })).toBe('{"at":"east:auth/ldap"}');
    expect(canonicalJson({ pw: new Secret('hunter2', 'env:PW') })).toBe('{"pw":"(sensitive)"}');
  });
});

describe('jsonEqual compares in place exactly as the canonical texts compare', () => {
  // Values near one another, so that equal pairs are frequent: shared keys, shuffled order.
  const leaf = fc.oneof(fc.constantFrom('a', 'b', '', 'A', 0, -0, 1, 1.5, true, false, null, undefined, NaN));
  const value = fc.letrec((tie) => ({
    any: fc.oneof({ depthSize: 'small' }, leaf, tie('list'), tie('object')),
    list: fc.array(tie('any'), { maxLength: 3 }),
    object: fc.dictionary(fc.constantFrom('x', 'y', 'z'), tie('any'), { maxKeys: 3 }),
  })).any;

  it('on random pairs of values', () => {
    fc.assert(
      fc.property(value, value, (a, b) => {
        expect(jsonEqual(a, b)).toBe(canonicalJson(a) === canonicalJson(b));
        expect(jsonEqual(a, a)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('on a value and its copy with keys in another order', () => {
    fc.assert(
      fc.property(value, (a) => {
        const reordered = JSON.parse(JSON.stringify(a ?? null, (_k, v) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).reverse()) : v)));
        expect(jsonEqual(a ?? null, reordered)).toBe(canonicalJson(a ?? null) === canonicalJson(reordered));
      }),
      { numRuns: 1000 },
    );
  });

  it('through objects with toJSON, as their JSON', () => {
    expect(jsonEqual({ at: new Address('east', 'a/b') }, { at: 'east:a/b' })).toBe(true);
    expect(jsonEqual([new Secret('x', 'env:X')], ['(sensitive)'])).toBe(true);
  });

  it('copyJson copies deeply and shares nothing', () => {
    const original = { a: [1, { b: ['c'] }], d: null, e: 'f' };
    const copied = copyJson(original);
    expect(copied).toEqual(original);
    (copied.a[1] as { b: string[] }).b.push('g');
    expect(original.a[1]).toEqual({ b: ['c'] });
  });
});

describe('fingerprint', () => {
  it('is 32 hex characters, stable and independent of key order', () => {
    const f = fingerprint({ policies: ['admin'], name: 'admins' });
    expect(f).toMatch(/^[0-9a-f]{32}$/);
    expect(fingerprint({ name: 'admins', policies: ['admin'] })).toBe(f);
  });

  it('changes when any value changes', () => {
    expect(fingerprint({ policies: ['admin'] })).not.toBe(fingerprint({ policies: ['admin', 'dev'] }));
    expect(fingerprint({ ttl: 3600 })).not.toBe(fingerprint({ ttl: '3600' }));
  });

  it('never equals the marker of an absent object', () => {
    expect(fingerprint(null)).not.toBe(ABSENT);
    expect(fingerprint({})).not.toBe(ABSENT);
  });
});

describe('jsonText', () => {
  it('shows text as it is and anything else as compact JSON, never "[object Object]"', () => {
    expect(jsonText('stream-wals')).toBe('stream-wals');
    expect(jsonText(42)).toBe('42');
    expect(jsonText(false)).toBe('false');
    expect(jsonText(null)).toBe('null');
    expect(jsonText(undefined)).toBe('undefined');
    expect(jsonText({ state: 'idle' })).toBe('{"state":"idle"}');
    expect(jsonText(['a', 1])).toBe('["a",1]');
  });
});
