import { createPrivateKey, X509Certificate } from 'node:crypto';
import { badRequest } from '../http/reply.js';
import { cidrText, readCidr, readKvPairs } from '../../values/index.js';
import { FieldError, toBool, toDurationSeconds, toInt, toList, toStr } from '../util/fields.js';
import type { JsonObject } from '../util/json.js';
import { trimmedList } from '../util/lists.js';
import { LDAP_WRITE_ONLY_FIELDS, type LdapConfig } from './config.js';
import { filterTemplateError } from './filter-template.js';

/** `tokenPolicies`: a comma-string slice, trimmed only (tokenutil ParseTokenFields keeps case, order, duplicates). */
type FieldKind = 'string' | 'lower' | 'bool' | 'duration' | 'int' | 'tokenPolicies' | 'cidrs' | 'tokenType' | 'kvPairs';

/** How each member of a config write is read; the ones not listed here are ignored (with a warning). */
const FIELD_KINDS: Record<keyof LdapConfig, FieldKind> = {
  url: 'lower',
  case_sensitive_names: 'bool',
  connection_timeout: 'duration',
  request_timeout: 'duration',
  starttls: 'bool',
  tls_min_version: 'string',
  tls_max_version: 'string',
  insecure_tls: 'bool',
  certificate: 'string',
  client_tls_cert: 'string',
  client_tls_key: 'string',
  binddn: 'string',
  bindpass: 'string',
  userdn: 'string',
  userattr: 'lower',
  discoverdn: 'bool',
  deny_null_bind: 'bool',
  upndomain: 'string',
  userfilter: 'string',
  anonymous_group_search: 'bool',
  groupfilter: 'string',
  groupdn: 'string',
  groupattr: 'string',
  username_as_alias: 'bool',
  dereference_aliases: 'string',
  max_page_size: 'int',
  token_ttl: 'duration',
  token_max_ttl: 'duration',
  token_policies: 'tokenPolicies',
  policies: 'tokenPolicies',
  token_bound_cidrs: 'cidrs',
  token_explicit_max_ttl: 'duration',
  token_no_default_policy: 'bool',
  token_num_uses: 'int',
  token_period: 'duration',
  token_type: 'tokenType',
  use_token_groups: 'bool',
  use_pre111_group_cn_behavior: 'bool',
  enable_samaccountname_login: 'bool',
  password_policy: 'string',
  rotation_url: 'string',
  rotation_schema: 'string',
  rotation_credential_type: 'string',
  rotation_schedule: 'string',
  rotation_window: 'duration',
  rotation_period: 'duration',
  disable_automated_rotation: 'bool',
  alias_metadata: 'kvPairs',
};

const TLS_VERSIONS = ['tls10', 'tls11', 'tls12', 'tls13'];
const TOKEN_TYPES = ['', 'default', 'service', 'batch'];
const ROTATION_SCHEMAS = ['openldap', 'ad', 'racf'];
const ROTATION_CREDENTIAL_TYPES = ['password', 'phrase'];

export interface ConfigWrite {
  config: LdapConfig;
  /** Members of the body that are not config fields. */
  ignored: string[];
}

/**
 * A config write as the service does it: the members given replace the stored values (the
 * others are kept), after conversion and normalisation; then the whole config is validated.
 * Throws a 400 ApiError (or FieldError) on the first problem.
 */
export function applyConfigWrite(existing: LdapConfig, body: JsonObject): ConfigWrite {
  const config: Record<string, unknown> = { ...existing };
  const ignored: string[] = [];
  for (const [field, raw] of Object.entries(body)) {
    const kind = FIELD_KINDS[field as keyof LdapConfig];
    if (kind === undefined) ignored.push(field);
    else if (isWriteOnly(field) && typeof raw !== 'string') {
      // Said without the value (the service would quote it): it is a secret.
      throw new FieldError(field, '(sensitive)', 'expected a string');
    } else config[field] = convert(field, kind, raw);
  }
  // `policies` is the deprecated name of token_policies: token_policies wins, both read alike.
  const policies = 'token_policies' in body ? config.token_policies : 'policies' in body ? config.policies : existing.token_policies;
  config.token_policies = policies;
  config.policies = policies;
  // Every write without them sets these two to their defaults (path_config.go pathConfigWrite).
  if (!('rotation_schema' in body)) config.rotation_schema = 'openldap';
  if (!('rotation_credential_type' in body)) config.rotation_credential_type = 'password';
  const result = config as unknown as LdapConfig;
  validate(result, body);
  return { config: result, ignored: ignored.sort() };
}

function isWriteOnly(field: string): boolean {
  return (LDAP_WRITE_ONLY_FIELDS as readonly string[]).includes(field);
}

function convert(field: string, kind: FieldKind, raw: unknown): unknown {
  switch (kind) {
    case 'string':
      return toStr(field, raw);
    case 'lower':
      return toStr(field, raw).toLowerCase();
    case 'bool':
      return toBool(field, raw);
    case 'duration':
      return toDurationSeconds(field, raw);
    case 'int':
      return toInt(field, raw);
    case 'tokenPolicies':
      try {
        return trimmedList(raw);
      } catch (err) {
        throw new FieldError(field, raw, (err as Error).message);
      }
    case 'kvPairs': {
      const pairs = readKvPairs(raw);
      if (pairs.kind === 'refused') throw new FieldError(field, raw, pairs.reason);
      return pairs.value;
    }
    case 'tokenType': {
      // tokenutil: "" and "default" are both the mount's default, read back as "default".
      const type = toStr(field, raw);
      return type === '' ? 'default' : type;
    }
    case 'cidrs': {
      // Stored parsed and read back in the service's form (go-sockaddr: `127.0.0.1/32` as `127.0.0.1`).
      return toList(field, raw).map((c) => {
        const cidr = readCidr(c);
        // parseutil.ParseAddrs's words (go-sockaddr's error within); answered by the real server alike.
        if (cidr.kind === 'refused') throw badRequest(`error parsing address ${JSON.stringify(c)}: Unable to convert ${JSON.stringify(c)} to an IPv4 or IPv6 address, or a UNIX Socket`);
        return cidrText(cidr.value);
      });
    }
  }
}

function validate(cfg: LdapConfig, body: JsonObject): void {
  if (!TLS_VERSIONS.includes(cfg.tls_min_version)) throw badRequest("invalid 'tls_min_version'");
  if (!TLS_VERSIONS.includes(cfg.tls_max_version)) throw badRequest("invalid 'tls_max_version'");
  if (cfg.tls_max_version < cfg.tls_min_version) {
    throw badRequest("'tls_max_version' must be greater than or equal to 'tls_min_version'");
  }
  if ('userfilter' in body && cfg.userfilter !== '') {
    const problem = filterTemplateError(cfg.userfilter);
    if (problem) throw badRequest(`invalid userfilter: ${problem}`);
  }
  if ('groupfilter' in body && cfg.groupfilter !== '') {
    const problem = filterTemplateError(cfg.groupfilter);
    if (problem) throw badRequest(`invalid groupfilter: ${problem}`);
  }
  if ('rotation_schema' in body && !ROTATION_SCHEMAS.includes(cfg.rotation_schema)) {
    throw badRequest(`invalid 'rotation_schema' value "${cfg.rotation_schema}"`);
  }
  if ('rotation_credential_type' in body && !ROTATION_CREDENTIAL_TYPES.includes(cfg.rotation_credential_type)) {
    throw badRequest(`invalid 'rotation_credential_type' value "${cfg.rotation_credential_type}"`);
  }
  if (cfg.rotation_schedule !== '' && cfg.rotation_period !== 0) {
    // automatedrotationutil ErrRotationMutuallyExclusiveFields
    throw badRequest('mutually exclusive fields rotation_schedule and rotation_period were both specified; only one of them can be provided');
  }
  // automatedrotationutil ParseAutomatedRotationFields: a window only bounds a schedule given with it.
  if ('rotation_window' in body && cfg.rotation_window !== 0) {
    if ('rotation_period' in body && cfg.rotation_period !== 0) throw badRequest('rotation_window does not apply to period');
    if (!('rotation_schedule' in body)) throw badRequest('cannot use rotation_window without rotation_schedule');
  }
  if (cfg.certificate !== '') checkCertificate(cfg.certificate);
  checkClientPair(cfg.client_tls_cert, cfg.client_tls_key);
  validateTokenFields(cfg);
}

function validateTokenFields(cfg: LdapConfig): void {
  if (!TOKEN_TYPES.includes(cfg.token_type)) throw badRequest(`invalid 'token_type' value "${cfg.token_type}"`);
  if (cfg.token_type === 'batch') {
    if (cfg.token_period !== 0) {
      throw badRequest("'token_type' cannot be 'batch' or 'default_batch' when set to generate periodic tokens");
    }
    if (cfg.token_num_uses !== 0) {
      throw badRequest("'token_type' cannot be 'batch' or 'default_batch' when set to generate tokens with limited use count");
    }
  }
  if (cfg.token_num_uses < 0) throw badRequest("'token_num_uses' cannot be negative");
  if (cfg.token_max_ttl > 0 && cfg.token_ttl > cfg.token_max_ttl) {
    throw badRequest("'token_ttl' cannot be greater than 'token_max_ttl'");
  }
}

function checkCertificate(pem: string): void {
  if (!pem.includes('-----BEGIN CERTIFICATE-----')) throw badRequest('failed to decode PEM block in the certificate');
  try {
    new X509Certificate(pem);
  } catch (err) {
    throw badRequest(`failed to parse certificate: ${(err as Error).message}`);
  }
}

/** Both or neither; when both, the key must belong to the certificate. Never echoes the key. */
function checkClientPair(certPem: string, keyPem: string): void {
  if (certPem === '' && keyPem === '') return;
  if (certPem === '' || keyPem === '') throw badRequest('both client_tls_cert and client_tls_key must be set');
  let matches: boolean;
  try {
    matches = new X509Certificate(certPem).checkPrivateKey(createPrivateKey(keyPem));
  } catch {
    throw badRequest('failed to parse client X509 key pair');
  }
  if (!matches) throw badRequest('failed to parse client X509 key pair: private key does not match public key');
}
