/**
 * Key configurations as the adapters take them: the spec's fields for each type, already
 * parsed (booleans as booleans, numbers as numbers, secrets as plain strings). The adapters
 * are lenient and also accept the spec's text forms ("true", "2048"), so a raw request body
 * works too.
 */
import type { KeyBackendType } from './errors.js';
import type { HashAlgorithm } from './hash.js';

type BoolLike = boolean | string;
type IntLike = number | string;

/** Generic fields of every managed key. */
export interface GenericKeyFields {
  name?: string;
  allow_generate_key?: BoolLike;
  allow_replace_key?: BoolLike;
  allow_store_key?: BoolLike;
  any_mount?: BoolLike;
  /** Comma-delimited string or list; default `sign,verify`. */
  usages?: string | string[];
}

export interface Pkcs11KeyConfig extends GenericKeyFields {
  /**
   * The kms_library stanza name, resolved through KeyBackendOptions.kmsLibraries; a value
   * containing a `/` is taken as the library path itself (the server passes the resolved path).
   */
  library: string;
  key_label?: string;
  key_id?: string;
  mechanism: string;
  pin: string;
  slot?: IntLike;
  token_label?: string;
  curve?: string;
  key_bits?: IntLike;
  force_rw_session?: BoolLike;
  max_parallel?: IntLike;
}

export interface AwsKmsKeyConfig extends GenericKeyFields {
  access_key?: string;
  secret_key?: string;
  curve?: string;
  endpoint?: string;
  key_bits?: IntLike;
  key_type: string;
  kms_key: string;
  region?: string;
}

export interface AzureKeyVaultKeyConfig extends GenericKeyFields {
  tenant_id: string;
  client_id?: string;
  client_secret?: string;
  environment?: string;
  vault_name: string;
  key_name: string;
  resource?: string;
  key_bits?: IntLike;
  key_type: string;
}

export interface GcpKmsKeyConfig extends GenericKeyFields {
  /** Path of a service-account JSON file; JSON text (starting with `{`) is accepted too. */
  credentials?: string;
  crypto_key: string;
  crypto_key_version?: IntLike;
  key_ring: string;
  project?: string;
  region?: string;
  algorithm: string;
}

export interface KeyConfigByType {
  pkcs11: Pkcs11KeyConfig;
  provAkms: AwsKmsKeyConfig;
  provBkeyvault: AzureKeyVaultKeyConfig;
  provCckms: GcpKmsKeyConfig;
}

export type AnyKeyConfig = KeyConfigByType[KeyBackendType];

export interface TestSignOptions {
  /**
   * Default sha2-256. Leave undefined when the caller did not ask for one: provCckms then uses
   * the hash its algorithm fixes, and refuses only an explicit, different one.
   */
  hashAlgorithm?: HashAlgorithm;
  /** RSA only: PSS instead of PKCS#1 v1.5 (ignored for EC keys). Default false. */
  usePss?: boolean;
  /** The data to sign; random 64 bytes when absent. */
  data?: Buffer;
}

/** One read-only observation about a backend (lockstep check turns them into findings). */
export interface BackendFinding {
  ok: boolean;
  subject: string;
  message: string;
}

export interface KeyBackend {
  readonly type: KeyBackendType;
  /**
   * Signs random data through the backend and verifies the signature with the key's public key.
   * Generates the key first when it is absent and allow_generate_key is true. Throws
   * KeyBackendError.
   */
  testSign(opts?: TestSignOptions): Promise<void>;
  /**
   * Read-only probe, step by step (never generates). Stops at the first failing step; the
   * failing step is the last finding. Never throws for backend problems.
   */
  inspect(): Promise<BackendFinding[]>;
}

/** How to reach the backends; the server fills it from its flags and environment. */
export interface KeyBackendOptions {
  /** kms_library stanzas: NAME → PATH (`serve --kms-library NAME=PATH`). */
  kmsLibraries?: Record<string, string>;
  /** Environment for the spec's PROVA_... and PROVC_... fallbacks; default process.env. */
  env?: NodeJS.ProcessEnv;
  aws?: {
    /** Attempts per call (SDK retries); default 2. */
    maxAttempts?: number;
  };
  azure?: {
    /** Token endpoint host, e.g. `https://localhost:8443` (default: the environment's). */
    authorityHost?: string;
    /** Extra trusted CA certificates (PEM) for the vault and token endpoints. */
    caCerts?: string[];
  };
  gcp?: {
    /** KMS REST endpoint, e.g. `http://127.0.0.1:9000` (default: the public endpoint over gRPC). */
    endpoint?: string;
  };
}
