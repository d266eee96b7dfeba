import { describe, expect, it } from 'vitest';
import { mountTable, record, shapeProblems } from '../../src/core/json-shape.js';
import { checkLiveAnswer, LiveShapeError } from '../../src/core/live-shape.js';

const CONFIG = record({ url: 'text', starttls: 'bool', token_ttl: 'integer', token_policies: 'texts', groups: 'text-or-texts', slot: 'integer-or-digits', mechanism: 'integer-or-hex' }, ['url']);
const SOURCE = { cluster: 'east', method: 'GET', path: 'auth/ldap/config' } as const;

describe('live answer shapes', () => {
  it('#13.9: the forms the service answers in fit', () => {
    expect(
      shapeProblems({ url: 'ldap://a', starttls: false, token_ttl: 3600, token_policies: ['Dev'], groups: 'a,b', slot: 1, mechanism: 4161 }, CONFIG),
    ).toEqual([]);
    // Go's nil slice, lists for comma fields, digits and hex as text, fields a newer release adds.
    expect(shapeProblems({ url: '', token_policies: null, groups: ['a'], slot: '2305843009213693953', mechanism: '0x1041', added: { x: [1] } }, CONFIG)).toEqual([]);
  });

  it('#13.9: every wrong field is named with what it is, never with its value', () => {
    const problems = shapeProblems({ url: ['a'], starttls: 'true', token_ttl: 'abc', token_policies: ['a', 1], groups: 5, slot: 'x', mechanism: 'CKM' }, CONFIG);
    expect(problems).toEqual([
      { field: 'url', problem: 'is a list, expected a string' },
      { field: 'starttls', problem: 'is a string, expected true or false' },
      { field: 'token_ttl', problem: 'is a string, expected an integer' },
      { field: 'token_policies[1]', problem: 'is a number, expected a string' },
      { field: 'groups', problem: 'is a number, expected a string or a list of strings' },
      { field: 'slot', problem: 'is a string, expected an integer' },
      { field: 'mechanism', problem: 'is a string, expected an integer or 0x hexadecimal text' },
    ]);
  });

  it('#13.9: numbers that are not integers held exactly are named for what they are', () => {
    const at = (token_ttl: number) => shapeProblems({ url: 'x', token_ttl }, CONFIG)[0]?.problem;
    expect(at(Infinity)).toBe('is not a finite number, expected an integer');
    expect(at(NaN)).toBe('is not a finite number, expected an integer');
    expect(at(1.5)).toBe('is a fraction, expected an integer');
    // A sign is a value, not a shape: the normaliser shows a negative count as drift.
    expect(at(-1)).toBeUndefined();
    expect(at(2 ** 60)).toBe('is a number too large to hold exactly, expected an integer');
  });

  it('#13.9: a missing required field, null where a value belongs, and an answer that is no object', () => {
    expect(shapeProblems({ starttls: null }, CONFIG)).toEqual([
      { field: 'url', problem: 'is missing' },
      { field: 'starttls', problem: 'is null, expected true or false' },
    ]);
    expect(shapeProblems(null, CONFIG)).toEqual([{ field: '(the answer)', problem: 'is null, expected an object' }]);
    expect(shapeProblems([], CONFIG)).toEqual([{ field: '(the answer)', problem: 'is a list, expected an object' }]);
  });

  it('#13.9: mount tables check each `path/` entry and leave other keys alone', () => {
    const table = mountTable(record({ type: 'text', config: record({ allowed_managed_keys: 'text-or-texts' }) }, ['type']));
    expect(shapeProblems({ 'ldap/': { type: 'ldap', config: {} }, request_id: 7 }, table)).toEqual([]);
    expect(shapeProblems({ 'ldap/': { config: { allowed_managed_keys: [1] } }, 'x/': 'y' }, table)).toEqual([
      { field: 'ldap/.type', problem: 'is missing' },
      { field: 'ldap/.config.allowed_managed_keys[0]', problem: 'is a number, expected a string' },
      { field: 'x/', problem: 'is a string, expected an object' },
    ]);
  });

  it('#13.9: the error names cluster, method, path and fields, lists at most five, and holds no value', () => {
    const secret = 'canary-secret-0c1d';
    const bad = { url: [secret], starttls: secret.length, token_ttl: secret, token_policies: secret, groups: {}, slot: [], mechanism: true };
    let error: unknown;
    try {
      checkLiveAnswer(SOURCE, bad, CONFIG);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(LiveShapeError);
    const message = (error as Error).message;
    expect(message).toMatch(/^east: GET auth\/ldap\/config: field "url" is a list, expected a string; field "starttls" is a number/);
    expect(message).toContain('; and 2 more');
    expect(message).not.toContain(secret);
    expect(checkLiveAnswer(SOURCE, { url: 'ok' }, CONFIG)).toEqual({ url: 'ok' });
  });

  it('#13.9: a field name from the server is quoted so control characters cannot reach a terminal', () => {
    const table = mountTable(record({ type: 'text' }));
    expect(() => checkLiveAnswer(SOURCE, { '\u001b[31m/': { type: 1 } }, table)).toThrow('field "\\u001b[31m/.type" is a number');
  });
});
