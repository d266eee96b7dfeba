import { secretDigest } from './activation-token.js';
import { ApiError, badRequest, noContent, ok, type Reply } from '../http/reply.js';
import type { KvStore } from '../storage/kv-store.js';
import type { MountTable } from '../sys/mount-table.js';
import { toBool } from '../util/fields.js';
import type { JsonObject } from '../util/json.js';
import { JsonNumber } from '../../values/index.js';
import { randomBase62 } from '../util/random.js';
import { initialState, type DrMode, type DrState, type RootKeyRef, type SecondaryState } from './dr-state.js';
import { drGate, type GateVerdict } from './gate.js';
import { merkleRoot } from './merkle.js';
import { OperationTokenGeneration } from './operation-token-generation.js';
import { acceptActivation, issueActivationToken } from './primary-tokens.js';
import { newKeyPair } from './sealed-box.js';
import { activateWithPrimary, openActivationToken, primaryTargetFor, promoteSafetyProblem } from './secondary-activation.js';
import { SecondarySync } from './secondary-sync.js';
import { drStateStore, type DrStateStore } from './state-file.js';
import { statusView, type SecondaryLinkSeen } from './status-view.js';
import type { ActivateAnswer, StreamAnswer } from './stream-protocol.js';
import * as t from './transitions.js';
import { WalFeed } from './wal-feed.js';

export interface DrDeps {
  clusterName: string;
  store: KvStore;
  mounts: MountTable;
  log: (line: string) => void;
  /** Wall-clock milliseconds (the cluster's clock): token lifetimes and when peers were last seen. */
  now: () => number;
  /** The cluster's directory (the state is kept there), or undefined in memory. */
  dir: string | undefined;
  /** The cluster's API address (origin, no /v1), once it listens. */
  apiAddr: () => string;
}

/** How long a primary holds a stream poll open when there is nothing new. */
const HOLD_MS = 1_500;

/**
 * One cluster's DR replication: its mode and the spec's transitions, activation tokens and
 * operation tokens, the primary's stream to its secondaries and a secondary's pull from its
 * primary. State changes run one at a time; each is saved before it is answered.
 */
export class DrReplication {
  private sync: SecondarySync | undefined;
  private lastRemoteWal = 0;
  private readonly feed: WalFeed;
  private readonly generation: OperationTokenGeneration;
  private readonly seen = new Map<string, SecondaryLinkSeen>();
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;

  private constructor(
    private readonly deps: DrDeps,
    private state: DrState,
    private readonly saved: DrStateStore,
  ) {
    this.feed = new WalFeed(deps.store);
    this.generation = new OperationTokenGeneration({ keys: () => this.state.keys, issue: () => this.issueOperationToken() });
  }

  /** The saved state, or a disabled cluster holding its own root key. */
  static async open(deps: DrDeps, ownKeys: RootKeyRef): Promise<DrReplication> {
    const saved = drStateStore(deps.dir);
    return new DrReplication(deps, (await saved.load()) ?? initialState(ownKeys), saved);
  }

  /** The root key of the data this cluster holds: its own, or its DR set's once it joined one. */
  get dataKeys(): RootKeyRef {
    return this.state.keys;
  }

  /** Once the cluster listens: a secondary resumes streaming from its primary. */
  start(): void {
    const s = this.state;
    if (s.mode === 'secondary' && s.primary && !s.revoked) this.startSync(s);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.stopSync();
    this.feed.close();
  }

  get mode(): DrMode {
    return this.state.mode;
  }

  /** What the request pipeline does with `path` in the current mode. */
  gate(path: string): GateVerdict {
    return drGate(this.state.mode, path);
  }

  status(): JsonObject {
    return statusView(this.state, {
      apiAddr: this.deps.apiAddr(),
      lastWal: this.deps.store.index,
      merkleRoot: merkleRoot(this.deps.store),
      nowMs: this.deps.now(),
      seen: this.seen,
      sync: this.sync,
      lastRemoteWal: this.lastRemoteWal,
    });
  }

  // ---- primary endpoints ----

  enablePrimary(body: JsonObject): Promise<Reply> {
    return this.exclusive(async () => {
      await this.commit(t.enablePrimary(this.state, text(body['primary_cluster_addr']).trim()));
      this.feed.reset();
      this.seen.clear();
      this.log('DR replication enabled as primary');
      return noContent();
    });
  }

  demote(): Promise<Reply> {
    return this.exclusive(async () => {
      await this.commit(t.demote(this.state));
      this.afterPrimaryEnded();
      this.log('DR primary demoted to secondary');
      return noContent();
    });
  }

  disablePrimary(): Promise<Reply> {
    return this.exclusive(async () => {
      await this.commit(t.disablePrimary(this.state));
      this.afterPrimaryEnded();
      this.log('DR replication disabled (was primary)');
      return noContent();
    });
  }

  secondaryToken(body: JsonObject): Promise<Reply> {
    return this.exclusive(async () => {
      const { next, reply } = await issueActivationToken(t.requirePrimary(this.state), body, this.deps.apiAddr(), this.deps.now());
      await this.commit(next);
      this.log(`DR activation token issued for secondary "${text(body['id']).trim()}"`);
      return reply;
    });
  }

  revokeSecondary(body: JsonObject): Promise<Reply> {
    return this.exclusive(async () => {
      const p = t.requirePrimary(this.state);
      const id = text(body['id']).trim();
      if (id === '') throw badRequest('"id" is required');
      await this.commit(t.withoutSecondary(p, id));
      this.seen.delete(id);
      this.feed.wake(); // its poll, if one is held, is refused now
      this.log(`DR secondary "${id}" revoked`);
      return noContent();
    });
  }

  // ---- secondary endpoints ----

  generatePublicKey(): Promise<Reply> {
    return this.exclusive(async () => {
      if (this.state.mode === 'primary') throw badRequest('a DR primary makes no secondary key pair (its DR mode is primary)');
      const pair = await newKeyPair();
      await this.commit({ ...this.state, key_pair: pair });
      return ok({ public_key: pair.public_key });
    });
  }

  enableSecondary(body: JsonObject): Promise<Reply> {
    return this.exclusive(async () => {
      t.checkCanEnableSecondary(this.state);
      const { claims, token } = await openActivationToken(body, this.state.key_pair, this.deps.now());
      const link = await primaryTargetFor(body, claims);
      const joined = await activateWithPrimary(link, token, this.deps.apiAddr());
      // Everything the cluster held goes, at once; the primary's copy follows.
      this.generation.cancel();
      await this.deps.store.replaceAll([], this.deps.store.index + 1);
      const next = t.enableSecondary(this.state, joined, { ...link, cluster_addr: joined.primary_cluster_addr, credential: joined.credential });
      await this.commit(next);
      this.lastRemoteWal = 0;
      this.startSync(next);
      this.log(`DR replication enabled as secondary "${joined.secondary_id}" of the primary at ${link.api_addr} (local data wiped)`);
      return noContent();
    });
  }

  promote(body: JsonObject): Promise<Reply> {
    return this.exclusive(async () => {
      const s = t.requireSecondary(this.state);
      this.checkOperationToken(body);
      const force = body['force'] === undefined ? false : toBool('force', body['force']);
      if (!force) {
        const problem = await promoteSafetyProblem(s);
        if (problem) throw badRequest(`safety checks failed: ${problem}; promote with force to do it anyway`);
      }
      await this.stopSync();
      await this.commit(t.promote(this.state, text(body['primary_cluster_addr']).trim()));
      this.feed.reset();
      this.seen.clear();
      this.log(`DR secondary promoted to primary${force ? ' (forced)' : ''}`);
      return noContent();
    });
  }

  disableSecondary(body: JsonObject): Promise<Reply> {
    return this.exclusive(async () => {
      t.requireSecondary(this.state);
      this.checkOperationToken(body);
      await this.stopSync();
      await this.commit(t.disableSecondary(this.state));
      await this.deps.mounts.ensureDefaults(); // a secondary never synced holds nothing, not even the built-in mounts
      this.log('DR replication disabled (was secondary)');
      return noContent();
    });
  }

  updatePrimary(body: JsonObject): Promise<Reply> {
    return this.exclusive(async () => {
      const s = t.requireSecondary(this.state);
      this.checkOperationToken(body);
      if (!('token' in body)) throw badRequest('"token" is required (a blank token clears the primary)');
      if (text(body['token']).trim() === '') {
        await this.stopSync();
        await this.commit(t.forgetPrimary(this.state));
        this.log('DR secondary no longer follows a primary');
        return noContent();
      }
      const { claims, token } = await openActivationToken(body, this.state.key_pair, this.deps.now());
      if (claims.cid !== s.cluster_id) throw badRequest(t.otherSetMessage());
      const link = await primaryTargetFor(body, claims);
      const joined = await activateWithPrimary(link, token, this.deps.apiAddr());
      await this.stopSync();
      const next = t.repoint(this.state, joined, { ...link, cluster_addr: joined.primary_cluster_addr, credential: joined.credential });
      await this.commit(next);
      this.startSync(next);
      this.log(`DR secondary "${joined.secondary_id}" now follows the primary at ${link.api_addr}`);
      return noContent();
    });
  }

  reindex(body: JsonObject): Promise<Reply> {
    return this.exclusive(async () => {
      t.requireSecondary(this.state);
      this.checkOperationToken(body);
      for (const flag of ['diff', 'force', 'skip_flush']) if (body[flag] !== undefined) toBool(flag, body[flag]);
      this.sync?.resync();
      return noContent();
    });
  }

  deleteOperationToken(body: JsonObject): Promise<Reply> {
    return this.exclusive(async () => {
      const digest = this.checkOperationToken(body);
      await this.commit(t.withoutOperationToken(this.state, digest));
      return noContent();
    });
  }

  attemptStatus(): JsonObject {
    return this.generation.status();
  }

  attemptStart(body: JsonObject): Promise<JsonObject> {
    if (this.state.mode !== 'secondary') {
      throw badRequest(`DR operation tokens are generated on a DR secondary (this cluster's DR mode is ${this.state.mode})`);
    }
    return this.generation.start(body);
  }

  attemptCancel(): void {
    this.generation.cancel();
  }

  attemptUpdate(body: JsonObject): Promise<JsonObject> {
    return this.exclusive(() => this.generation.update(body));
  }

  // ---- the emulator's cluster-to-cluster endpoints (primary side) ----

  /** A secondary activates with its token: it is registered and gets its credential and the set's keys. */
  activate(body: JsonObject): Promise<ActivateAnswer> {
    if (this.state.mode !== 'primary') return Promise.reject(badRequest('this cluster is not a DR primary'));
    return this.exclusive(async () => {
      const { next, answer } = acceptActivation(t.requirePrimary(this.state), body, this.deps.apiAddr(), this.deps.now());
      await this.commit(next);
      const apiAddress = text(body['api_address']);
      this.seen.set(answer.secondary_id, { lastSeenMs: this.deps.now(), apiAddress, polling: 0 });
      this.log(`DR secondary "${answer.secondary_id}" activated from ${apiAddress}`);
      return answer;
    });
  }

  /** A secondary's long poll: a full copy, or the WALs after its position (waiting a little for some). */
  async stream(body: JsonObject): Promise<StreamAnswer> {
    const id = text(body['secondary_id']);
    const credential = secretDigest(text(body['credential']));
    const stream = text(body['stream']);
    const given = body['after'];
    const after = typeof given === 'number' ? given : given instanceof JsonNumber ? given.toJSON() : -1;
    const apiAddress = text(body['api_address']);
    for (let waited = false; ; waited = true) {
      const p = this.state;
      if (p.mode !== 'primary') throw badRequest('this cluster is not a DR primary');
      const registered = p.secondaries.find((r) => r.id === id);
      if (!registered || registered.credential_digest !== credential) {
        throw new ApiError(403, ['this secondary is not registered with the DR primary (revoked, or activated with another primary)']);
      }
      const seen = this.seen.get(id) ?? { lastSeenMs: 0, apiAddress, polling: 0 };
      this.seen.set(id, { ...seen, lastSeenMs: this.deps.now(), apiAddress: apiAddress || seen.apiAddress });
      if (!this.feed.canContinue(stream, after)) {
        const { index, entries } = this.deps.store.state();
        return { kind: 'snapshot', stream: this.feed.streamId, index, entries };
      }
      const wals = this.feed.since(after);
      if (wals.length > 0 || waited || this.closed) return { kind: 'wals', stream: this.feed.streamId, wals };
      await this.hold(id);
    }
  }

  // ---- internals ----

  private async hold(id: string): Promise<void> {
    const bump = (n: number) => {
      const seen = this.seen.get(id);
      if (seen) this.seen.set(id, { ...seen, polling: Math.max(0, seen.polling + n), lastSeenMs: this.deps.now() });
    };
    bump(1);
    try {
      await this.feed.next(HOLD_MS);
    } finally {
      bump(-1);
    }
  }

  private afterPrimaryEnded(): void {
    this.seen.clear();
    this.feed.wake(); // held polls are answered: this cluster streams no more
  }

  private startSync(s: SecondaryState): void {
    const link = s.primary!;
    const sync: SecondarySync = new SecondarySync({
      clusterName: this.deps.clusterName,
      store: this.deps.store,
      link,
      secondaryId: s.secondary_id,
      ownApiAddr: this.deps.apiAddr,
      log: this.deps.log,
      now: this.deps.now,
      onCopied: () => {
        if (this.sync === sync) this.commitInBackground(t.markHasData(this.state));
      },
      onRefused: () => {
        if (this.sync !== sync) return;
        this.lastRemoteWal = sync.lastRemoteWal;
        this.sync = undefined;
        this.commitInBackground(t.markRevoked(this.state));
      },
    });
    this.sync = sync;
    sync.start();
  }

  private async stopSync(): Promise<void> {
    const sync = this.sync;
    if (!sync) return;
    await sync.stop();
    this.lastRemoteWal = sync.lastRemoteWal;
    if (this.sync === sync) this.sync = undefined;
  }

  /** The digest of a valid dr_operation_token, or a 400. */
  private checkOperationToken(body: JsonObject): string {
    const token = text(body['dr_operation_token']);
    if (token === '') throw badRequest('"dr_operation_token" is required');
    const d = secretDigest(token);
    if (!this.state.operation_tokens.includes(d)) throw badRequest('invalid DR operation token');
    return d;
  }

  private async issueOperationToken(): Promise<string> {
    const token = `hvs.${randomBase62(24)}`;
    await this.commit(t.withOperationToken(this.state, secretDigest(token)));
    this.log('DR operation token generated');
    return token;
  }

  private async commit(next: DrState): Promise<void> {
    this.state = next;
    await this.saved.save(next);
  }

  private commitInBackground(next: DrState): void {
    if (next === this.state) return;
    this.commit(next).catch((err: unknown) => this.log(`saving the DR state failed: ${(err as Error).message}`));
  }

  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private log(message: string): void {
    this.deps.log(`cluster ${this.deps.clusterName}: ${message}`);
  }
}

function text(v: unknown): string {
  return typeof v === 'string' ? v : '';
}
