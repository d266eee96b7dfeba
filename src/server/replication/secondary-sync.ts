import type { KvStore } from '../storage/kv-store.js';
import type { PrimaryLink } from './dr-state.js';
import { errorText, PeerClient } from './peer-client.js';
import { STREAM_PATH, type StreamAnswer, type StreamRequest } from './stream-protocol.js';

export type SyncState = 'merkle-sync' | 'stream-wals';
/** gRPC-style connection states, as the service reports them. */
export type ConnectionState = 'connecting' | 'ready' | 'transient_failure' | 'shutdown';

export interface SyncDeps {
  clusterName: string;
  store: KvStore;
  link: PrimaryLink;
  secondaryId: string;
  ownApiAddr: () => string;
  log: (line: string) => void;
  /** Wall-clock milliseconds (the cluster's clock); the retry backoff stays on real timers (it paces network calls). */
  now: () => number;
  /** A full copy of the primary's data has been applied. */
  onCopied: () => void;
  /** The primary refused this secondary's credential (revoked): streaming stops. */
  onRefused: () => void;
}

/** Longer than the primary holds a poll open. */
const POLL_TIMEOUT_MS = 30_000;
const MAX_BACKOFF_MS = 2_000;

/**
 * A DR secondary's pull loop: long polls to its primary's stream endpoint, a full copy first
 * (merkle-sync) and whenever the primary's history does not continue its own, WALs afterwards
 * (stream-wals). Retries on failures with a short backoff until stopped.
 */
export class SecondarySync {
  state: SyncState = 'merkle-sync';
  connection: ConnectionState = 'connecting';
  /** The primary's write index this secondary has applied. */
  lastRemoteWal = 0;
  /** Epoch ms of the primary's last answer (the status's `last_heartbeat`); 0 before the first. */
  lastContactMs = 0;
  private stream = '';
  private readonly client: PeerClient;
  private readonly abort = new AbortController();
  private loop: Promise<void> = Promise.resolve();

  constructor(private readonly deps: SyncDeps) {
    this.client = new PeerClient(deps.link.api_addr, deps.link.ca_pem);
  }

  start(): void {
    this.loop = this.run();
  }

  /** Stops polling; resolves once nothing more will be applied. */
  async stop(): Promise<void> {
    this.abort.abort();
    await this.loop;
    this.client.close();
  }

  /** The next answer is a full copy (reindex). */
  resync(): void {
    this.stream = '';
    this.state = 'merkle-sync';
  }

  private get stopped(): boolean {
    return this.abort.signal.aborted;
  }

  private async run(): Promise<void> {
    const { deps } = this;
    let failures = 0;
    while (!this.stopped) {
      try {
        const request: StreamRequest = {
          secondary_id: deps.secondaryId,
          credential: deps.link.credential,
          stream: this.stream,
          after: this.lastRemoteWal,
          api_address: deps.ownApiAddr(),
        };
        const answer = await this.client.post(STREAM_PATH, request, POLL_TIMEOUT_MS, this.abort.signal);
        if (this.stopped) return;
        if (answer.status === 403) {
          this.connection = 'shutdown';
          deps.log(`cluster ${deps.clusterName}: the DR primary at ${deps.link.api_addr} refused this secondary (${errorText(answer)}); streaming stopped`);
          deps.onRefused();
          return;
        }
        if (answer.status !== 200) throw new Error(errorText(answer));
        this.lastContactMs = deps.now();
        await this.apply(answer.body as StreamAnswer);
        if (failures > 0) deps.log(`cluster ${deps.clusterName}: streaming from the DR primary at ${deps.link.api_addr} again`);
        this.connection = 'ready';
        failures = 0;
      } catch (err) {
        if (this.stopped) return;
        this.connection = 'transient_failure';
        failures++;
        if (failures === 1 || failures % 50 === 0) {
          deps.log(`cluster ${deps.clusterName}: cannot stream from the DR primary at ${deps.link.api_addr}: ${(err as Error).message}; retrying`);
        }
        await sleep(Math.min(100 * failures, MAX_BACKOFF_MS), this.abort.signal);
      }
    }
  }

  private async apply(answer: StreamAnswer): Promise<void> {
    if (this.stopped) return;
    switch (answer.kind) {
      case 'snapshot':
        this.state = 'merkle-sync';
        await this.deps.store.replaceAll(answer.entries, answer.index);
        this.stream = answer.stream;
        this.lastRemoteWal = answer.index;
        this.state = 'stream-wals';
        this.deps.onCopied();
        return;
      case 'wals': {
        if (answer.stream !== this.stream || answer.wals.length === 0) return;
        await this.deps.store.write(answer.wals.map((w) => ({ key: w.key, value: w.value })));
        this.lastRemoteWal = answer.wals[answer.wals.length - 1]!.index;
        return;
      }
    }
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}
