import { jsonText, type JsonObject } from '../../core/json.js';

/**
 * A destination in plain words, for plan notes: `local /var/snap`, `s3 bucket/prefix`,
 * `blob container/prefix`, `gcs bucket/prefix` (+ ` at <endpoint>` for a non-native
 * implementation). Built from normalised attrs; never holds a credential.
 */
export function describeDestination(attrs: JsonObject | null): string {
  if (!attrs) return '(none)';
  const prefix = typeof attrs['path_prefix'] === 'string' ? attrs['path_prefix'] : '';
  const type = attrs['storage_type'];
  switch (type) {
    case 'local':
      return `local ${prefix}`;
    case 'provA-s3':
      return `s3 ${inBucket(attrs['provA_s3_bucket'], prefix)}${at(attrs['provA_s3_endpoint'])}`;
    case 'provB-blob':
      return `blob ${inBucket(attrs['provB_container_name'], prefix)}${at(attrs['provB_endpoint'])}`;
    case 'provC-gcs':
      return `gcs ${inBucket(attrs['provC_gcs_bucket'], prefix)}${at(attrs['provC_endpoint'])}`;
    default:
      return `${jsonText(type)} ${prefix}`;
  }
}

function inBucket(bucket: unknown, prefix: string): string {
  return `${typeof bucket === 'string' ? bucket : '?'}/${prefix.replace(/^\/+/, '')}`;
}

/** ` at <endpoint>` without user info, query or fragment (where a token could hide). */
function at(endpoint: unknown): string {
  if (typeof endpoint !== 'string' || endpoint === '') return '';
  try {
    const u = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(endpoint) ? endpoint : `https://${endpoint}`);
    return ` at ${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, '')}`;
  } catch {
    return ' at (unparsable endpoint)';
  }
}
