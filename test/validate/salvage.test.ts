import { Ajv } from 'ajv';
import { describe, expect, test } from 'vitest';
import { refusedBySchema, withoutRefused } from '../../src/validate/salvage.js';

const schema = {
  type: 'object',
  required: ['name'],
  additionalProperties: false,
  properties: {
    name: { type: 'string' },
    config: { type: 'object', additionalProperties: false, properties: { ttl: { type: 'string' }, url: { type: 'string' } } },
    tags: { type: 'array', items: { type: 'string' } },
  },
};

function refused(value: unknown): ReturnType<typeof refusedBySchema> {
  const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
  expect(validate(value)).toBe(false);
  return refusedBySchema(validate.errors ?? []);
}

describe('withoutRefused', () => {
  test('takes out unknown fields and values of the wrong form, keeps the rest, changes nothing given', () => {
    const value = { name: 'ops', colour: 'blue', config: { ttl: 5, url: 'ldap://x', extra: 1 } };
    const frozen = structuredClone(value);
    const salvaged = withoutRefused(value, refused(value));
    expect(salvaged?.data).toEqual({ name: 'ops', config: { url: 'ldap://x' } });
    expect([...(salvaged?.refusedFields ?? [])].sort()).toEqual(['colour', 'config']);
    expect(value).toEqual(frozen);
  });

  test('a missing required field refuses nothing', () => {
    const value = { config: { url: 'ldap://x' } };
    expect(withoutRefused(value, refused(value))).toEqual({ data: value, refusedFields: new Set() });
  });

  test('an item of a list takes the whole list out (the items after it keep their places)', () => {
    const value = { name: 'ops', tags: ['a', 5, 'c'] };
    expect(withoutRefused(value, refused(value))?.data).toEqual({ name: 'ops' });
  });

  test('a failed reference (a path with a number) and a path that leaves the value', () => {
    const value = { name: 'ops', tags: ['a', undefined], config: { url: 'x' } };
    expect(withoutRefused(value, [['tags', 1], ['config', 'url', 'deeper'], ['gone', 'x']])?.data).toEqual({ name: 'ops', config: {} });
  });

  test('nothing is left of a document refused at its root, or that is not a mapping', () => {
    expect(withoutRefused({ name: 'x' }, [[]])).toBeUndefined();
    expect(withoutRefused(['x'], [])).toBeUndefined();
    expect(withoutRefused('x', [])).toBeUndefined();
  });

  test('a key named __proto__ stays a key', () => {
    const value = JSON.parse('{"name":"ops","__proto__":{"a":1},"colour":1}') as Record<string, unknown>;
    const data = withoutRefused(value, [['colour']])!.data;
    expect(Object.keys(data)).toEqual(['name', '__proto__']);
    expect(Object.getPrototypeOf(data)).toBe(Object.prototype);
  });
});
