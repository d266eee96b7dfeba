import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLI = `${ROOT}dist/cli.js`;

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the built CLI (`npm test` builds first) as a user would: a child process, stdin not a
 * terminal, colour off unless asked. `env` is added to a minimal environment.
 */
export function runCli(args: string[], opts: RunOptions = {}): Promise<CliResult> {
  return runCommand(process.execPath, [CLI, ...args], opts);
}

export interface RunOptions {
  env?: Record<string, string>;
  cwd?: string;
  input?: string;
}

/** Runs any command as runCli runs the CLI: the same minimal environment, stdin not a terminal. */
export function runCommand(command: string, args: string[], opts: RunOptions = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: opts.cwd ?? ROOT,
      env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '/tmp', NO_COLOR: '1', ...opts.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(opts.input ?? '');
  });
}
