/**
 * The release the emulator answers as (health, seal-status, mount listings): Vault Enterprise
 * 1.21.0, whose field sets (LDAP config with the root-rotation fields, the token fields, mount
 * entries) follow the hashicorp/vault sources cited by test/conformance/facts/.
 */
export const EMULATED_VERSION = '1.21.0+ent';

/** The version without build metadata (version.GetVersion().Version). */
const VERSION_NUMBER = EMULATED_VERSION.replace(/\+.*$/, '');

/** running_plugin_version of a built-in plugin of the vault repository (helper/versions DefaultBuiltinVersion). */
export const BUILTIN_PLUGIN_VERSION = `v${VERSION_NUMBER}+builtin.vault`;

/** A fixed build date, as the service reports its own. */
export const BUILD_DATE = '2025-10-21T19:21:30Z';
