import type { Fact } from '../fact.js';

const MANAGED_KEYS_DOC = 'website/content/api-docs/system/managed-keys.mdx';

const pkcs11Key = {
  library: 'softhsm',
  key_label: 'test-kms-root',
  mechanism: '0x0001',
  pin: 'canary-pin-5be1',
  slot: '1',
  allow_generate_key: 'true',
  key_bits: 2048,
};

export const MANAGED_KEY_FACTS: readonly Fact[] = [
  {
    says: 'a pkcs11 key reads back mechanism and slot as numbers, the PIN as "redacted"',
    source: `${MANAGED_KEYS_DOC} (Read managed key, sample response)`,
    setup: [{ method: 'POST', path: 'sys/managed-keys/pkcs11/hsm-key1', body: pkcs11Key }],
    request: { method: 'GET', path: 'sys/managed-keys/pkcs11/hsm-key1' },
    expect: {
      status: 200,
      body: {
        data: {
          name: 'hsm-key1',
          type: 'pkcs11',
          library: 'softhsm',
          key_label: 'test-kms-root',
          mechanism: 1,
          slot: 1,
          pin: 'redacted',
          allow_generate_key: true,
          allow_replace_key: false,
          any_mount: false,
          key_bits: 2048,
          token_label: '',
          curve: '',
          force_rw_session: false,
        },
      },
    },
  },
  {
    says: 'a mechanism given as 0x1041 (CKM_ECDSA) reads back as 4161',
    source: `${MANAGED_KEYS_DOC} (mechanism: hexadecimal string; read as its number)`,
    setup: [{ method: 'POST', path: 'sys/managed-keys/pkcs11/ec', body: { ...pkcs11Key, mechanism: '0x1041', curve: 'P256', key_bits: 0 } }],
    request: { method: 'GET', path: 'sys/managed-keys/pkcs11/ec' },
    expect: { status: 200, body: { data: { mechanism: 4161, slot: 1 } } },
  },
];
