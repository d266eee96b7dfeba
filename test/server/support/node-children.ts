/**
 * Node child processes for tests that must kill a server (or a store writer) with SIGKILL:
 * stdout as an iterator of lines, stderr collected, and a tracker that kills whatever is
 * still running when the test file ends.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface NodeChild {
  child: ChildProcess;
  /** stdout, line by line. */
  lines: AsyncIterableIterator<string>;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  /** Everything written to stderr so far. */
  stderr: () => string;
}

export class NodeChildren {
  private readonly running = new Set<ChildProcess>();

  /** `node <args...>` with stdout and stderr piped. */
  spawn(args: string[]): NodeChild {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    this.running.add(child);
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) =>
      child.once('exit', (code) => {
        this.running.delete(child);
        resolve(code);
      }),
    );
    const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    return { child, lines, exited, stderr: () => stderr };
  }

  /** SIGKILLs every child that has not exited (for afterAll). */
  killAll(): void {
    for (const child of this.running) child.kill('SIGKILL');
  }
}

/** The next stdout line; fails when the child ended first. */
export async function nextLine(lines: AsyncIterableIterator<string>): Promise<string> {
  const { value, done } = await lines.next();
  if (done) throw new Error('the child ended before printing');
  return value;
}
