import type { ClusterClient } from '../client/types.js';
import { record, shapeProblems } from '../core/json-shape.js';
import { readRelease as readReleaseText } from '../values/index.js';

/**
 * The product and release a server reports in `sys/health`, as far as a field's presence
 * depends on it. Vault answers `enterprise` (a boolean, since 1.16: hashicorp/vault#24270) and
 * tags an Enterprise build's version `+ent`; OpenBao forked before that member existed and
 * numbers its releases from 2.0.0, so a server without `enterprise` reporting 2.x or later is
 * OpenBao, and one reporting 1.x is a Vault older than 1.16.
 */
export interface ServerRelease {
  product: 'vault' | 'openbao';
  /** major, minor, patch */
  version: readonly [number, number, number];
  /** Vault Enterprise (OpenBao: false). */
  enterprise: boolean;
  /** As reported, for messages: `1.21.0+ent`, `2.6.2`. */
  reported: string;
}

/**
 * When a field appeared: the first Vault release of each minor line that has it (a change
 * backported to older lines lists the patch release of each, e.g. max_page_size:
 * 1.11.10, 1.12.6, 1.13.2), whether it needs Vault Enterprise, and whether OpenBao has it (it
 * forked from Vault in December 2023 and took no later Vault change).
 */
export interface FieldRelease {
  vault: readonly string[];
  enterpriseOnly?: true;
  openbao: boolean;
}

/** `sys/health`'s answer as a release; undefined when it names no version lockstep can read. */
export function releaseOfHealth(health: Readonly<Record<string, unknown>>): ServerRelease | undefined {
  const reported = health['version'];
  if (typeof reported !== 'string') return undefined;
  const read = readReleaseText(reported);
  if (read.kind === 'refused') return undefined;
  const version = read.value.parts;
  const enterpriseMember = health['enterprise'];
  const ent = /\+ent(?:\.|$)/.test(reported) || enterpriseMember === true;
  const product = typeof enterpriseMember === 'boolean' || version[0] < 2 ? 'vault' : 'openbao';
  return { product, version, enterprise: product === 'vault' && ent, reported };
}

/** `1.21.0+ent` → [1, 21, 0]: pre-release and build suffixes play no part in a field's presence. */
function versionParts(text: string): readonly [number, number, number] {
  const read = readReleaseText(text);
  if (read.kind === 'refused') throw new Error(`a field's release "${text}": ${read.reason}`);
  return read.value.parts;
}

function compareVersions(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < 3; i++) if (a[i]! !== b[i]!) return a[i]! - b[i]!;
  return 0;
}

/** Does `release` have a field that appeared as `introduced` says? */
export function releaseHas(release: ServerRelease, introduced: FieldRelease): boolean {
  if (release.product === 'openbao') return introduced.openbao;
  if (introduced.enterpriseOnly && !release.enterprise) return false;
  const firsts = introduced.vault.map(versionParts).sort(compareVersions);
  const line = firsts.find((f) => f[0] === release.version[0] && f[1] === release.version[1]);
  if (line) return compareVersions(release.version, line) >= 0;
  // A minor line the list does not name: newer than the newest listed line has it, older does not.
  const newest = firsts.at(-1)!;
  return compareVersions(release.version, newest) > 0;
}

/** How a message names a release: `Vault 1.21.0+ent`, `OpenBao 2.6.2`. */
export function describeRelease(release: ServerRelease): string {
  return `${release.product === 'openbao' ? 'OpenBao' : 'Vault'} ${release.reported}`;
}

/** How a message names when a field appeared: `Vault Enterprise 1.21.0 and later; not in OpenBao`. */
export function describeIntroduced(introduced: FieldRelease): string {
  const vault = `Vault${introduced.enterpriseOnly ? ' Enterprise' : ''} ${introduced.vault.join(', ')} and later`;
  return `${vault}${introduced.openbao ? ', OpenBao' : '; not in OpenBao'}`;
}

// One health read per cluster and run: the pool gives each cluster one client for the run.
const releases = new WeakMap<ClusterClient, Promise<HealthRead>>();

/** What one read of `sys/health` gave: the release, or why none could be read from its answer. */
interface HealthRead {
  release: ServerRelease | undefined;
  /** Why the answer names no release lockstep can read; undefined when it does. */
  problem: string | undefined;
}

/**
 * The release the cluster reports (read once per client); undefined when it answers none
 * (then every field is taken to be there, as before releases were read).
 */
export async function serverRelease(client: ClusterClient): Promise<ServerRelease | undefined> {
  return (await healthRead(client)).release;
}

/**
 * Why the cluster's `sys/health` answer gave no release (`GET sys/health: field "version" is a
 * number, expected a string`), for a warning: fields are then compared as if the server had them.
 */
export async function serverReleaseProblem(client: ClusterClient): Promise<string | undefined> {
  return (await healthRead(client)).problem;
}

function healthRead(client: ClusterClient): Promise<HealthRead> {
  let read = releases.get(client);
  if (!read) {
    read = readHealth(client);
    releases.set(client, read);
  }
  return read;
}

async function readHealth(client: ClusterClient): Promise<HealthRead> {
  let body: Readonly<Record<string, unknown>> | null;
  try {
    // Standbys, DR secondaries, sealed and uninitialised nodes answer with other codes (http/sys_health.go).
    body = (await client.request('GET', 'sys/health', { anonymous: true, okStatuses: [429, 472, 473, 501, 503] })).body;
  } catch (err) {
    // The client's errors name the request already (`GET <url>/sys/health: 200 OK: ...`).
    return { release: undefined, problem: err instanceof Error ? err.message : String(err) };
  }
  const release = body ? releaseOfHealth(body) : undefined;
  if (release) return { release, problem: undefined };
  const [wrong] = shapeProblems(body, HEALTH_VERSION);
  const why = wrong ? `field "${wrong.field}" ${wrong.problem}` : `field "version" is ${JSON.stringify(body!['version'])}, not a release lockstep can read`;
  return { release: undefined, problem: `GET sys/health: ${why}` };
}

/** What a release is read from: the answer an object with a text `version` (http/sys_health.go). */
const HEALTH_VERSION = record({ version: 'text' }, ['version']);
