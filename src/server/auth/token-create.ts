import type { ApiRequest } from '../http/api-request.js';
import { badRequest, unknownMembers, withIgnoredWarning, type Reply } from '../http/reply.js';
import { readDurationNanos } from '../../values/index.js';
import { toBool, toInt, toKvPairs, toStr, toStringSlice } from '../util/fields.js';
import { normalisePolicies } from '../util/lists.js';
import { PolicyStore } from '../policies/policy-store.js';
import { authBlock } from './auth-block.js';
import type { TokenType } from './token-store.js';
import { calculateTokenTtl } from './token-ttl.js';

/**
 * auth/token/create as hashicorp/vault vault/token_store.go handleCreateCommon does it, for
 * the fields clients use. The framework first converts the typed fields (num_uses, renewable,
 * no_default_policy, no_parent, meta as TypeKVPairs, policies as TypeStringSlice: a text is one
 * policy, not split); ttl, explicit_max_ttl and period are texts the handler parses itself, so
 * their refusals are parseutil's bare words and "... must be positive".
 */
const CREATE_FIELDS = [
  'display_name', 'explicit_max_ttl', 'entity_alias', 'num_uses', 'period', 'renewable', 'ttl', 'lease',
  'type', 'no_default_policy', 'id', 'meta', 'no_parent', 'policies',
];

export async function createToken({ cluster, caller, body }: ApiRequest): Promise<Reply> {
  // FieldData.Validate: every typed field converts before the handler runs.
  const numUses = body.num_uses === undefined ? 0 : toInt('num_uses', body.num_uses);
  const renewableAsked = body.renewable === undefined ? true : toBool('renewable', body.renewable);
  const noDefault = body.no_default_policy === undefined ? false : toBool('no_default_policy', body.no_default_policy);
  const orphan = body.no_parent === undefined ? false : toBool('no_parent', body.no_parent);
  const meta = body.meta === undefined ? undefined : toKvPairs('meta', body.meta);
  const asked = body.policies === undefined ? [] : toStringSlice('policies', body.policies);
  const text = (field: string): string => (body[field] === undefined ? '' : toStr(field, body[field]));
  const [typeText, explicitMaxTtlText, periodText, ttlText, displayName] = ['type', 'explicit_max_ttl', 'period', 'ttl', 'display_name'].map(text) as [string, string, string, string, string];

  const type = tokenType(typeText);
  if (numUses < 0) throw badRequest('number of uses cannot be negative');
  // No policies asked for: the parent's (policyutil.SanitizePolicies without adding default).
  let policies = normalisePolicies(asked.length === 0 ? caller!.entry.policies : asked);
  if (!noDefault && !policies.includes('root') && !policies.includes('default')) policies = normalisePolicies([...policies, 'default']);
  const explicitMaxTtl = durationField('explicit_max_ttl', explicitMaxTtlText);
  const period = durationField('period', periodText);
  const requested = durationField('ttl', ttlText);

  const neverExpires = policies.includes('root') && requested === 0 && period === 0 && explicitMaxTtl === 0;
  const { ttl, warnings } = neverExpires ? { ttl: 0, warnings: [] } : calculateTokenTtl({ ttl: requested, maxTtl: 0, explicitMaxTtl, period });
  const { token, entry } = await cluster.tokens.create({
    policies,
    displayName: displayName === '' ? 'token' : `token-${displayName}`,
    path: 'auth/token/create',
    namespace: cluster.namespace,
    meta,
    ttl,
    explicitMaxTtl,
    period,
    numUses,
    type,
    orphan,
    renewable: renewableAsked && ttl > 0,
  });
  // The handler's last step: a warning for each policy the namespace's policy store does not have
  // (policy_store.go GetPolicy: `root` always there, `default` until deleted, which it never is).
  const policyStore = new PolicyStore(cluster.store, cluster.namespace);
  const missing = entry.policies.filter((p) => p !== 'root' && policyStore.text(p) === undefined).map((p) => `Policy ${JSON.stringify(p)} does not exist`);
  const reply: Reply = { kind: 'auth', auth: authBlock(token, entry, ttl), warnings: [...warnings, ...missing] };
  return withIgnoredWarning(reply, unknownMembers(body, CREATE_FIELDS));
}

function tokenType(text: string): TokenType {
  switch (text) {
    case '':
    case 'service':
      return 'service';
    case 'batch':
      return 'batch';
    default:
      throw badRequest("invalid 'token_type' value");
  }
}

/** A duration the handler parses (parseutil.ParseDurationSecond): its error as is; below zero refused. */
function durationField(field: string, text: string): number {
  if (text === '') return 0;
  const read = readDurationNanos(text);
  if (read.kind === 'refused') throw badRequest(read.reason);
  if (read.value < 0n) throw badRequest(`${field} must be positive`);
  return Number(read.value / 1_000_000_000n);
}
