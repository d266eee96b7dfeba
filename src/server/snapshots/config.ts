/**
 * Automated-snapshot configurations: the stored form, the rules a write must pass, and the
 * read-back view.
 *
 * A write replaces the whole configuration (fields left out take their defaults; secrets must
 * be sent on every write). Stored and read back with fixed types:
 *   interval (integer seconds), retain (integer), path_prefix, file_prefix, storage_type
 *   (strings), then every field of the configured storage type: strings ("" when unset),
 *   booleans (false when unset), local_max_space (integer bytes). Secret fields read back as
 *   "redacted" when set and are absent when not. Fields of other storage types are not stored.
 */
import {
  DEFAULT_FILE_PREFIX,
  DEFAULT_RETAIN,
  isStorageType,
  needsTrailingSlash,
  openObjectStore,
  secretValuesOf,
  STORAGE_FIELD_SPECS,
  STORAGE_TYPES,
  StorageError,
  storageFieldsOf,
  type StorageFieldKind,
  type StorageFieldSpec,
  type StorageType as SnapshotStorageType,
} from '../../adapters/storage/index.js';
import { scrubSecrets } from '../../adapters/storage/errors.js';
import { FieldError, toBool, toDurationSeconds, toInt, toStr } from '../util/fields.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../util/json.js';

const REDACTED = 'redacted';

interface CommonFields {
  /** Seconds, > 0. */
  interval: number;
  /** >= 1. */
  retain: number;
  path_prefix: string;
  file_prefix: string;
}

export interface LocalSnapshotConfig extends CommonFields {
  storage_type: 'local';
  /** Bytes, > 0. */
  local_max_space: number;
}

interface S3SnapshotConfig extends CommonFields {
  storage_type: 'provA-s3';
  provA_s3_bucket: string;
  provA_s3_region: string;
  provA_access_key_id: string;
  provA_secret_access_key: string;
  provA_session_token: string;
  provA_s3_endpoint: string;
  provA_s3_disable_tls: boolean;
  provA_s3_force_path_style: boolean;
  provA_s3_enable_kms: boolean;
  provA_s3_server_side_encryption: boolean;
  provA_s3_kms_key: string;
}

interface GcsSnapshotConfig extends CommonFields {
  storage_type: 'provC-gcs';
  provC_gcs_bucket: string;
  provC_service_account_key: string;
  provC_endpoint: string;
  provC_disable_tls: boolean;
}

interface BlobSnapshotConfig extends CommonFields {
  storage_type: 'provB-blob';
  provB_container_name: string;
  provB_account_name: string;
  provB_account_key: string;
  provB_blob_environment: string;
  provB_endpoint: string;
}

/** A stored configuration; "" in a string field means unset. */
export type SnapshotConfig = LocalSnapshotConfig | S3SnapshotConfig | GcsSnapshotConfig | BlobSnapshotConfig;

/** The fields of each storage type, in read-back order. */
const TYPE_FIELDS: Record<SnapshotStorageType, readonly StorageFieldSpec[]> = {
  local: storageFieldsOf('local'),
  'provA-s3': storageFieldsOf('provA-s3'),
  'provC-gcs': storageFieldsOf('provC-gcs'),
  'provB-blob': storageFieldsOf('provB-blob'),
};

const COMMON_FIELDS = ['interval', 'retain', 'path_prefix', 'file_prefix', 'storage_type'];
const ALL_TYPE_FIELDS = new Set<string>(STORAGE_FIELD_SPECS.map((f) => f.name));

export type ParsedWrite = { ok: true; config: SnapshotConfig; warnings: string[]; ignored: string[] } | { ok: false; errors: string[] };

/** Checks a write's body against every rule of the spec; all problems are reported at once. */
export function parseConfigWrite(body: JsonObject): ParsedWrite {
  const errors: string[] = [];
  const attempt = <T>(fn: () => T): T | undefined => {
    try {
      return fn();
    } catch (err) {
      if (err instanceof FieldError || err instanceof RuleError) {
        errors.push(err.message);
        return undefined;
      }
      throw err;
    }
  };

  const interval = attempt(() => parseInterval(body.interval));
  const retain = attempt(() => parseRetain(body.retain));
  const storageType = attempt(() => parseStorageType(body.storage_type));
  const pathPrefix = attempt(() => parsePathPrefix(body.path_prefix, storageType));
  const filePrefix = attempt(() => parseFilePrefix(body.file_prefix));
  const typeFields: Record<string, JsonValue> = {};
  for (const spec of storageType ? TYPE_FIELDS[storageType] : []) {
    const value = attempt(() => parseTypeField(spec, body[spec.name]));
    if (value !== undefined) typeFields[spec.name] = value;
  }
  if (storageType === 'provA-s3') attempt(() => checkS3Rules(typeFields));
  if (errors.length > 0 || interval === undefined || retain === undefined || storageType === undefined) {
    return { ok: false, errors };
  }

  const config = {
    interval,
    retain,
    path_prefix: pathPrefix!,
    file_prefix: filePrefix!,
    storage_type: storageType,
    ...typeFields,
  } as SnapshotConfig;
  const adapterProblem = adapterCheck(config);
  if (adapterProblem) return { ok: false, errors: [adapterProblem] };
  return { ok: true, config, ...unusedMembers(body, storageType) };
}

/** The read-back view: secrets as "redacted" when set, absent when not. */
export function configView(config: SnapshotConfig): JsonObject {
  const view: JsonObject = {
    interval: config.interval,
    retain: config.retain,
    path_prefix: config.path_prefix,
    file_prefix: config.file_prefix,
    storage_type: config.storage_type,
  };
  const stored = config as unknown as Record<string, JsonValue>;
  for (const spec of TYPE_FIELDS[config.storage_type]) {
    const value = stored[spec.name] ?? defaultOf(spec.kind);
    if (spec.kind !== 'secret') view[spec.name] = value;
    else if (value !== '') view[spec.name] = REDACTED;
  }
  return view;
}

/** The secret values of a configuration, to scrub from anything said about it. */
function secretsOf(config: SnapshotConfig): string[] {
  return secretValuesOf(config);
}

/** Removes every secret of the configuration from a text. */
export function scrubConfigSecrets(text: string, config: SnapshotConfig): string {
  return scrubSecrets(text, secretsOf(config));
}

/** A stored value read back as a configuration (values written by this module). */
export function asSnapshotConfig(value: JsonValue | undefined): SnapshotConfig | undefined {
  if (!isJsonObject(value)) return undefined;
  return isStorageType(value.storage_type) ? (value as unknown as SnapshotConfig) : undefined;
}

class RuleError extends Error {}

function parseInterval(value: JsonValue | undefined): number {
  if (value === undefined || value === null) throw new RuleError('interval is required');
  const seconds = toDurationSeconds('interval', value);
  if (seconds <= 0) throw new RuleError('interval must be greater than 0 seconds');
  return seconds;
}

function parseRetain(value: JsonValue | undefined): number {
  if (value === undefined || value === null || value === '') return DEFAULT_RETAIN;
  const retain = toInt('retain', value);
  if (retain < 1) throw new RuleError('retain must be at least 1');
  return retain;
}

function parseStorageType(value: JsonValue | undefined): SnapshotStorageType {
  if (value === undefined || value === null || value === '') throw new RuleError('storage_type is required');
  const text = toStr('storage_type', value);
  if (!isStorageType(text)) {
    throw new RuleError(`storage_type must be one of ${STORAGE_TYPES.join(', ')} (got ${JSON.stringify(text)})`);
  }
  return text;
}

function parsePathPrefix(value: JsonValue | undefined, storageType: SnapshotStorageType | undefined): string {
  const text = value === undefined || value === null ? '' : toStr('path_prefix', value);
  if (text.trim() === '') throw new RuleError('path_prefix is required');
  if (storageType !== undefined && needsTrailingSlash(storageType) && !text.endsWith('/')) {
    throw new RuleError(`path_prefix must end with "/" for storage_type ${storageType}`);
  }
  return text;
}

function parseFilePrefix(value: JsonValue | undefined): string {
  const text = value === undefined || value === null ? '' : toStr('file_prefix', value);
  if (text === '') return DEFAULT_FILE_PREFIX;
  // Snapshot names are `<path_prefix>/<file_prefix>-<ns>.snap`: a "/" would move them elsewhere.
  if (text.includes('/')) throw new RuleError('file_prefix must not contain "/"');
  return text;
}

function parseTypeField(spec: StorageFieldSpec, value: JsonValue | undefined): JsonValue {
  const missing = value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
  if (missing) {
    if (spec.required) throw new RuleError(`${spec.name} is required`);
    return defaultOf(spec.kind);
  }
  switch (spec.kind) {
    case 'string':
      return toStr(spec.name, value);
    case 'secret':
      // Never quote the value: the framework's conversion message would.
      if (typeof value !== 'string') throw new RuleError(`${spec.name} must be a string`);
      return value;
    case 'bool':
      return toBool(spec.name, value);
    case 'bytes': {
      const bytes = toInt(spec.name, value);
      if (bytes <= 0) throw new RuleError(`${spec.name} must be greater than 0 bytes`);
      return bytes;
    }
  }
}

function defaultOf(kind: StorageFieldKind): JsonValue {
  switch (kind) {
    case 'string':
    case 'secret':
      return '';
    case 'bool':
      return false;
    case 'bytes':
      return 0;
  }
}

function checkS3Rules(fields: Record<string, JsonValue>): void {
  if (fields.provA_s3_server_side_encryption === true && fields.provA_s3_enable_kms === true) {
    throw new RuleError('provA_s3_server_side_encryption cannot be combined with provA_s3_enable_kms');
  }
  const hasId = typeof fields.provA_access_key_id === 'string' && fields.provA_access_key_id.trim() !== '';
  const hasSecret = fields.provA_secret_access_key !== '' && fields.provA_secret_access_key !== undefined;
  if (hasId !== hasSecret) throw new RuleError('provA_access_key_id and provA_secret_access_key must be given together');
}

/** What the storage adapter itself refuses (an unknown provB_blob_environment, a key that is not JSON...). */
function adapterCheck(config: SnapshotConfig): string | undefined {
  try {
    openObjectStore(config);
    return undefined;
  } catch (err) {
    const message = err instanceof StorageError ? err.message : 'invalid storage settings';
    return scrubConfigSecrets(message, config);
  }
}

/** Members the endpoint does not take (`ignored`: the framework warns of them), and a warning for another type's fields. */
function unusedMembers(body: JsonObject, storageType: SnapshotStorageType): { warnings: string[]; ignored: string[] } {
  const own = new Set<string>(TYPE_FIELDS[storageType].map((f) => f.name));
  const members = Object.keys(body).sort();
  const unknown = members.filter((k) => k !== 'name' && !COMMON_FIELDS.includes(k) && !ALL_TYPE_FIELDS.has(k));
  const otherType = members.filter((k) => ALL_TYPE_FIELDS.has(k) && !own.has(k));
  const warnings = otherType.length === 0 ? [] : [`storage_type ${storageType} does not use these parameters, which were not stored: [${otherType.join(' ')}]`];
  return { warnings, ignored: unknown };
}
