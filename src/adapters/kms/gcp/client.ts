/**
 * The Cloud KMS client. With KeyBackendOptions.gcp.endpoint (`http://127.0.0.1:PORT`) the
 * client speaks REST (`fallback: true`) to that endpoint; otherwise the SDK's defaults apply.
 * A service-account credentials file is read here so that its private key joins the secrets
 * every message is redacted of.
 */
import { readFile } from 'node:fs/promises';
import { KeyManagementServiceClient } from '@google-cloud/kms';
import { KeyBackendError } from '../errors.js';
import type { KeyBackendOptions } from '../types.js';
import type { GcpSettings } from './settings.js';

type ClientOptions = NonNullable<ConstructorParameters<typeof KeyManagementServiceClient>[0]>;

export async function gcpClient(s: GcpSettings, options: KeyBackendOptions, secrets: Set<string>): Promise<KeyManagementServiceClient> {
  const opts: ClientOptions = { ...(await credentialOptions(s, secrets)) };
  const endpoint = options.gcp?.endpoint;
  if (endpoint) {
    let url: URL;
    try {
      url = new URL(endpoint);
    } catch {
      throw new KeyBackendError('config', 'provCckms', `the KMS endpoint override ${JSON.stringify(endpoint)} is not a URL`);
    }
    const protocol = url.protocol.replace(':', '');
    Object.assign(opts, {
      fallback: true,
      apiEndpoint: url.hostname,
      port: Number(url.port || (protocol === 'https' ? 443 : 80)),
      protocol,
    });
  }
  return new KeyManagementServiceClient(opts);
}

async function credentialOptions(s: GcpSettings, secrets: Set<string>): Promise<ClientOptions> {
  if (!s.credentials) return {};
  let text: string;
  if ('json' in s.credentials) {
    text = s.credentials.json;
  } else {
    try {
      text = await readFile(s.credentials.path, 'utf8');
    } catch (err) {
      // The error text would repeat the path; its code says enough.
      const code = (err as NodeJS.ErrnoException).code ?? 'error';
      throw new KeyBackendError('auth', 'provCckms', `the credentials file cannot be read (${code})`);
    }
  }
  secrets.add(text.trim());
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new KeyBackendError('auth', 'provCckms', 'the credentials are not valid JSON');
  }
  if (typeof parsed.private_key === 'string') {
    secrets.add(parsed.private_key);
    // Also the key's base64 body alone, in case an error quotes part of the PEM.
    for (const line of parsed.private_key.split('\n')) if (line.length >= 40) secrets.add(line);
  }
  if (parsed.type === 'service_account' && typeof parsed.client_email === 'string' && typeof parsed.private_key === 'string') {
    return { credentials: { client_email: parsed.client_email, private_key: parsed.private_key } };
  }
  // Other credential types (authorized_user, external_account, ...): let the SDK read them.
  return 'path' in s.credentials ? { keyFilename: s.credentials.path } : { credentials: parsed as ClientOptions['credentials'] };
}
