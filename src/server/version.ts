import { readRelease, releaseNumber, type Release } from '../values/index.js';

/**
 * The release the emulator answers as unless `serve --cluster-version` says otherwise: Vault
 * Enterprise 1.21.0, whose field sets (LDAP config with the root-rotation fields, the token
 * fields, mount entries) follow the hashicorp/vault sources cited by test/conformance/facts/.
 * Another release changes what the cluster reports (health, seal-status, help, mount
 * listings), not which fields it serves.
 */
export const EMULATED_VERSION = '1.21.0+ent';

export const DEFAULT_RELEASE: Release = defaultRelease();

function defaultRelease(): Release {
  const read = readRelease(EMULATED_VERSION);
  if (read.kind === 'refused') throw new Error(`EMULATED_VERSION ${EMULATED_VERSION}: ${read.reason}`);
  return read.value;
}

/** running_plugin_version of a built-in plugin of the vault repository (helper/versions DefaultBuiltinVersion). */
export function builtinPluginVersion(release: Release): string {
  return `v${releaseNumber(release)}+builtin.vault`;
}

/** A fixed build date, as the service reports its own. */
export const BUILD_DATE = '2025-10-21T19:21:30Z';
