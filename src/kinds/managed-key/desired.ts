import type { DesiredResource, DesiredState, ManagedCollection } from '../../core/resource.js';
import type { ResolvedDocument } from '../../load/document.js';
import type { KindContext } from '../kind.js';
import { writeOnlyValues } from '../write-only.js';
import { collectionAddress, keyAddress, scopeKey, type KeyScope } from './addresses.js';
import { isUnset, keyAttrs } from './attrs.js';
import { comparedFieldsOf, secretFieldsOf } from './fields.js';
import { asManagedKeyDocuments, KEY_TYPES, MANAGED_KEY, type KeyType, type ManagedKeyDocument, type VerifyValue } from './types.js';
import { parseBoolText } from './values.js';

/** The test/sign request made after each write of a key with `verify`. */
interface VerifyRequest {
  hash_algorithm?: string;
  use_pss?: boolean;
}

/**
 * A desired managed key. Beyond the generic fields it carries what apply needs and the plan
 * cannot hold: the backend type and the test/sign request (`verify`), which are manifest
 * choices, not server state, so they are never compared.
 */
export interface DesiredManagedKey extends DesiredResource {
  keyType: KeyType;
  name: string;
  /** The compared fields the manifest sets; the others are sent empty (the server's default applies). */
  given: string[];
  verify?: VerifyRequest;
}

export function isDesiredManagedKey(r: DesiredResource | undefined): r is DesiredManagedKey {
  return r !== undefined && r.resourceType === MANAGED_KEY && typeof (r as Partial<DesiredManagedKey>).keyType === 'string';
}

/** Why every delete of a managed key is destructive. */
export const KEY_DELETE_LOSES = 'deleting a managed key orphans whatever it signed or encrypted; needs --allow-destructive';

/**
 * The desired keys of all ManagedKey documents (valid, placed), and per cluster + namespace
 * that holds any, the four per-type collections, read in full and pruned with `--prune`.
 * (A ManagedKey document is one key, so pruning is a command-line choice, not a field.)
 */
export function desiredManagedKeys(docs: ReadonlyArray<ResolvedDocument>, ctx: KindContext): DesiredState {
  const keys = asManagedKeyDocuments(docs);
  const scopes = new Map<string, KeyScope>();
  for (const doc of keys) scopes.set(scopeKey(doc.data), { cluster: doc.data.cluster, namespace: doc.data.namespace });
  const collections: ManagedCollection[] = [...scopes.values()].flatMap((scope) =>
    KEY_TYPES.map((type) => ({ address: collectionAddress(scope, type), memberType: MANAGED_KEY, prune: ctx.prune, deleteLoses: KEY_DELETE_LOSES })),
  );
  return { resources: keys.map(desiredKey), collections };
}

function desiredKey(doc: ManagedKeyDocument): DesiredManagedKey {
  const { type, name, config, verify, managedElsewhere } = doc.data;
  const writeOnly = writeOnlyValues(config, secretFieldsOf(type).map((f) => f.name), managedElsewhere);
  return {
    address: keyAddress(doc.data, type, name),
    resourceType: MANAGED_KEY,
    attrs: keyAttrs(type, config),
    writeOnly,
    sensitiveFields: secretFieldsOf(type).map((f) => f.name).sort(),
    dependsOn: [],
    keyType: type,
    name,
    given: comparedFieldsOf(type).filter((f) => !isUnset(config[f.name])).map((f) => f.name),
    verify: verifyRequest(verify),
  };
}

/** `verify` as the test/sign body; undefined when the key is not to be verified. */
function verifyRequest(verify: VerifyValue | undefined): VerifyRequest | undefined {
  if (verify === undefined || verify === false) return undefined;
  if (verify === true) return {};
  const request: VerifyRequest = {};
  if (verify.hash_algorithm !== undefined) request.hash_algorithm = verify.hash_algorithm;
  const pss = parseBoolText(verify.use_pss);
  if (pss !== undefined) request.use_pss = pss;
  return request;
}
