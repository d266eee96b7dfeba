import { secretValuesOf, type SECRET_FIELDS, type SnapshotStorageConfig } from '../../adapters/storage/index.js';
import { collectSecretTexts, revealDeep, type Secret } from '../../core/secret.js';

/** One result of `lockstep check`; structurally a kinds/kind.ts CheckFinding. Never holds a secret. */
export interface Finding {
  ok: boolean;
  subject: string;
  message: string;
}

type SecretField = (typeof SECRET_FIELDS)[number];

/**
 * A snapshot configuration as the reconciler holds it: the server's fields, with the secret
 * ones possibly still wrapped as Secret (resolved `${env:...}` / `${file:...}` references).
 */
export type SnapshotCheckConfig = Omit<SnapshotStorageConfig, SecretField> & {
  [K in SecretField]?: string | Secret;
} & {
  /** Configuration name, used in subjects. */
  name?: string;
  /** Seconds, or a duration string such as `24h` (for checkSnapshotStatus). */
  interval?: number | string;
  retain?: number | string;
};

/** The plain configuration the adapters take, and every secret text in it (for scrubbing). */
export function unwrapConfig(config: SnapshotCheckConfig): { plain: SnapshotStorageConfig; secrets: string[] } {
  const plain = revealDeep(config) as SnapshotStorageConfig;
  const secrets = new Set([...collectSecretTexts(config), ...secretValuesOf(plain)]);
  // Longest first, so a secret containing another is replaced whole.
  return { plain, secrets: [...secrets].sort((a, b) => b.length - a.length) };
}
