/** The service version the emulator answers with (health, mount listings). */
export const EMULATED_VERSION = '1.17.3+ent';
