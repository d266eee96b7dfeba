import { isAbsolute } from 'node:path';
import type { Diagnostics } from '../../core/diagnostics.js';
import { needsTrailingSlash } from '../../adapters/storage/naming.js';
import { isStorageType, type StorageType } from './fields.js';
import { isGiven, reportAt, textOf } from './report.js';
import type { SnapshotPolicyDocument } from './types.js';
import { boolOf } from '../../values/index.js';

/** Rules between the fields of one configuration, by storage type. */
export function checkStorageRules(doc: SnapshotPolicyDocument, diags: Diagnostics): void {
  const config = doc.data.config;
  checkFilePrefix(doc, config, diags);
  const type = config['storage_type'];
  if (!isStorageType(type)) return;
  checkPathPrefix(doc, config, type, diags);
  switch (type) {
    case 'local':
      return;
    case 'provA-s3':
      checkS3(doc, config, diags);
      checkEndpoint(doc, config, 'provA_s3_endpoint', 'provA_s3_disable_tls', diags);
      return;
    case 'provB-blob':
      checkBlobEnvironment(doc, config, diags);
      checkEndpoint(doc, config, 'provB_endpoint', undefined, diags);
      return;
    case 'provC-gcs':
      checkServiceAccountKey(doc, config, diags);
      checkEndpoint(doc, config, 'provC_endpoint', 'provC_disable_tls', diags);
      return;
  }
}

/** Types provB-blob and provC-gcs need a trailing `/`; a local directory should be absolute. */
function checkPathPrefix(doc: SnapshotPolicyDocument, config: Record<string, unknown>, type: StorageType, diags: Diagnostics): void {
  const prefix = config['path_prefix'];
  if (typeof prefix !== 'string' || prefix === '') return;
  if (needsTrailingSlash(type) && !prefix.endsWith('/')) {
    reportAt(diags, doc, ['config', 'path_prefix'], `must end with "/" for storage_type ${type} (write "${prefix}/")`);
  }
  if (type === 'local' && !isAbsolute(prefix)) {
    reportAt(diags, doc, ['config', 'path_prefix'], "is a relative directory: the server resolves it against its own working directory", 'warning');
  }
}

/** Snapshot names are `<path_prefix>/<file_prefix>-<time>.snap`: a `/` would nest them out of retention's sight. */
function checkFilePrefix(doc: SnapshotPolicyDocument, config: Record<string, unknown>, diags: Diagnostics): void {
  const prefix = config['file_prefix'];
  if (typeof prefix !== 'string') return;
  if (prefix === '') reportAt(diags, doc, ['config', 'file_prefix'], 'must not be empty (leave it out for the default vault-snapshot)');
  else if (prefix.includes('/')) reportAt(diags, doc, ['config', 'file_prefix'], 'must not contain "/" (directories belong in path_prefix)');
}

function checkS3(doc: SnapshotPolicyDocument, config: Record<string, unknown>, diags: Diagnostics): void {
  const kms = boolOf(config['provA_s3_enable_kms']) === true;
  if (kms && boolOf(config['provA_s3_server_side_encryption']) === true) {
    reportAt(diags, doc, ['config', 'provA_s3_server_side_encryption'], 'cannot be combined with provA_s3_enable_kms (choose AES256 or KMS encryption)');
  }
  if (isGiven(config['provA_s3_kms_key']) && !kms) {
    reportAt(diags, doc, ['config', 'provA_s3_kms_key'], 'is used only with provA_s3_enable_kms: true');
  }
  const keyId = isGiven(config['provA_access_key_id']);
  const secret = isGiven(config['provA_secret_access_key']);
  if (keyId && !secret) reportAt(diags, doc, ['config', 'provA_access_key_id'], 'requires provA_secret_access_key (or leave both out to use the provider\'s own authentication)');
  if (secret && !keyId) reportAt(diags, doc, ['config', 'provA_secret_access_key'], 'requires provA_access_key_id');
  if (isGiven(config['provA_session_token']) && !(keyId && secret)) {
    reportAt(diags, doc, ['config', 'provA_session_token'], 'requires provA_access_key_id and provA_secret_access_key');
  }
}

/** The key must be JSON (an object); the message never quotes it. */
function checkServiceAccountKey(doc: SnapshotPolicyDocument, config: Record<string, unknown>, diags: Diagnostics): void {
  const key = textOf(config['provC_service_account_key']);
  if (key === '') return;
  let parsed: unknown;
  try {
    parsed = JSON.parse(key);
  } catch {
    reportAt(diags, doc, ['config', 'provC_service_account_key'], 'is not valid JSON (a service account key file in JSON)');
    return;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    reportAt(diags, doc, ['config', 'provC_service_account_key'], 'must be a JSON object (a service account key file)');
    return;
  }
  const fields = parsed as Record<string, unknown>;
  const isServiceAccount = (fields['type'] ?? 'service_account') === 'service_account';
  if (isServiceAccount && (typeof fields['client_email'] !== 'string' || typeof fields['private_key'] !== 'string')) {
    reportAt(diags, doc, ['config', 'provC_service_account_key'], 'is a service account key without client_email or private_key');
  }
}

/** The provider's cloud environments (the storage DNS suffix follows from it). */
const BLOB_ENVIRONMENTS = ['PROVBPUBLICCLOUD', 'PROVBUSGOVERNMENTCLOUD', 'PROVBCHINACLOUD', 'PROVBGERMANCLOUD'] as const;
const BLOB_ENVIRONMENT_ALIASES = ['AZUREPUBLICCLOUD', 'AZUREUSGOVERNMENTCLOUD', 'AZURECHINACLOUD', 'AZUREGERMANCLOUD'];

function checkBlobEnvironment(doc: SnapshotPolicyDocument, config: Record<string, unknown>, diags: Diagnostics): void {
  const env = config['provB_blob_environment'];
  if (typeof env !== 'string' || env === '') return;
  const known = [...BLOB_ENVIRONMENTS, ...BLOB_ENVIRONMENT_ALIASES];
  if (!known.includes(env.trim().toUpperCase())) {
    reportAt(diags, doc, ['config', 'provB_blob_environment'], `must be one of ${BLOB_ENVIRONMENTS.join(', ')}`);
  }
}

/** An endpoint is `host[:port]` or an http(s) URL; the TLS switch only means something with one. */
function checkEndpoint(
  doc: SnapshotPolicyDocument,
  config: Record<string, unknown>,
  field: string,
  disableTlsField: string | undefined,
  diags: Diagnostics,
): void {
  const endpoint = config[field];
  if (typeof endpoint === 'string' && endpoint !== '') {
    const problem = endpointProblem(endpoint);
    if (problem) reportAt(diags, doc, ['config', field], problem);
  }
  if (disableTlsField && boolOf(config[disableTlsField]) === true && !isGiven(endpoint)) {
    reportAt(diags, doc, ['config', disableTlsField], `has no effect without ${field} (it is for testing against a non-native implementation)`, 'warning');
  }
}

function endpointProblem(endpoint: string): string | undefined {
  const message = 'must be an http:// or https:// URL or a host[:port]';
  if (/\s/.test(endpoint)) return message;
  const hasScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(endpoint);
  let url: URL;
  try {
    url = new URL(hasScheme ? endpoint : `https://${endpoint}`);
  } catch {
    return message;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return message;
  if (url.username !== '' || url.password !== '') return 'must not contain credentials';
  return undefined;
}
