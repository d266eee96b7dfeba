import type { DrMode } from './dr-state.js';

/**
 * What a DR secondary serves: the DR secondary endpoints (authorised by the DR operation token
 * or the key shares, so no client token is checked), its status, sys/health and the
 * emulator's replication endpoints. Everything else is refused as the service refuses it.
 */
export type GateVerdict = 'normal' | 'open' | 'refuse';

export const DR_SECONDARY_REFUSAL = 'path disabled in replication DR secondary mode';

const OPEN_EXACT = new Set(['sys/health', 'sys/seal-status', 'sys/init', 'sys/replication/dr/status']);
const OPEN_PREFIXES = ['sys/replication/dr/secondary/', 'sys/replication/dr/emulator/'];

export function drGate(mode: DrMode, path: string): GateVerdict {
  if (mode !== 'secondary') return 'normal';
  if (OPEN_EXACT.has(path) || OPEN_PREFIXES.some((p) => path.startsWith(p))) return 'open';
  return 'refuse';
}
