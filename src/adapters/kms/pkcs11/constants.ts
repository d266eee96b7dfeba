/**
 * The PKCS#11 numbers lockstep uses, as literals (pkcs11js has no SHA-3 constants, and this
 * keeps the native addon unloaded until a pkcs11 key is actually used).
 */
export const CKO_PUBLIC_KEY = 0x2;
export const CKO_PRIVATE_KEY = 0x3;

export const CKK_RSA = 0x0;
export const CKK_EC = 0x3;

export const CKA_CLASS = 0x0;
export const CKA_TOKEN = 0x1;
export const CKA_PRIVATE = 0x2;
export const CKA_LABEL = 0x3;
export const CKA_KEY_TYPE = 0x100;
export const CKA_ID = 0x102;
export const CKA_SENSITIVE = 0x103;
export const CKA_ENCRYPT = 0x104;
export const CKA_DECRYPT = 0x105;
export const CKA_WRAP = 0x106;
export const CKA_UNWRAP = 0x107;
export const CKA_SIGN = 0x108;
export const CKA_VERIFY = 0x10a;
export const CKA_MODULUS = 0x120;
export const CKA_MODULUS_BITS = 0x121;
export const CKA_PUBLIC_EXPONENT = 0x122;
export const CKA_EXTRACTABLE = 0x162;
export const CKA_EC_PARAMS = 0x180;
export const CKA_EC_POINT = 0x181;

export const CKM_RSA_PKCS_KEY_PAIR_GEN = 0x0;
export const CKM_RSA_PKCS = 0x1;
export const CKM_RSA_PKCS_PSS = 0xd;
export const CKM_EC_KEY_PAIR_GEN = 0x1040;
export const CKM_ECDSA = 0x1041;

export const CKF_RW_SESSION = 0x2;
export const CKF_SERIAL_SESSION = 0x4;
export const CKF_OS_LOCKING_OK = 0x2;
export const CKF_SIGN = 0x800;

export const CKU_USER = 0x1;

/** pkcs11js' own tag for a CK_RSA_PKCS_PSS_PARAMS parameter object. */
export const CK_PARAMS_RSA_PSS = 5;
