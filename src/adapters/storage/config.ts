import { SECRET_FIELDS, type Flag, type SnapshotStorageConfig } from './types.js';

/** A stored boolean: JSON `true` or the text `"true"` (any case). */
export function flag(value: Flag | undefined): boolean {
  return value === true || (typeof value === 'string' && value.trim().toLowerCase() === 'true');
}

/** A non-empty trimmed string, or undefined. */
export function text(value: string | undefined): string | undefined {
  const t = value?.trim();
  return t ? t : undefined;
}

/**
 * The secret values of a configuration, for scrubbing. The service-account key also yields
 * its private key, which an SDK could quote on its own (PEM parse errors, for example).
 */
export function secretValuesOf(config: SnapshotStorageConfig): string[] {
  const values: string[] = [];
  for (const field of SECRET_FIELDS) {
    const v = config[field];
    if (typeof v === 'string' && v.length > 0) values.push(v);
  }
  const key = config.provC_service_account_key;
  if (key) {
    try {
      const parsed = JSON.parse(key) as { private_key?: unknown; private_key_id?: unknown };
      for (const v of [parsed.private_key, parsed.private_key_id]) if (typeof v === 'string' && v) values.push(v);
    } catch {
      // Not JSON: the whole value is already listed.
    }
  }
  return values;
}

/**
 * A full endpoint URL. An endpoint given with a scheme is used as written; a bare host[:port]
 * gets https, or http when `disableTls` (the spec's "testing only" switch).
 */
export function endpointUrl(endpoint: string, disableTls: boolean): string {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(endpoint) ? endpoint : `${disableTls ? 'http' : 'https'}://${endpoint}`;
  return withScheme.replace(/\/+$/, '');
}

/** An endpoint safe to print: no user info, query or fragment (a SAS token lives there). */
export function displayEndpoint(endpoint: string): string {
  try {
    const u = new URL(endpoint);
    u.username = '';
    u.password = '';
    u.search = '';
    u.hash = '';
    return u.toString().replace(/\/+$/, '');
  } catch {
    return '(unparsable endpoint)';
  }
}
