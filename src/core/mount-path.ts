import { segmentProblem } from './path-segment.js';

/**
 * The path an auth method is mounted at, below `auth/` (and `sys/auth/`): one segment or more
 * (`ldap`, `team/ldap`). Parsed once, from a manifest's `mount` or a `sys/auth` table key, with
 * the service's rules; rules, addresses, scopes and export all take this value, never the text.
 *
 * The service's rules (hashicorp/vault vault/auth.go enableCredentialInternal,
 * vault/logical_system.go handleEnableAuth and sanitizePath, vault/logical_system_paths.go):
 * - any text the route `sys/auth/(?P<path>.+)` takes, a trailing "/" added: so one segment or
 *   several, each one a path segment the HTTP layer leaves alone (core/path-segment.ts);
 * - `sys/auth/<path>/tune` is the route that tunes `<path>` (matched first), so a mount of
 *   several segments cannot end in `tune`;
 * - no mount may lie within another or hold one ("path is already in use at ..."), and the
 *   token method is always mounted at `token/`.
 * A mount's text is written without "/" at either end; lockstep also refuses whitespace (the
 * service allows it; a mount path is copied into policies and CLI commands, where it breaks).
 */
export class MountPath {
  readonly segments: readonly string[];

  private constructor(segments: readonly string[]) {
    this.segments = Object.freeze([...segments]);
  }

  /** The mount as written in manifests: `team/ldap`. */
  get text(): string {
    return this.segments.join('/');
  }

  /** The key of its entry in a `sys/auth` table: `team/ldap/`. */
  get tableKey(): string {
    return `${this.text}/`;
  }

  toString(): string {
    return this.text;
  }

  equals(other: MountPath): boolean {
    return this.text === other.text;
  }

  /** True when one of the two lies within the other (or they are equal): the service refuses to mount both. */
  overlaps(other: MountPath): boolean {
    const n = Math.min(this.segments.length, other.segments.length);
    return this.segments.slice(0, n).every((s, i) => s === other.segments[i]);
  }

  /** Parses the text of a mount path: the MountPath, or why it cannot be one. */
  static parse(text: string): { ok: true; mount: MountPath } | { ok: false; problem: string } {
    const problem = mountPathProblem(text);
    return problem === undefined ? { ok: true, mount: new MountPath(text.split('/')) } : { ok: false, problem };
  }

  /** A mount path known to be valid (a constant of the code, e.g. a kind's default); throws if it is not. */
  static of(text: string): MountPath {
    const parsed = MountPath.parse(text);
    if (!parsed.ok) throw new Error(`mount path ${JSON.stringify(text)} ${parsed.problem}`);
    return parsed.mount;
  }

  /**
   * The mount of a `sys/auth` table key (`team/ldap/`): the MountPath, or why lockstep cannot
   * address it (the server may hold mounts a manifest could not declare).
   */
  static fromTableKey(key: string): { ok: true; mount: MountPath } | { ok: false; problem: string } {
    if (!key.endsWith('/')) return { ok: false, problem: 'is not a mount entry (no trailing "/")' };
    return MountPath.parse(key.slice(0, -1));
  }
}

/** The segment of the token method, always mounted (vault/auth.go: "token credential backend cannot be instantiated"). */
const TOKEN_MOUNT = 'token';

function mountPathProblem(text: string): string | undefined {
  if (text === '') return 'must not be empty';
  if (text.startsWith('/') || text.endsWith('/')) return 'must not start or end with "/"';
  if (/\s/.test(text)) return 'must not contain spaces';
  const segments = text.split('/');
  for (const segment of segments) {
    const problem = segmentProblem(segment);
    if (problem === undefined) continue;
    return segments.length === 1 ? problem : `has a segment ${JSON.stringify(segment)} that ${problem}`;
  }
  if (segments[0] === TOKEN_MOUNT) return 'is the token method\'s mount (or lies within it): the service refuses it ("path is already in use at token/")';
  if (segments.length > 1 && segments[segments.length - 1] === 'tune') {
    return 'must not end in "/tune": the service takes sys/auth/<path>/tune as tuning the mount <path>';
  }
  return undefined;
}
