import { segmentProblem } from './path-segment.js';

/**
 * The one address type. Every change, live resource and `--target` is an Address:
 * `<cluster>:<path>`, the path being the API path relative to the cluster's base URL,
 * namespace first (contract section 2). Never build or compare address strings by hand.
 */
export class Address {
  readonly cluster: string;
  /** Path segments, namespace segments included; never empty strings. */
  readonly segments: readonly string[];

  // Both texts are asked for often (map keys, request paths); an Address never changes.
  #path: string | undefined;
  #text: string | undefined;

  /** `joined` is for child(): segments already clean, given with their path. */
  constructor(cluster: string, path: string | readonly string[], joined?: string) {
    this.cluster = cluster;
    if (joined !== undefined && typeof path !== 'string') {
      this.segments = Object.freeze(path);
      this.#path = joined;
      return;
    }
    const segs = typeof path === 'string' ? path.split('/') : path;
    this.segments = Object.freeze(segs.filter((s) => s.length > 0));
  }

  get path(): string {
    return (this.#path ??= this.segments.join('/'));
  }

  /**
   * A child address: `east:auth/ldap` + `groups`, `admins` → `east:auth/ldap/groups/admins`.
   * Each argument is ONE segment, never split: a name is one object, whatever it holds (names
   * that cannot be a segment are refused before they get here; see core/path-segment.ts).
   */
  child(...segments: string[]): Address {
    for (const segment of segments) {
      const problem = segmentProblem(segment);
      if (problem) throw new Error(`${this}: cannot address ${JSON.stringify(segment)} below it: the name ${problem}`);
    }
    const tail = segments.join('/');
    return new Address(this.cluster, this.segments.concat(segments), this.segments.length > 0 ? `${this.path}/${tail}` : tail);
  }

  toString(): string {
    return (this.#text ??= `${this.cluster}:${this.path}`);
  }

  toJSON(): string {
    return this.toString();
  }

  equals(other: Address): boolean {
    return Address.compare(this, other) === 0;
  }

  /** True when `this` is `prefix` or lies below it (segment-wise, never a string prefix). */
  isWithin(prefix: Address): boolean {
    if (this.cluster !== prefix.cluster || prefix.segments.length > this.segments.length) return false;
    return prefix.segments.every((s, i) => this.segments[i] === s);
  }

  /** Total order: cluster, then segment by segment (a parent sorts before its children). */
  static compare(this: void, a: Address, b: Address): number {
    if (a.cluster !== b.cluster) return a.cluster < b.cluster ? -1 : 1;
    const n = Math.min(a.segments.length, b.segments.length);
    for (let i = 0; i < n; i++) {
      const x = a.segments[i]!;
      const y = b.segments[i]!;
      if (x !== y) return x < y ? -1 : 1;
    }
    return a.segments.length - b.segments.length;
  }

  /** Parses `cluster:path`. Returns undefined for text that is not an address. */
  static parse(text: string): Address | undefined {
    const i = text.indexOf(':');
    if (i <= 0) return undefined;
    const cluster = text.slice(0, i);
    const path = text.slice(i + 1);
    if (!/^[A-Za-z0-9_.-]+$/.test(cluster)) return undefined;
    // `http://east/v1` is a URL, not cluster "http": a mistyped --target must not match nothing.
    if (path.startsWith('//')) return undefined;
    return new Address(cluster, path);
  }
}

/** A map keyed by Address (by value, not identity). */
export class AddressMap<V> {
  readonly #items = new Map<string, { address: Address; value: V }>();

  get size(): number {
    return this.#items.size;
  }
  set(address: Address, value: V): this {
    this.#items.set(address.toString(), { address, value });
    return this;
  }
  get(address: Address): V | undefined {
    return this.#items.get(address.toString())?.value;
  }
  has(address: Address): boolean {
    return this.#items.has(address.toString());
  }
  delete(address: Address): boolean {
    return this.#items.delete(address.toString());
  }
  /** Entries in the order they were first set: for work whose result does not depend on order (no sort). */
  *unordered(): IterableIterator<[Address, V]> {
    for (const { address, value } of this.#items.values()) yield [address, value];
  }
  /** Entries in Address order. */
  entries(): Array<[Address, V]> {
    return [...this.#items.values()]
      .sort((a, b) => Address.compare(a.address, b.address))
      .map((e) => [e.address, e.value]);
  }
  keys(): Address[] {
    return this.entries().map(([a]) => a);
  }
  values(): V[] {
    return this.entries().map(([, v]) => v);
  }
}
