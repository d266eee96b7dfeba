import { Option, type Command } from 'commander';
import { ACCESS_REVIEW_MODES, type AccessReviewMode } from '../core/access.js';
import type { PlanFlags } from '../kinds/kind.js';
import { durationSeconds } from '../values/index.js';
import { RunDeadline } from '../client/deadline.js';
import { DEFAULT_RETRIES } from '../client/http-client.js';
import { AUTO, type ConcurrencySetting } from '../client/limiter.js';
import { CliError } from './errors.js';
import { logLevelOf, logLevelOption, type LogLevel } from './log-level.js';
import { parseWholeNumber, wholeNumber } from './number-option.js';

/** The global options that say how manifests' values and references are read. */
export interface ReferenceFlags {
  allowPlaintextSecrets: boolean;
  allowFilesOutsideRoot: boolean;
}

/** Options every command takes (contract section 3). */
export interface GlobalOptions extends ReferenceFlags {
  color: boolean;
  /** `--verbose`: also what a run says only when asked (each cluster's concurrency summary). */
  verbose: boolean;
  /** `--timeout`: the run's total deadline for talking to servers, from now. */
  deadline?: RunDeadline;
  /** `--retries`: further attempts of a call that is safe to repeat; the client's default when absent. */
  retries?: number;
  /** `--log-level` (or LOCKSTEP_LOG): debug adds the request log. */
  logLevel: LogLevel;
}

/** How long a run may keep trying servers: what every cluster's client of the run is given. */
export type ServerLimits = Pick<GlobalOptions, 'deadline' | 'retries'>;

/** The most `--retries`: the backoff doubles up to 2 s a wait (a server's Retry-After may ask up to 10 s), so ten end within 15 to 100 s a call. */
const MAX_RETRIES = 10;

/** Declares the options every command takes on the program. */
export function addGlobalOptions(program: Command): Command {
  return program
    .option('--no-color', 'no colours in output (also: NO_COLOR)')
    .option('--verbose', 'also say how each cluster\'s requests went (concurrency, peak in flight, count)')
    .addOption(logLevelOption())
    .option('--allow-plaintext-secrets', 'accept literal secret values in manifests')
    .option(
      '--allow-files-outside-root',
      '${file:} references may read files outside the git work tree of the manifest (or, outside git, the directory given)',
    )
    .option('--timeout <duration>', 'the most time a run may spend on servers, e.g. 90s or 10m (default: none)')
    .option(
      '--retries <n>',
      `further attempts of a call to a cluster that is safe to repeat, after a connection failure, 429 or 5xx: 0 to ${MAX_RETRIES} (default: ${DEFAULT_RETRIES}; check's probes of directories, KMS and storage keep their own)`,
      wholeNumber('--retries', { min: 0, max: MAX_RETRIES }),
    )
    // LOCKSTEP_LOG naming no level is a usage error on every command, as a bad --log-level is.
    .hook('preAction', (_program, command) => void logLevelOf(command.optsWithGlobals<{ logLevel?: LogLevel }>().logLevel, process.env));
}

/** Call once per run, when the command starts: `--timeout` counts from here. */
export function globalOptions(cmd: Command): GlobalOptions {
  const o = cmd.optsWithGlobals<{
    color?: boolean;
    verbose?: boolean;
    logLevel?: LogLevel;
    allowPlaintextSecrets?: boolean;
    allowFilesOutsideRoot?: boolean;
    timeout?: string;
    retries?: number;
  }>();
  return {
    color: o.color !== false,
    verbose: o.verbose === true,
    logLevel: logLevelOf(o.logLevel, process.env),
    ...referenceFlags(o),
    ...(o.timeout !== undefined ? { deadline: runDeadline(o.timeout) } : {}),
    ...(o.retries !== undefined ? { retries: o.retries } : {}),
  };
}

export function referenceFlags(o: { allowPlaintextSecrets?: boolean; allowFilesOutsideRoot?: boolean }): ReferenceFlags {
  return { allowPlaintextSecrets: o.allowPlaintextSecrets === true, allowFilesOutsideRoot: o.allowFilesOutsideRoot === true };
}

function runDeadline(text: string): RunDeadline {
  const seconds = durationSeconds(text);
  if (seconds === undefined || seconds < 1) throw new CliError(`--timeout must be a duration of at least 1s, such as 90s, 10m or 1h (got ${JSON.stringify(text)})`);
  return new RunDeadline(seconds * 1000);
}

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

/** `--format`: `text` (the default) and the others the command prints. */
export function formatOption(formats: readonly string[] = ['text', 'json', 'markdown']): Option {
  return new Option('--format <format>', 'output format').choices(formats).default('text');
}

/** Flags that shape what a plan contains; `plan` and `apply` take the same ones. */
export interface PlanningFlags {
  prune?: boolean;
  target?: string[];
  concurrency: ConcurrencySetting;
  syncSecrets?: boolean;
  allowUnreachablePrimary?: boolean;
  forcePromote?: boolean;
  allowPartial?: boolean;
  strictPolicies?: boolean;
  /** plan and apply only (accessReviewOption). */
  accessReview?: AccessReviewMode;
}

/** `--access-review`: whether plan and apply read the directories for the access review. */
export function accessReviewOption(): Option {
  return new Option(
    '--access-review <mode>',
    'read the directory to show which users gain or lose which policies at login: auto (a warning when it cannot), require (an error when it cannot) or off',
  )
    .choices([...ACCESS_REVIEW_MODES])
    .default('auto');
}

/** Adds the planning options (after each command's own) to `plan` or `apply`. */
export function addPlanningOptions(cmd: Command): Command {
  return cmd
    .option('--prune', 'delete objects on the server that no manifest lists')
    .option('--allow-partial', 'delete objects that manifests of the same set (the root: lockstep.yaml, else the git work tree) declare but this run did not read')
    .option('--target <address>', 'only this address and what it depends on (repeatable)', collect)
    .addOption(
      new Option('--concurrency <n>', 'requests in flight at once per cluster: auto (found from latency and refusals, 1 to 256) or a number')
        .argParser(parseConcurrency)
        .default(AUTO, 'auto'),
    )
    .option('--sync-secrets', 're-send write-only fields of objects that otherwise match')
    .option('--allow-unreachable-primary', 'DR: the unreachable DR members are down, not serving: plan without them (an unplanned failover, or a secondary down)')
    .option('--force-promote', 'DR: promote with force, skipping the safety checks')
    .option('--strict-policies', 'a policy the manifests name (LDAP groups, users, token_policies) that neither the server nor an AclPolicy document has is an error, not a warning');
}

/** The most requests in flight per cluster `--concurrency N` may fix. */
const MAX_CONCURRENCY = 1024;

/** `--concurrency auto` (the default) or a whole number from 1 to MAX_CONCURRENCY, per cluster. */
function parseConcurrency(text: string): ConcurrencySetting {
  if (text === 'auto') return AUTO;
  return { kind: 'fixed', size: parseWholeNumber('--concurrency', text, { min: 1, max: MAX_CONCURRENCY, otherwise: 'auto' }) };
}

export function planFlagsOf(flags: PlanningFlags): PlanFlags {
  return {
    syncSecrets: flags.syncSecrets === true,
    allowUnreachablePrimary: flags.allowUnreachablePrimary === true,
    force: flags.forcePromote === true,
  };
}
