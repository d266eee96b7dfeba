/** Cloud KMS enum names and numbers (the REST API answers numbers under `enum-encoding=int`). */
export const ALGORITHMS = {
  GOOGLE_SYMMETRIC_ENCRYPTION: 1,
  RSA_SIGN_PSS_2048_SHA256: 2,
  RSA_SIGN_PSS_3072_SHA256: 3,
  RSA_SIGN_PSS_4096_SHA256: 4,
  RSA_SIGN_PKCS1_2048_SHA256: 5,
  RSA_SIGN_PKCS1_3072_SHA256: 6,
  RSA_SIGN_PKCS1_4096_SHA256: 7,
  RSA_DECRYPT_OAEP_2048_SHA256: 8,
  EC_SIGN_P256_SHA256: 12,
  EC_SIGN_P384_SHA384: 13,
  RSA_SIGN_PSS_4096_SHA512: 15,
  RSA_SIGN_PKCS1_4096_SHA512: 16,
} as const;

export const PURPOSES = { ENCRYPT_DECRYPT: 1, ASYMMETRIC_SIGN: 5, ASYMMETRIC_DECRYPT: 6, MAC: 9 } as const;
export const STATES = { PENDING_GENERATION: 5, ENABLED: 1, DISABLED: 2, DESTROYED: 3, DESTROY_SCHEDULED: 4 } as const;
export const PROTECTION_LEVELS = { SOFTWARE: 1, HSM: 2 } as const;

export type AlgorithmName = keyof typeof ALGORITHMS;
export type PurposeName = keyof typeof PURPOSES;
export type StateName = keyof typeof STATES;

/** A request's enum value (name or number) as its name. */
export function enumName<T extends Record<string, number>>(values: T, v: unknown): keyof T | undefined {
  if (typeof v === 'number') return (Object.keys(values) as Array<keyof T>).find((k) => values[k] === v);
  return typeof v === 'string' && v in values ? v : undefined;
}
