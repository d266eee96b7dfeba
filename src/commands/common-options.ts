import { Option, type Command } from 'commander';

/** Options every command takes (contract section 3). */
export interface GlobalOptions {
  color: boolean;
  allowPlaintextSecrets: boolean;
}

export function globalOptions(cmd: Command): GlobalOptions {
  const o = cmd.optsWithGlobals<{ color?: boolean; allowPlaintextSecrets?: boolean }>();
  return { color: o.color !== false, allowPlaintextSecrets: o.allowPlaintextSecrets === true };
}

export const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

export function formatOption(): Option {
  return new Option('--format <format>', 'output format').choices(['text', 'json', 'markdown']).default('text');
}
