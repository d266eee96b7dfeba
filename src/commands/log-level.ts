import { Option } from 'commander';
import { CliError } from './errors.js';

/** How much a run says on stderr, least first; `info` is what it says unasked. */
const LOG_LEVELS = ['error', 'warn', 'info', 'debug'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const DEFAULT_LOG_LEVEL: LogLevel = 'info';
/** The environment's name for it, read when the flag is not given. */
const LOG_LEVEL_VARIABLE = 'LOCKSTEP_LOG';

export function logLevelOption(): Option {
  return new Option('--log-level <level>', `what to say on stderr; debug adds one line per HTTP request, redacted (also: ${LOG_LEVEL_VARIABLE}; default: ${DEFAULT_LOG_LEVEL})`).choices(
    LOG_LEVELS,
  );
}

/**
 * The run's level: the flag (commander checked it), else LOCKSTEP_LOG, else info. A variable
 * that names no level is a usage error, as the flag's would be: a typo must not silently turn
 * the log off in the one CI run someone needed it in.
 */
export function logLevelOf(flag: LogLevel | undefined, env: NodeJS.ProcessEnv): LogLevel {
  if (flag !== undefined) return flag;
  const given = env[LOG_LEVEL_VARIABLE];
  if (given === undefined || given === '') return DEFAULT_LOG_LEVEL;
  const level = LOG_LEVELS.find((l) => l === given.trim().toLowerCase());
  if (level === undefined) throw new CliError(`${LOG_LEVEL_VARIABLE} must be one of ${LOG_LEVELS.join(', ')} (got ${JSON.stringify(given)})`);
  return level;
}
