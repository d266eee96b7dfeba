/**
 * Names of acknowledgeable rules shared across kinds, apart from the code that judges them (that
 * code may be heavy to load: it is loaded only when there is something to judge).
 */

/** Accepts a certificate signed with SHA-1 (validate/certificates.ts): a warning then. */
export const SHA1_CERTIFICATE_RULE = 'sha1-certificate';
