import type { Address } from '../../core/address.js';
import { isApiError } from '../../client/errors.js';
import type { ClusterClient } from '../../client/types.js';
import { jsonText, type JsonValue } from '../../core/json.js';
import { assertNever, type Change } from '../../core/plan.js';
import type { DesiredResource } from '../../core/resource.js';
import type { ApplyContext } from '../kind.js';
import { fieldsOf } from './fields.js';
import { isDesiredManagedKey, type DesiredManagedKey } from './desired.js';
import { innerSecretTexts, scrubbingErrors } from './scrub.js';

/**
 * Carries out one managed-key change: a whole-object write (idempotent, so the client may
 * retry it), then with `verify` a test/sign whose failure fails the change with the server's
 * reason; or a delete.
 */
export async function applyManagedKeyChange(change: Change, desired: DesiredResource | undefined, { client }: ApplyContext): Promise<void> {
  // The change's own segments, encoded by the client: never text split again.
  const path = change.address;
  switch (change.action) {
    case 'create':
    case 'update': {
      if (!isDesiredManagedKey(desired)) throw new Error(`${change.address}: no desired managed key to write`);
      await scrubbingErrors(innerSecretTexts(desired), async () => {
        await client.write(path, requestBody(desired), { idempotent: true });
        if (desired.verify) await testSign(client, path, desired);
      });
      return;
    }
    case 'delete':
      await client.delete(path);
      return;
    case 'transition':
      throw new Error(`${change.address}: managed keys have no transitions`);
    default:
      assertNever(change.action);
  }
}

/**
 * Every field of the key's type: the ones the manifest sets in the form the spec gives them
 * (booleans as text, usages as a comma string), secrets as given (revealed only when the client
 * serialises the body) or '' when the manifest does not set them, and every other field as '',
 * which unsets it on the server. So a field removed from the manifest is cleared, and fields
 * with a fallback in the server's environment (region, credentials) use it. A secret named in
 * `managedElsewhere` is left out: the server keeps what it holds.
 */
export function requestBody(desired: DesiredManagedKey): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const spec of fieldsOf(desired.keyType)) {
    if (spec.secret) {
      const value = desired.writeOnly[spec.name];
      if (value !== undefined) body[spec.name] = value;
    } else body[spec.name] = desired.given.includes(spec.name) ? sendForm(desired.attrs[spec.name] ?? '') : '';
  }
  return body;
}

function sendForm(value: JsonValue): JsonValue {
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.map(jsonText).join(',');
  return value;
}

async function testSign(client: ClusterClient, path: Address, desired: DesiredManagedKey): Promise<void> {
  try {
    await client.write(path.child('test', 'sign'), desired.verify ?? {});
  } catch (err) {
    if (!isApiError(err)) throw err;
    const reason = err.errors.length > 0 ? err.errors.join('; ') : err.message;
    throw new Error(
      `verify: the key was written but cannot sign: ${reason}. Fix the configuration and apply again ` +
        '(with --sync-secrets when only a secret such as the pin changed, since secrets are not compared)',
    );
  }
}
