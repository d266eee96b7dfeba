/**
 * Credential and clients for Key Vault.
 *
 * When needed, one https.Agent carries lockstep's two extras to every request (token endpoint
 * and vault): extra trusted CAs, and RFC 6761 loopback resolution of `*.localhost`, so a vault
 * URL like `https://myvault.vault.localhost:8443` (resource `vault.localhost:8443`) reaches a
 * local endpoint without any DNS set-up. Otherwise the SDK's own transport is left alone (it
 * honours proxy settings, which a custom agent would bypass); NODE_EXTRA_CA_CERTS works then.
 */
import { lookup as dnsLookup } from 'node:dns';
import { Agent } from 'node:https';
import type { LookupFunction } from 'node:net';
import { rootCertificates } from 'node:tls';
import { ClientSecretCredential, ManagedIdentityCredential, type TokenCredential } from '@azure/identity';
import { CryptographyClient, KeyClient, type KeyVaultKey } from '@azure/keyvault-keys';
import type { KeyBackendOptions } from '../types.js';
import type { AzureSettings } from './settings.js';

export const loopbackLookup: LookupFunction = (hostname, options, callback) => {
  if (hostname === 'localhost' || hostname.endsWith('.localhost')) {
    if (options.all) (callback as unknown as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [{ address: '127.0.0.1', family: 4 }]);
    else callback(null, '127.0.0.1', 4);
    return;
  }
  dnsLookup(hostname, options, callback);
};

export interface AzureClients {
  credential: TokenCredential;
  keys: KeyClient;
  crypto(key: KeyVaultKey): CryptographyClient;
  close(): void;
}

function isLoopbackName(url: string): boolean {
  const host = new URL(url).hostname;
  return host === 'localhost' || host.endsWith('.localhost');
}

export function azureClients(s: AzureSettings, options: KeyBackendOptions): AzureClients {
  const extraCas = options.azure?.caCerts ?? [];
  const override = options.azure?.authorityHost;
  const needsAgent = extraCas.length > 0 || isLoopbackName(s.vaultUrl) || (override !== undefined && isLoopbackName(override));
  const agent = needsAgent
    ? new Agent({ keepAlive: true, lookup: loopbackLookup, ...(extraCas.length > 0 ? { ca: [...rootCertificates, ...extraCas] } : {}) })
    : undefined;
  // test/sign is interactive: one retry, not the SDK's default three with backoff.
  const pipeline = { ...(agent ? { agent } : {}), retryOptions: { maxRetries: 1, retryDelayInMs: 200 } };
  const credential: TokenCredential =
    s.clientId && s.clientSecret
      ? new ClientSecretCredential(s.tenantId, s.clientId, s.clientSecret, {
          ...pipeline,
          authorityHost: override ?? s.authorityHost,
          // A non-public authority (a test endpoint) has no instance metadata to discover.
          disableInstanceDiscovery: override !== undefined,
        })
      : new ManagedIdentityCredential(pipeline);
  return {
    credential,
    keys: new KeyClient(s.vaultUrl, credential, pipeline),
    crypto: (key) => new CryptographyClient(key, credential, pipeline),
    close: () => agent?.destroy(),
  };
}
