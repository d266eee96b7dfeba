import type { KeyType } from './types.js';

const GCP_SEGMENT = /^[a-zA-Z0-9_-]+$/;

/** Text fields with a syntax the backend needs (the server refuses other values). */
export function textProblems(type: KeyType, field: string, value: string): string[] {
  switch (`${type}.${field}`) {
    case 'provAkms.endpoint':
      return isHttpUrl(value) ? [] : ['must be an http:// or https:// URL'];
    case 'provBkeyvault.vault_name':
      return /^[a-zA-Z0-9-]+$/.test(value) ? [] : ['may only contain letters, digits and hyphens'];
    case 'provCckms.project':
    case 'provCckms.region':
    case 'provCckms.key_ring':
    case 'provCckms.crypto_key':
      return GCP_SEGMENT.test(value) ? [] : ['may only contain letters, digits, _ and -'];
    default:
      return [];
  }
}

function isHttpUrl(text: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(text).protocol);
  } catch {
    return false;
  }
}
