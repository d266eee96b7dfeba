import { readDuration } from '../duration.js';
import { CAPABILITY_BIT, isCapability, LEGACY_POLICY, type Capability } from './capabilities.js';
import { decodeHclV1 } from './hcl-v1.js';
import { PolicyText, type Position } from './locate.js';

/**
 * ACL policy text read as vault/policy.go's ParseACLPolicy reads it: hcl v1, top-level keys
 * `name` and `path`, each path rule's keys, the legacy `policy` word, capabilities, parameter
 * constraints and wrapping TTLs. Every problem is reported (the service stops at the first), each
 * at its line and column in the policy text and in the service's wording; `serviceMessage` gives
 * the text the service answers a write of the policy with.
 */

/** One path rule, its path as the ACL matches it (namespace path first, leading `/` and glob `*` off). */
export interface PathRule {
  /** The rule's key as written. */
  key: string;
  path: string;
  isPrefix: boolean;
  hasSegmentWildcards: boolean;
  /** `{{...}}` identity templating: the service fills it per entity; a token without one never matches. */
  templated: boolean;
  capabilities: readonly Capability[];
  bits: number;
  /** Seconds; 0 when unset. */
  minWrappingTtl: number;
  maxWrappingTtl: number;
  allowedParameters: ReadonlyMap<string, readonly unknown[]> | undefined;
  deniedParameters: ReadonlyMap<string, readonly unknown[]> | undefined;
  requiredParameters: readonly string[];
  position: Position;
}

export interface AclPolicy {
  rules: readonly PathRule[];
}

/** The service's steps, in its order: it answers with the first step that failed. */
type Step = 'syntax' | 'top-keys' | 'rule-keys' | 'rule';

export interface PolicyError extends Position {
  /** The problem as the service words it, on one line (no "failed to parse policy" prefix). */
  message: string;
  step: Step;
  /** For rule-keys errors: the rule whose keys the service prefixes the error with. */
  ruleKey?: string;
}

export type PolicyParse = { kind: 'parsed'; policy: AclPolicy } | { kind: 'invalid'; errors: readonly PolicyError[] };

const TOP_KEYS = new Set(['name', 'path']);
const RULE_KEYS = new Set([
  'comment',
  'policy',
  'capabilities',
  'allowed_parameters',
  'denied_parameters',
  'required_parameters',
  'min_wrapping_ttl',
  'max_wrapping_ttl',
  'mfa_methods',
  'control_group',
  'subscribe_event_types',
]);

export interface ParseOptions {
  /** The namespace's path ("" for root, else ending in "/"); the service puts it before every rule's path. */
  namespacePath?: string;
}

export function parseAclPolicy(text: string, options: ParseOptions = {}): PolicyParse {
  const decoded = decodeHclV1(text);
  if (decoded.kind === 'syntax') return { kind: 'invalid', errors: [syntaxError(decoded.message)] };
  const where = new PolicyText(text);
  const errors: PolicyError[] = [];
  const top = objectOf(decoded.value);
  for (const key of Object.keys(top)) {
    if (TOP_KEYS.has(key)) continue;
    const at = where.positionOf(where.valueAfter(key, 0));
    errors.push({ ...at, step: 'top-keys', message: `invalid key ${goQuote(key)} on line ${at.line}` });
  }
  const rules: PathRule[] = [];
  for (const [key, body] of ruleEntries(top.path)) {
    const offset = where.nextRuleKey(key);
    const rule = readRule(key, body, options.namespacePath ?? '', { where, offset, errors });
    if (rule !== undefined) rules.push(rule);
  }
  return errors.length > 0 ? { kind: 'invalid', errors } : { kind: 'parsed', policy: { rules } };
}

/** What the service answers a write of this policy with: its first failing step, as it formats it. */
export function serviceMessage(errors: readonly PolicyError[]): string {
  const first = errors[0];
  if (first === undefined) return '';
  switch (first.step) {
    case 'syntax':
    case 'rule':
      return `failed to parse policy: ${first.message}`;
    case 'top-keys':
      return `failed to parse policy: ${multiError(errors.filter((e) => e.step === 'top-keys').map((e) => e.message))}`;
    case 'rule-keys': {
      const sameRule = errors.filter((e) => e.step === 'rule-keys' && e.ruleKey === first.ruleKey);
      return `failed to parse policy: ${multiError(sameRule.map((e) => e.message))}`;
    }
  }
}

/** go-multierror's default format. */
function multiError(messages: readonly string[]): string {
  const head = messages.length === 1 ? '1 error occurred:' : `${messages.length} errors occurred:`;
  return `${head}\n${messages.map((m) => `\t* ${m}`).join('\n')}\n\n`;
}

/** hcl v1 errors start "At line:column: "; the position goes to the fields, the text stays whole. */
function syntaxError(message: string): PolicyError {
  const at = /^At (\d+):(\d+): /.exec(message);
  return { line: at ? Number(at[1]) : 1, column: at ? Number(at[2]) : 1, step: 'syntax', message };
}

interface Context {
  where: PolicyText;
  offset: number;
  errors: PolicyError[];
}

function readRule(key: string, body: Record<string, unknown>, namespacePath: string, context: Context): PathRule | undefined {
  const { where, offset, errors } = context;
  const position = where.positionOf(offset);
  const before = errors.length;
  const fail = (message: string, at: Position = position): undefined => {
    errors.push({ ...at, step: 'rule', message });
    return undefined;
  };
  const valueAt = (word: string): Position => where.positionOf(where.valueAfter(word, offset));

  for (const name of Object.keys(body)) {
    if (RULE_KEYS.has(name)) continue;
    const at = valueAt(name);
    errors.push({ ...at, step: 'rule-keys', ruleKey: key, message: `path ${goQuote(key)}: invalid key ${goQuote(name)} on line ${at.line}` });
  }
  if (errors.length > before) return undefined;

  const written = stringList(body.capabilities);
  const legacy = body.policy;
  if (written === undefined) return fail(`path ${goQuote(key)}: capabilities: expected a list of strings`);
  if (legacy !== undefined && typeof legacy !== 'string') return fail(`path ${goQuote(key)}: policy: expected a string`);

  let path = key.startsWith('/') ? key.slice(1) : key;
  path = namespacePath + path;
  if (path.includes('+*')) return fail(`path ${goQuote(path)}: invalid use of wildcards ('+*' is forbidden)`);
  const hasSegmentWildcards = path === '+' || path.includes('/+') || path.startsWith('+/');
  let isPrefix = false;
  if (path.endsWith('*') && !hasSegmentWildcards) {
    path = path.slice(0, -1);
    isPrefix = true;
  }

  let capabilities: string[] = [...written];
  if (legacy !== undefined && legacy !== '') {
    const mapped = LEGACY_POLICY[legacy];
    if (mapped === undefined || !Object.hasOwn(LEGACY_POLICY, legacy)) return fail(`path ${goQuote(key)}: invalid policy ${goQuote(legacy)}`, valueAt(legacy));
    capabilities = legacy === 'deny' ? [...mapped] : [...capabilities, ...mapped];
  }

  const rule: PathRule = {
    key,
    path,
    isPrefix,
    hasSegmentWildcards,
    templated: key.includes('{{'),
    capabilities: [],
    bits: 0,
    minWrappingTtl: 0,
    maxWrappingTtl: 0,
    allowedParameters: undefined,
    deniedParameters: undefined,
    requiredParameters: [],
    position,
  };
  let bits = 0;
  const granted: Capability[] = [];
  for (const word of capabilities) {
    // policy.go: a deny ends the rule there: nothing after it is read, not even its checks.
    if (word === 'deny') return { ...rule, capabilities: ['deny'], bits: CAPABILITY_BIT.deny };
    if (!isCapability(word)) return fail(`path ${goQuote(key)}: invalid capability ${goQuote(word)}`, valueAt(word));
    bits |= CAPABILITY_BIT[word];
    if (!granted.includes(word)) granted.push(word);
  }

  const allowedParameters = parameterMap(body.allowed_parameters);
  const deniedParameters = parameterMap(body.denied_parameters);
  if (allowedParameters === null) return fail(`path ${goQuote(key)}: allowed_parameters: expected a map of lists`, valueAt('allowed_parameters'));
  if (deniedParameters === null) return fail(`path ${goQuote(key)}: denied_parameters: expected a map of lists`, valueAt('denied_parameters'));
  const minWrappingTtl = wrappingTtl(body.min_wrapping_ttl, 'min_wrapping_ttl', fail, valueAt);
  const maxWrappingTtl = wrappingTtl(body.max_wrapping_ttl, 'max_wrapping_ttl', fail, valueAt);
  if (minWrappingTtl === undefined || maxWrappingTtl === undefined) return undefined;
  if (minWrappingTtl !== 0 && maxWrappingTtl !== 0 && maxWrappingTtl < minWrappingTtl) {
    return fail('max_wrapping_ttl cannot be less than min_wrapping_ttl', valueAt('max_wrapping_ttl'));
  }
  const required = body.required_parameters === undefined ? [] : stringList(body.required_parameters);
  if (required === undefined) return fail(`path ${goQuote(key)}: required_parameters: expected a list of strings`, valueAt('required_parameters'));
  return {
    ...rule,
    capabilities: granted,
    bits,
    minWrappingTtl,
    maxWrappingTtl,
    allowedParameters,
    deniedParameters,
    requiredParameters: required,
  };
}

function wrappingTtl(
  input: unknown,
  field: string,
  fail: (message: string, at?: Position) => undefined,
  valueAt: (word: string) => Position,
): number | undefined {
  if (input === undefined) return 0;
  const read = readDuration(input);
  if (read.kind === 'value') return read.value.seconds;
  return fail(`error parsing ${field}: ${read.reason}`, valueAt(field));
}

/** hcl v1 decodes `path "a" { ... }` blocks as a list of one-key maps, in written order. */
function ruleEntries(input: unknown): [string, Record<string, unknown>][] {
  const entries: [string, Record<string, unknown>][] = [];
  for (const item of listOf(input)) {
    for (const [key, body] of Object.entries(objectOf(item))) entries.push([key, mergedBody(body)]);
  }
  return entries;
}

/** A block's body arrives as a list of maps (one per block); the service decodes them into one. */
function mergedBody(input: unknown): Record<string, unknown> {
  return Object.assign({}, ...listOf(input).map(objectOf)) as Record<string, unknown>;
}

/** `{ "x" = [] "y" = ["a"] }` arrives as [{x: [], y: ["a"]}]: keys lower-cased as policy.go does. */
function parameterMap(input: unknown): Map<string, unknown[]> | undefined | null {
  if (input === undefined) return undefined;
  const map = new Map<string, unknown[]>();
  for (const item of listOf(input)) {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) return null;
    for (const [name, values] of Object.entries(item)) {
      map.set(name.toLowerCase(), Array.isArray(values) ? [...(values as unknown[])] : [values]);
    }
  }
  return map;
}

function stringList(input: unknown): string[] | undefined {
  if (input === undefined) return [];
  if (!Array.isArray(input)) return undefined;
  return input.every((item): item is string => typeof item === 'string') ? [...input] : undefined;
}

function listOf(input: unknown): unknown[] {
  if (input === undefined || input === null) return [];
  return Array.isArray(input) ? input : [input];
}

function objectOf(input: unknown): Record<string, unknown> {
  return input !== null && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
}

/** Go's %q for the texts a policy holds (JSON's escaping agrees for them). */
function goQuote(text: string): string {
  return JSON.stringify(text);
}
