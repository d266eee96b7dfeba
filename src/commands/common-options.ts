import { Option, type Command } from 'commander';
import type { PlanFlags } from '../kinds/kind.js';
import { parseDurationSeconds } from '../kinds/dr-replication/duration.js';
import { RunDeadline } from '../client/deadline.js';
import { CliError } from './errors.js';

/** Options every command takes (contract section 3). */
export interface GlobalOptions {
  color: boolean;
  allowPlaintextSecrets: boolean;
  /** `--timeout`: the run's total deadline for talking to servers, from now. */
  deadline?: RunDeadline;
}

/** Call once per run, when the command starts: `--timeout` counts from here. */
export function globalOptions(cmd: Command): GlobalOptions {
  const o = cmd.optsWithGlobals<{ color?: boolean; allowPlaintextSecrets?: boolean; timeout?: string }>();
  return {
    color: o.color !== false,
    allowPlaintextSecrets: o.allowPlaintextSecrets === true,
    ...(o.timeout !== undefined ? { deadline: runDeadline(o.timeout) } : {}),
  };
}

function runDeadline(text: string): RunDeadline {
  const seconds = parseDurationSeconds(text);
  if (seconds === undefined || seconds < 1) throw new CliError(`--timeout must be a duration of at least 1s, such as 90s, 10m or 1h (got ${JSON.stringify(text)})`);
  return new RunDeadline(seconds * 1000);
}

export const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

export function formatOption(): Option {
  return new Option('--format <format>', 'output format').choices(['text', 'json', 'markdown']).default('text');
}

/** Flags that shape what a plan contains; `plan` and `apply` take the same ones. */
export interface PlanningFlags {
  prune?: boolean;
  target?: string[];
  concurrency?: string;
  syncSecrets?: boolean;
  allowUnreachablePrimary?: boolean;
  forcePromote?: boolean;
}

/** Adds the planning options (after each command's own) to `plan` or `apply`. */
export function addPlanningOptions(cmd: Command): Command {
  return cmd
    .option('--prune', 'delete objects on the server that no manifest lists')
    .option('--target <address>', 'only this address and what it depends on (repeatable)', collect)
    .option('--concurrency <n>', 'requests in flight at once', '16')
    .option('--sync-secrets', 're-send write-only fields of objects that otherwise match')
    .option('--allow-unreachable-primary', 'DR: the unreachable DR members are down, not serving: plan without them (an unplanned failover, or a secondary down)')
    .option('--force-promote', 'DR: promote with force, skipping the safety checks');
}

export function planFlagsOf(flags: PlanningFlags): PlanFlags {
  return {
    syncSecrets: flags.syncSecrets === true,
    allowUnreachablePrimary: flags.allowUnreachablePrimary === true,
    force: flags.forcePromote === true,
  };
}
