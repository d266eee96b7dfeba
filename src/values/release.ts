// The two functions used, not the package's index: it loads all of semver's 50 modules (ranges,
// coercion), a fifth of the CLI's start-up.
import compare from 'semver/functions/compare.js';
import parse from 'semver/functions/parse.js';
import type { SemVer } from 'semver';
import { refused, value, type Read } from './read.js';

/**
 * A release as the service reports it (`sys/health` and `sys/seal-status` `version`):
 * version/version.go VersionNumber, `<major>.<minor>.<patch>[-<prerelease>][+<metadata>]`, e.g.
 * `1.21.0+ent`, `1.21.0+ent.hsm`, `1.20.4+prem`, `1.21.0-rc1+ent`. Releases order by their
 * semantic version; the build metadata (`+ent` and the like) says which build, not which
 * release, so it plays no part in the order (semantic versioning 2.0.0, rule 10; Vault compares
 * with hashicorp/go-version, which ignores metadata too).
 */
export interface Release {
  /** Exactly as reported, for messages. */
  reported: string;
  /** The part that orders releases: the semantic version without build metadata, e.g. `1.21.0`. */
  version: string;
  /** major, minor, patch (a field's presence goes by these: kinds/server-release.ts). */
  parts: readonly [number, number, number];
}

/** The longest release text read: a version the service reports is a few dozen characters. */
const MAX_LENGTH = 64;

export function readRelease(input: unknown): Read<Release> {
  if (typeof input !== 'string') return refused('expected a release such as 1.21.0+ent');
  if (input.length > MAX_LENGTH) return refused(`a release is at most ${MAX_LENGTH} characters`);
  const parsed = parse(input);
  // semver.parse forgives a leading "v", "=" or spaces; the service reports none of them.
  if (parsed === null || asWritten(parsed) !== input) return refused('not a release: expected <major>.<minor>.<patch>, then optionally -<prerelease> and +<build>, such as 1.21.0+ent');
  return value({ reported: input, version: parsed.version, parts: [parsed.major, parsed.minor, parsed.patch] });
}

function asWritten(v: SemVer): string {
  return v.build.length === 0 ? v.version : `${v.version}+${v.build.join('.')}`;
}

/** Negative when `a` is the older release, positive when newer, 0 for the same release (whatever the builds). */
export function compareReleases(a: Release, b: Release): number {
  return compare(a.version, b.version);
}

/** The release without its build metadata, as plugins' versions carry it (`1.21.0`). */
export function releaseNumber(release: Release): string {
  return release.version;
}
