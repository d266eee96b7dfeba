import { CAPABILITY_BIT, capabilityNames, type Capability } from './capabilities.js';
import type { AclPolicy, PathRule } from './parse.js';
import { numberLiteral } from '../read.js';

/**
 * Allow or deny as vault/acl.go decides: NewACL merges the rules of every policy a token holds
 * (same path: capabilities united, a deny on either side wins and clears the rest), then
 * AllowOperation looks for an exact rule, then (for a list, without its trailing slash first)
 * the non-exact rules: the longest prefix glob, and with `+` segment rules among them the
 * priority order of CheckAllowedFromNonExactPaths.
 */

export type Operation = 'create' | 'read' | 'update' | 'patch' | 'delete' | 'list' | 'help' | 'revoke' | 'renew' | 'rollback';

export interface NamedPolicy {
  name: string;
  policy: AclPolicy;
}

interface Permissions {
  bits: number;
  minWrappingTtl: number;
  maxWrappingTtl: number;
  allowedParameters: Map<string, unknown[]> | undefined;
  deniedParameters: Map<string, unknown[]> | undefined;
  requiredParameters: string[];
}

export interface Acl {
  readonly root: boolean;
  readonly exact: ReadonlyMap<string, Permissions>;
  /** Prefix rules, longest first, so the first that matches is the longest prefix. */
  readonly prefixes: readonly (readonly [string, Permissions])[];
  readonly segmentWildcards: ReadonlyMap<string, Permissions>;
}

/** A token's ACL from its policies; the policy named `root` makes it the root ACL (acl.go NewACL). */
export function buildAcl(policies: readonly NamedPolicy[]): Acl {
  const exact = new Map<string, Permissions>();
  const prefixes = new Map<string, Permissions>();
  const segmentWildcards = new Map<string, Permissions>();
  let root = false;
  for (const { name, policy } of policies) {
    if (name === 'root') root = true;
    for (const rule of policy.rules) {
      // Without an identity to fill it, a templated path is skipped (acl.go's templating `continue`).
      if (rule.templated) continue;
      const table = rule.hasSegmentWildcards ? segmentWildcards : rule.isPrefix ? prefixes : exact;
      const existing = table.get(rule.path);
      table.set(rule.path, existing === undefined ? permissionsOf(rule) : merged(existing, rule));
    }
  }
  const longestFirst = [...prefixes].sort(([a], [b]) => b.length - a.length);
  return { root, exact, prefixes: longestFirst, segmentWildcards };
}

function permissionsOf(rule: PathRule): Permissions {
  return {
    bits: rule.bits,
    minWrappingTtl: rule.minWrappingTtl,
    maxWrappingTtl: rule.maxWrappingTtl,
    allowedParameters: rule.allowedParameters && new Map(rule.allowedParameters as Map<string, unknown[]>),
    deniedParameters: rule.deniedParameters && new Map(rule.deniedParameters as Map<string, unknown[]>),
    requiredParameters: [...rule.requiredParameters],
  };
}

/** acl.go NewACL's merge of a second rule for the same path into the first (a new value, inputs kept). */
function merged(existing: Permissions, rule: PathRule): Permissions {
  if ((existing.bits & CAPABILITY_BIT.deny) !== 0) return existing;
  if ((rule.bits & CAPABILITY_BIT.deny) !== 0) {
    return { ...existing, bits: CAPABILITY_BIT.deny, allowedParameters: undefined, deniedParameters: undefined };
  }
  const lesser = (a: number, b: number): number => (b > 0 && (a === 0 || b < a) ? b : a);
  return {
    bits: existing.bits | rule.bits,
    maxWrappingTtl: lesser(existing.maxWrappingTtl, rule.maxWrappingTtl),
    minWrappingTtl: lesser(existing.minWrappingTtl, rule.minWrappingTtl),
    allowedParameters: mergedParameters(existing.allowedParameters, rule.allowedParameters),
    deniedParameters: mergedParameters(existing.deniedParameters, rule.deniedParameters),
    requiredParameters: [...existing.requiredParameters, ...rule.requiredParameters.filter((p) => !existing.requiredParameters.includes(p))],
  };
}

/** Same key in both: the values appended, and an empty list (any value) wins. */
function mergedParameters(
  existing: Map<string, unknown[]> | undefined,
  added: ReadonlyMap<string, readonly unknown[]> | undefined,
): Map<string, unknown[]> | undefined {
  if (added === undefined || added.size === 0) return existing;
  if (existing === undefined) return new Map([...added].map(([k, v]) => [k, [...v]]));
  const result = new Map(existing);
  for (const [key, values] of added) {
    const before = result.get(key);
    result.set(key, values.length === 0 || (before !== undefined && before.length === 0) ? [] : [...values, ...(before ?? [])]);
  }
  return result;
}

export interface AclRequest {
  /** The full path: namespace path first, no leading slash needed. */
  path: string;
  operation: Operation;
  /** The request's fields, for the parameter constraints (read, create, update, patch); absent: not checked. */
  data?: Readonly<Record<string, unknown>>;
  /** The response-wrapping TTL asked for, in seconds, if any. */
  wrapTtl?: number;
}

export interface AclDecision {
  allowed: boolean;
  /** The matching rule grants sudo (or the ACL is root): what root-protected paths require. */
  rootPrivs: boolean;
  isRoot: boolean;
}

const OPERATION_CAPABILITY: Readonly<Record<Exclude<Operation, 'help'>, Capability>> = {
  read: 'read',
  list: 'list',
  update: 'update',
  delete: 'delete',
  create: 'create',
  patch: 'patch',
  // acl.go: revoke, renew and rollback use update.
  revoke: 'update',
  renew: 'update',
  rollback: 'update',
};

/** acl.go AllowOperation. */
export function allowOperation(acl: Acl, request: AclRequest): AclDecision {
  if (acl.root) return { allowed: true, rootPrivs: true, isRoot: true };
  if (request.operation === 'help') return { allowed: true, rootPrivs: false, isRoot: false };
  const path = request.path.replace(/^\/+/, '');
  const permissions = matchingPermissions(acl, path, request.operation === 'list');
  if (permissions === undefined) return { allowed: false, rootPrivs: false, isRoot: false };
  const rootPrivs = (permissions.bits & CAPABILITY_BIT.sudo) !== 0;
  const allowed = operationAllowed(permissions, request);
  return { allowed, rootPrivs, isRoot: false };
}

/** acl.go Capabilities: what sys/capabilities answers for a path. */
export function capabilitiesOf(acl: Acl, path: string): string[] {
  if (acl.root) return ['root'];
  const permissions = matchingPermissions(acl, path.replace(/^\/+/, ''), true);
  return capabilityNames(permissions?.bits ?? 0);
}

function matchingPermissions(acl: Acl, path: string, isList: boolean): Permissions | undefined {
  const exact = acl.exact.get(path) ?? (isList ? acl.exact.get(path.replace(/\/$/, '')) : undefined);
  if (exact !== undefined) return exact;
  if (isList && path.endsWith('/')) {
    const withoutSlash = nonExactPermissions(acl, path.slice(0, -1));
    if (withoutSlash !== undefined) return withoutSlash;
  }
  return nonExactPermissions(acl, path);
}

interface Candidate {
  firstWildcardOrGlob: number;
  wildcards: number;
  isPrefix: boolean;
  pattern: string;
  permissions: Permissions;
}

/** acl.go CheckAllowedFromNonExactPaths (bareMount false). */
function nonExactPermissions(acl: Acl, path: string): Permissions | undefined {
  const candidates: Candidate[] = [];
  const prefix = acl.prefixes.find(([p]) => path.startsWith(p));
  if (prefix !== undefined) {
    if (acl.segmentWildcards.size === 0) return prefix[1];
    candidates.push({ firstWildcardOrGlob: prefix[0].length, wildcards: 0, isPrefix: true, pattern: prefix[0], permissions: prefix[1] });
  }
  const parts = path.split('/');
  for (const [full, permissions] of acl.segmentWildcards) {
    if (full === '') continue;
    const isPrefix = full.endsWith('*');
    const pattern = isPrefix ? full.slice(0, -1) : full;
    const patternParts = pattern.split('/');
    if (parts.length < patternParts.length) continue;
    if (!isPrefix && patternParts.length !== parts.length) continue;
    let wildcards = 0;
    const matches = patternParts.every((part, i) => {
      if (part === '+') {
        wildcards++;
        return true;
      }
      if (part === parts[i]) return true;
      return isPrefix && i === patternParts.length - 1 && parts[i]!.startsWith(part);
    });
    if (matches) candidates.push({ firstWildcardOrGlob: full.indexOf('+'), wildcards, isPrefix, pattern, permissions });
  }
  if (candidates.length === 0) return undefined;
  candidates.sort(byPriority);
  return candidates[candidates.length - 1]!.permissions;
}

/** acl.go's `less`: the later in this order wins. */
function byPriority(a: Candidate, b: Candidate): number {
  if (a.firstWildcardOrGlob !== b.firstWildcardOrGlob) return a.firstWildcardOrGlob - b.firstWildcardOrGlob;
  if (a.isPrefix !== b.isPrefix) return a.isPrefix ? -1 : 1;
  if (a.wildcards !== b.wildcards) return b.wildcards - a.wildcards;
  if (a.pattern.length !== b.pattern.length) return a.pattern.length - b.pattern.length;
  return a.pattern < b.pattern ? -1 : a.pattern > b.pattern ? 1 : 0;
}

function operationAllowed(permissions: Permissions, request: AclRequest): boolean {
  const { operation } = request;
  if (operation === 'help') return true;
  if ((permissions.bits & CAPABILITY_BIT[OPERATION_CAPABILITY[operation]]) === 0) return false;
  if (permissions.maxWrappingTtl > 0 && (request.wrapTtl === undefined || request.wrapTtl > permissions.maxWrappingTtl)) return false;
  if (permissions.minWrappingTtl > 0 && (request.wrapTtl === undefined || request.wrapTtl < permissions.minWrappingTtl)) return false;
  if (permissions.minWrappingTtl !== 0 && permissions.maxWrappingTtl !== 0 && permissions.maxWrappingTtl < permissions.minWrappingTtl) return false;
  const checksParameters = operation === 'read' || operation === 'update' || operation === 'create' || operation === 'patch';
  return checksParameters && request.data !== undefined ? parametersAllowed(permissions, request.data) : true;
}

function parametersAllowed(permissions: Permissions, data: Readonly<Record<string, unknown>>): boolean {
  const given = new Set(Object.keys(data).map((k) => k.toLowerCase()));
  // acl.go looks required parameters up lower-cased in the data as sent.
  if (!permissions.requiredParameters.every((p) => Object.hasOwn(data, p.toLowerCase()))) return false;
  if (given.size === 0) return true;
  const denied = permissions.deniedParameters;
  if (denied !== undefined && denied.size > 0) {
    if (denied.has('*')) return false;
    for (const [name, value] of Object.entries(data)) {
      const list = denied.get(name.toLowerCase());
      if (list !== undefined && inDeniedList(value, list)) return false;
    }
  }
  const allowed = permissions.allowedParameters;
  if (allowed === undefined || allowed.size === 0) return true;
  const allowedAll = allowed.has('*');
  if (allowed.size === 1 && allowedAll) return true;
  for (const [name, value] of Object.entries(data)) {
    const list = allowed.get(name.toLowerCase());
    if (list === undefined && !allowedAll) return false;
    if (list !== undefined && !inAllowedList(value, list)) return false;
  }
  return true;
}

/** acl.go valueInAllowedParameterList: a list or comma text is allowed when every item is. */
function inAllowedList(value: unknown, list: readonly unknown[]): boolean {
  if (list.length === 0 || inList(value, list)) return true;
  const items = itemsOf(value);
  return items !== undefined && items.every((item) => inList(item, list));
}

/** acl.go valueInDeniedParameterList: a list or comma text is denied when any item is. */
function inDeniedList(value: unknown, list: readonly unknown[]): boolean {
  if (list.length === 0 || inList(value, list)) return true;
  const items = itemsOf(value);
  return items !== undefined && items.some((item) => inList(item, list));
}

function itemsOf(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value as unknown[];
  if (typeof value === 'string') return value === '' ? [] : value.split(',').map((s) => s.trim());
  return undefined;
}

/**
 * acl.go valueInParameterList: strings by strutil.GlobbedStringsMatch, the rest by DeepEqual.
 * A JSON number reaches the service as json.Number, equal to nothing a policy holds.
 */
function inList(value: unknown, list: readonly unknown[]): boolean {
  return list.some((element) => {
    if (element === null || value === null) return element === value;
    if (typeof element === 'string') return typeof value === 'string' && globbedMatch(element, value);
    if (numberLiteral(value) !== undefined) return false;
    return deepEqual(element, value);
  });
}

/** strutil.GlobbedStringsMatch: a `*` at the start and/or end of the pattern. */
function globbedMatch(pattern: string, value: string): boolean {
  if (pattern.length < 2) return pattern === value;
  const head = pattern.startsWith('*');
  const tail = pattern.endsWith('*');
  if (head && tail) return value.includes(pattern.slice(1, -1));
  if (head) return value.endsWith(pattern.slice(1));
  if (tail) return value.startsWith(pattern.slice(0, -1));
  return pattern === value;
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}
