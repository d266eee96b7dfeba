import type { RedactionSet } from '../../core/redaction.js';
import { Secret } from '../../core/secret.js';

/**
 * Values that flow between the steps of one apply run (activation tokens, public keys,
 * generated operation tokens), kept in ApplyContext.run: in memory only, never printed,
 * logged or saved. Every secret text that passes through is remembered for scrubbing errors.
 */
export class DrRunStore {
  readonly #activation = new Map<string, Secret>();
  readonly #publicKeys = new Map<string, string>();
  readonly #generated = new Map<string, Secret>();
  readonly #sensitive = new Set<string>();

  constructor(readonly redaction?: RedactionSet) {}

  /** Remembers a secret text (OTP, encoded token, ...) so errors and output never carry it. */
  remember(text: string): void {
    if (text.length === 0) return;
    this.#sensitive.add(text);
    this.redaction?.add(text);
  }

  secret(text: string, origin: string): Secret {
    this.remember(text);
    return new Secret(text, origin);
  }

  sensitiveTexts(): Set<string> {
    return new Set(this.#sensitive);
  }

  setPublicKey(cluster: string, key: string): void {
    this.#publicKeys.set(cluster, key);
  }

  publicKey(cluster: string): string | undefined {
    return this.#publicKeys.get(cluster);
  }

  setActivation(secondary: string, token: Secret): void {
    this.#activation.set(secondary, token);
  }

  /** Activation tokens are single use: taking one forgets it. */
  takeActivation(secondary: string): Secret | undefined {
    const token = this.#activation.get(secondary);
    this.#activation.delete(secondary);
    return token;
  }

  setGenerated(cluster: string, token: Secret): void {
    this.#generated.set(cluster, token);
  }

  generated(cluster: string): Secret | undefined {
    return this.#generated.get(cluster);
  }

  forgetGenerated(cluster: string): void {
    this.#generated.delete(cluster);
  }

  /** Generated operation tokens not yet deleted, by cluster. */
  pendingGenerated(): Array<[string, Secret]> {
    return [...this.#generated];
  }
}

const KEY = 'dr-replication';

export function drRunStore(run: Map<string, unknown>, redaction?: RedactionSet): DrRunStore {
  let store = run.get(KEY);
  if (!(store instanceof DrRunStore)) {
    store = new DrRunStore(redaction);
    run.set(KEY, store);
  }
  return store as DrRunStore;
}
