/** The provBkeyvault key configuration, validated. */
import { FieldReader, RSA_KEY_BITS } from '../config.js';
import { KeyBackendError } from '../errors.js';
import { readPolicy, type KeyPolicy } from '../policy.js';
import type { AzureKeyVaultKeyConfig } from '../types.js';

export interface AzureSettings {
  tenantId: string;
  /** Both absent: managed identity. */
  clientId?: string;
  clientSecret?: string;
  vaultUrl: string;
  keyName: string;
  keyBits?: number;
  /** The environment's token endpoint host. */
  authorityHost: string;
  policy: KeyPolicy;
}

/** The spec's provBkeyvault `key_type` values (compared case-insensitively). */
export const AZURE_KEY_TYPES = ['RSA-HSM'] as const;

/** The spec's environment names (the provider's cloud names, renamed as the spec renames them). */
export const AZURE_ENVIRONMENTS = ['PROVBPUBLICCLOUD', 'PROVBCHINACLOUD', 'PROVBUSGOVERNMENTCLOUD', 'PROVBGERMANCLOUD'] as const;
type AzureEnvironment = (typeof AZURE_ENVIRONMENTS)[number];

const ENVIRONMENTS: Readonly<Record<AzureEnvironment, { vaultSuffix: string; authorityHost: string }>> = {
  PROVBPUBLICCLOUD: { vaultSuffix: 'vault.azure.net', authorityHost: 'https://login.microsoftonline.com' },
  PROVBCHINACLOUD: { vaultSuffix: 'vault.azure.cn', authorityHost: 'https://login.chinacloudapi.cn' },
  PROVBUSGOVERNMENTCLOUD: { vaultSuffix: 'vault.usgovcloudapi.net', authorityHost: 'https://login.microsoftonline.us' },
  PROVBGERMANCLOUD: { vaultSuffix: 'vault.microsoftazure.de', authorityHost: 'https://login.microsoftonline.de' },
};

function isAzureEnvironment(text: string): text is AzureEnvironment {
  return (AZURE_ENVIRONMENTS as readonly string[]).includes(text);
}

export function readAzureSettings(config: AzureKeyVaultKeyConfig): AzureSettings {
  const r = new FieldReader('provBkeyvault', config);
  const keyType = r.required('key_type');
  if (!(AZURE_KEY_TYPES as readonly string[]).includes(keyType.toUpperCase())) {
    throw new KeyBackendError('config', 'provBkeyvault', 'key_type must be RSA-HSM (the only supported value)');
  }
  const envName = (r.str('environment') ?? 'PROVBPUBLICCLOUD').toUpperCase();
  const env = isAzureEnvironment(envName) ? ENVIRONMENTS[envName] : undefined;
  if (!env) throw new KeyBackendError('config', 'provBkeyvault', `environment must be one of ${AZURE_ENVIRONMENTS.join(', ')}`);
  const clientId = r.str('client_id');
  const clientSecret = r.secret('client_secret');
  if ((clientId === undefined) !== (clientSecret === undefined)) {
    throw new KeyBackendError('config', 'provBkeyvault', 'client_id and client_secret must be given together (or both left out for a managed identity)');
  }
  const vaultName = r.required('vault_name');
  if (!/^[a-zA-Z0-9-]+$/.test(vaultName)) throw new KeyBackendError('config', 'provBkeyvault', 'vault_name may only contain letters, digits and hyphens');
  const resource = (r.str('resource') ?? env.vaultSuffix).replace(/^https?:\/\//, '').replace(/^\.+|\/+$/g, '');
  if (!/^[a-zA-Z0-9.-]+(:\d+)?$/.test(resource)) throw new KeyBackendError('config', 'provBkeyvault', 'resource must be a DNS suffix, optionally with a port');
  const policy = readPolicy('provBkeyvault', config);
  const keyBits = r.oneOf('key_bits', RSA_KEY_BITS);
  if (policy.allowGenerate && keyBits === undefined) {
    throw new KeyBackendError('config', 'provBkeyvault', 'key_bits is required when allow_generate_key is true');
  }
  return {
    tenantId: r.required('tenant_id'),
    clientId,
    clientSecret,
    vaultUrl: `https://${vaultName}.${resource}`,
    keyName: r.required('key_name'),
    keyBits,
    authorityHost: env.authorityHost,
    policy,
  };
}
