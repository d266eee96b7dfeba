import jsyaml from 'js-yaml';

/**
 * The YAML 1.2 core schema (spec 10.3.2) for js-yaml: how a plain scalar resolves to null, a
 * boolean, an integer or a float; anything else, and every quoted or block scalar, is a string.
 * The careful parser (the `yaml` library) resolves scalars by the same table, so both parsers
 * give the same values; test/load/fast-parse.test.ts checks that they agree.
 *
 * js-yaml's own CORE_SCHEMA is not used: it also reads `0b101`, `1_000` and sexagesimal-style
 * forms that YAML 1.2 leaves as strings.
 */
const NULL = /^(?:~|null|Null|NULL)?$/;
const BOOL = /^(?:true|True|TRUE|false|False|FALSE)$/;
const INT = /^[-+]?[0-9]+$/;
const INT_OCTAL = /^0o[0-7]+$/;
const INT_HEX = /^0x[0-9a-fA-F]+$/;
const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/;
const INFINITY = /^[-+]?\.(?:inf|Inf|INF)$/;
const NAN = /^\.(?:nan|NaN|NAN)$/;

/**
 * The first characters each form can start with: most plain scalars of a manifest (keys, names)
 * start with none of them and are strings after one lookup per type, not a run of regexes
 * (four types, up to three regexes each, for every key and value of 10,000 users).
 */
const codes = (chars: string): ReadonlySet<number> => new Set([...chars].map((c) => c.charCodeAt(0)));
const MAY_BE_NULL = codes('~nN');
const MAY_BE_BOOL = codes('tTfF');
const MAY_BE_NUMBER = codes('+-.0123456789');

const nullType = new jsyaml.Type('tag:yaml.org,2002:null', {
  kind: 'scalar',
  resolve: (s: string) => (s === '' || MAY_BE_NULL.has(s.charCodeAt(0))) && NULL.test(s),
  construct: () => null,
  predicate: (v: unknown) => v === null,
});

const boolType = new jsyaml.Type('tag:yaml.org,2002:bool', {
  kind: 'scalar',
  resolve: (s: string) => MAY_BE_BOOL.has(s.charCodeAt(0)) && BOOL.test(s),
  construct: (s: string) => s[0] === 't' || s[0] === 'T',
  predicate: (v: unknown) => typeof v === 'boolean',
});

const intType = new jsyaml.Type('tag:yaml.org,2002:int', {
  kind: 'scalar',
  resolve: (s: string) => MAY_BE_NUMBER.has(s.charCodeAt(0)) && (INT.test(s) || INT_OCTAL.test(s) || INT_HEX.test(s)),
  construct: (s: string) => {
    if (INT_OCTAL.test(s)) return parseInt(s.slice(2), 8);
    if (INT_HEX.test(s)) return parseInt(s.slice(2), 16);
    return parseInt(s, 10);
  },
  predicate: (v: unknown) => typeof v === 'number' && Number.isInteger(v),
});

const floatType = new jsyaml.Type('tag:yaml.org,2002:float', {
  kind: 'scalar',
  resolve: (s: string) => MAY_BE_NUMBER.has(s.charCodeAt(0)) && (FLOAT.test(s) || INFINITY.test(s) || NAN.test(s)),
  construct: (s: string) => {
    if (NAN.test(s)) return NaN;
    if (INFINITY.test(s)) return s[0] === '-' ? -Infinity : Infinity;
    return parseFloat(s);
  },
  predicate: (v: unknown) => typeof v === 'number',
});

/** Integers before floats: `12` is an int, `12.0` a float (both are numbers in JavaScript). */
export const YAML_CORE_SCHEMA = jsyaml.FAILSAFE_SCHEMA.extend({ implicit: [nullType, boolType, intType, floatType] });
