import { jsonEqual, type JsonObject, type JsonValue } from '../../core/json.js';
import { assertNever } from '../../core/plan.js';
import { LDAP_FIELD_SPECS, type LdapFieldSpec } from './schema-fields.js';
import { boolOf, countOf, integerOf, durationSeconds, readKvPairs, valueOf } from '../../values/index.js';
import { normaliseCidrs, normaliseTokenPolicies } from './values.js';

const COMPARED_SPECS = LDAP_FIELD_SPECS.filter((f) => !f.writeOnly);

/**
 * One config value in the server's read form. Accepts manifest forms (`1h`, `"true"`, comma
 * strings) and live forms alike; a value that fits no form is kept as it is (as JSON), so a
 * surprising live value shows up in a diff instead of vanishing.
 */
export function normaliseConfigValue(spec: LdapFieldSpec, value: unknown): JsonValue {
  switch (spec.type) {
    case 'string':
      if (typeof value !== 'string') return asJson(value);
      if (spec.emptyIsDefault && value === '') return spec.default;
      return spec.lowerCase ? value.toLowerCase() : value;
    case 'bool':
      return boolOf(value) ?? asJson(value);
    case 'duration':
      return durationSeconds(value) ?? asJson(value);
    case 'count':
      return countOf(value) ?? asJson(value);
    case 'integer':
      return integerOf(value) ?? asJson(value);
    case 'list':
      return spec.items === 'tokenPolicies' ? normaliseTokenPolicies(value) : normaliseCidrs(value);
    case 'enum':
      // token_type: the service reads an unset type back as "default" (the mount's default);
      // rotation_schema reads '' before the first write. Both mean the default, so compare so.
      return spec.emptyIsDefault && value === '' ? spec.default : asJson(value);
    case 'map':
      return textMapOf(value) ?? asJson(value);
    default:
      return assertNever(spec);
  }
}

function asJson(value: unknown): JsonValue {
  if (value === undefined) return null;
  return JSON.parse(JSON.stringify(value)) as JsonValue;
}

/** A map of text as the service stores it (TypeKVPairs: values/kv-pairs.ts); undefined when refused. */
export function textMapOf(value: unknown): Record<string, string> | undefined {
  return valueOf(readKvPairs(value));
}

function defaultOf(spec: LdapFieldSpec): JsonValue {
  if (spec.type === 'list') return [...spec.default];
  if (spec.type === 'map') return { ...spec.default };
  return spec.default;
}

/**
 * The comparable config (every field but the write-only ones, and but those the server's
 * release lacks) with the spec's defaults.
 */
export function ldapConfigDefaults(lacking: ReadonlySet<string> = new Set()): JsonObject {
  return withoutMirroredPolicies(Object.fromEntries(COMPARED_SPECS.filter((s) => !lacking.has(s.name)).map((spec) => [spec.name, defaultOf(spec)])));
}

/**
 * The comparable config attrs of a set of values (manifest or live): every compared field,
 * absent (or null) ones at their default, all in read form. `policies` is the deprecated alias
 * of token_policies: given alone it is folded into token_policies. The attr `policies` is kept
 * only when it differs from token_policies (a live answer out of step): a plan then shows one
 * line for a change of token_policies, not two.
 */
function configAttrs(values: Readonly<Record<string, unknown>>, policiesFollowTokenPolicies: boolean, lacking: ReadonlySet<string>): JsonObject {
  const attrs: JsonObject = {};
  for (const spec of COMPARED_SPECS) {
    if (lacking.has(spec.name)) continue;
    const value = values[spec.name];
    attrs[spec.name] = value === undefined || value === null ? defaultOf(spec) : normaliseConfigValue(spec, value);
  }
  const hasPolicies = values.policies !== undefined && values.policies !== null;
  const hasTokenPolicies = values.token_policies !== undefined && values.token_policies !== null;
  if (hasPolicies && !hasTokenPolicies) attrs.token_policies = attrs.policies!;
  if (policiesFollowTokenPolicies || !hasPolicies) attrs.policies = attrs.token_policies!;
  return withoutMirroredPolicies(attrs);
}

function withoutMirroredPolicies(attrs: JsonObject): JsonObject {
  if (jsonEqual(attrs.policies ?? null, attrs.token_policies ?? null)) delete attrs.policies;
  return attrs;
}

/** Desired `ldap.config` attrs from a manifest's `config` block. */
export function desiredConfigAttrs(config: Readonly<Record<string, unknown>>): JsonObject {
  return configAttrs(config, true, new Set());
}

/**
 * A live `GET auth/<mount>/config` answer in the same form as the desired attrs: only the
 * compared fields (the server may return more), same value forms, defaults for missing ones;
 * without the fields the server's release lacks (`lacking`: ldapFieldsLackedBy).
 */
export function normaliseLiveConfig(data: JsonObject, lacking: ReadonlySet<string> = new Set()): JsonObject {
  return configAttrs(data, false, lacking);
}
