/**
 * SIGINT, SIGTERM and SIGHUP while a command talks to servers (CI cancels a job with SIGTERM, a user
 * presses Ctrl-C). Without this, Node ends the process at once: no report of what an apply did,
 * no JSON document, and the login tokens of the run left alive until their TTL.
 *
 * The first signal:
 * - while an apply runs its changes, reaches the apply (gracefully()): it starts no new change,
 *   lets those in flight end (each request bounded by its timeout, as always), reports, revokes
 *   its logins and exits with the signal's code;
 * - at any other time, the command is abandoned: what it registered with onAbandon() runs (the
 *   tokens revoked, apply's JSON document printed), then the process exits with the signal's code.
 * A second signal exits at once, saying so in one line.
 *
 * The process's listeners are there only while a command runs (arm()): `serve` keeps its own.
 */

export type StopSignal = 'SIGINT' | 'SIGTERM' | 'SIGHUP';

// SIGHUP: the terminal went away (a closed window, a dropped SSH session); what is printed then
// may reach no one, but the changes in flight still end and the login tokens are still revoked.
const STOP_SIGNALS: readonly StopSignal[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** 128 + the signal's number, as a shell reports a process the signal ended. */
export function signalExitCode(signal: StopSignal): number {
  switch (signal) {
    case 'SIGHUP':
      return 129;
    case 'SIGINT':
      return 130;
    case 'SIGTERM':
      return 143;
  }
}

/** Where signals come from: the process, or a test's emitter. */
export interface SignalSource {
  on(signal: StopSignal, listener: () => void): unknown;
  off(signal: StopSignal, listener: () => void): unknown;
}

/** Lines written to stderr, unmuted (see Interruption.mutes). */
export interface InterruptionOutput {
  out(text: string): void;
  err(text: string): void;
}

type Cleanup = (signal: StopSignal, output: InterruptionOutput) => Promise<void> | void;

export class Interruption {
  readonly #source: SignalSource | undefined;
  readonly #exit: (code: number) => void;
  readonly #listeners = new Map<StopSignal, () => void>();
  #signal: StopSignal | undefined;
  #abandoned = false;
  #output: InterruptionOutput = { out: () => undefined, err: () => undefined };
  readonly #graceful: Array<(signal: StopSignal) => void> = [];
  readonly #cleanups: Cleanup[] = [];

  /**
   * `source`: the process (the CLI's entry), a test's emitter, or none (signals then come only
   * through receive()). `exit` ends the process (tests record the code instead).
   */
  constructor(source: SignalSource | undefined, exit: (code: number) => void) {
    this.#source = source;
    this.#exit = exit;
  }

  /** The first signal received, if one was. */
  get signal(): StopSignal | undefined {
    return this.#signal;
  }

  /**
   * Once a command is abandoned, what it would still print (an answer arriving for a read
   * nobody waits for) is dropped: the output wraps its writes in this.
   */
  get mutes(): boolean {
    return this.#abandoned;
  }

  /** Where the interruption's own lines go (the run's redacting output, before it is muted). */
  useOutput(output: InterruptionOutput): void {
    this.#output = output;
  }

  /** From now on, SIGINT, SIGTERM and SIGHUP are handled as above (until disarm()). */
  arm(): void {
    if (!this.#source || this.#listeners.size > 0) return;
    for (const signal of STOP_SIGNALS) {
      const listener = (): void => this.receive(signal);
      this.#listeners.set(signal, listener);
      this.#source.on(signal, listener);
    }
  }

  /** Node's own handling again (the command ended). */
  disarm(): void {
    for (const [signal, listener] of this.#listeners) this.#source?.off(signal, listener);
    this.#listeners.clear();
  }

  /**
   * From now until the command ends, the first signal calls `stop` (the command then ends by
   * itself and reports) instead of abandoning the command.
   */
  gracefully(stop: (signal: StopSignal) => void): void {
    this.#graceful.push(stop);
  }

  /** Runs when a signal abandons the command, the last registered first. Returns its removal. */
  onAbandon(cleanup: Cleanup): () => void {
    this.#cleanups.push(cleanup);
    return () => {
      const i = this.#cleanups.indexOf(cleanup);
      if (i >= 0) this.#cleanups.splice(i, 1);
    };
  }

  /** A signal arrived (the process's listener calls this; tests may too). */
  receive(signal: StopSignal): void {
    if (this.#signal !== undefined) {
      const inFlight = this.#graceful.length > 0 ? '; changes in flight may or may not have been made' : '';
      this.#output.err(`${signal} again: exiting at once${inFlight}; a login token of this run is not revoked (it lasts until its TTL ends)`);
      this.#abandoned = true;
      this.#exit(signalExitCode(signal));
      return;
    }
    this.#signal = signal;
    const stop = this.#graceful.at(-1);
    if (stop) stop(signal);
    else void this.#abandon(signal);
  }

  async #abandon(signal: StopSignal): Promise<void> {
    const output = this.#output;
    output.err(`interrupted by ${signal}: stopped; what was in flight is abandoned`);
    this.#abandoned = true;
    for (const cleanup of [...this.#cleanups].reverse()) {
      try {
        await cleanup(signal, output);
      } catch (err) {
        output.err(`warning: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    this.#exit(signalExitCode(signal));
  }
}
