/**
 * `test/sign`: builds the key's backend through the adapters and signs random data with it,
 * verifying the signature with the key's public key (the adapters do both, and generate the
 * key first when allowed and absent). Any failure is a 400 carrying the backend's reason,
 * redacted of the key's secrets.
 */
import { firstLine, redact } from '../../adapters/kms/errors.js';
import { createKeyBackend, parseTestSignRequest, secretValues } from '../../adapters/kms/signer.js';
import type { AnyKeyConfig, KeyBackendOptions, TestSignOptions } from '../../adapters/kms/types.js';
import { ApiError, badRequest } from '../http/reply.js';
import type { JsonObject } from '../util/json.js';
import type { StoredManagedKey } from './key-store.js';

export async function testSign(key: StoredManagedKey, body: JsonObject, options: KeyBackendOptions): Promise<void> {
  const secrets = secretValues(key.config);
  try {
    const request: TestSignOptions = parseTestSignRequest(key.type, body);
    const config = backendConfig(key, options.kmsLibraries ?? {});
    await createKeyBackend(key.type, config as never, options).testSign(request);
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw badRequest(redact(firstLine(err), secrets));
  }
}

/**
 * The stored configuration as the adapter takes it. `library` stays the stanza name (names
 * hold no "/", see options.ts), which the adapter resolves through options.kmsLibraries.
 */
function backendConfig(key: StoredManagedKey, libraries: Record<string, string>): AnyKeyConfig {
  if (key.type === 'pkcs11') {
    const library = typeof key.config.library === 'string' ? key.config.library : '';
    if (libraries[library] === undefined) throw badRequest(`library "${library}" is not a kms_library stanza of the server`);
  }
  return key.config as unknown as AnyKeyConfig;
}
