/**
 * Helpers of test/e2e/snapshot-policy.test.ts: manifests, driving the server's clock, listing
 * what its scheduler wrote to each kind of destination, and a `serve` child process.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { stringify } from 'yaml';
import type { Azurite } from '../support/azurite.js';
import { ROOT } from '../support/cli.js';
import { stopByPid } from '../support/process.js';
import { pollUntil } from '../support/wait.js';
import type { ManualClock } from '../support/manual-clock.js';
import type { S3rver } from '../support/s3rver.js';
import type { FakeGcs } from '../fakes/gcs/server.js';

export const SNAP = /^vault-snapshot-\d+\.snap$/;

/** A SnapshotPolicy document (plus extra top-level fields such as prune). */
export function policyYaml(name: string, config: Record<string, unknown>, extra: Record<string, unknown> = {}): string {
  return `# yaml-language-server: $schema=../../schemas/snapshot-policy.schema.json\n${stringify({ apiVersion: 'lockstep/v1', kind: 'SnapshotPolicy', name, ...extra, config })}`;
}

/** Polls `probe` until it returns a value other than undefined (the probes here never answer false). */
export function waitFor<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 20_000): Promise<T> {
  return pollUntil(what, probe, { timeoutMs, intervalMs: 150 });
}

/** Snapshot names (leaf names) at a destination, sorted. */
export type Lister = () => Promise<string[]>;

export function localLister(dir: string): Lister {
  return async () => (await readdir(dir).catch(() => [] as string[])).filter((n) => SNAP.test(n)).sort();
}

export function s3Lister(s3: S3rver, prefix: string): Lister {
  return async () => {
    const client = s3.client();
    try {
      const page = await client.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: prefix }));
      return leaves(page.Contents?.map((o) => o.Key ?? '') ?? []);
    } finally {
      client.destroy();
    }
  };
}

export function blobLister(azurite: Azurite, prefix: string): Lister {
  return async () => {
    const names: string[] = [];
    for await (const b of azurite.serviceClient().getContainerClient(azurite.container).listBlobsFlat({ prefix })) names.push(b.name);
    return leaves(names);
  };
}

export function gcsLister(gcs: FakeGcs, bucket: string, prefix: string): Lister {
  return async () => leaves(gcs.objectNames(bucket).filter((n) => n.startsWith(prefix)));
}

function leaves(names: string[]): string[] {
  return names.map((n) => n.slice(n.lastIndexOf('/') + 1)).filter((n) => SNAP.test(n)).sort();
}

/**
 * Advances the server's clock one interval at a time until its scheduler has written
 * `retain + 2` distinct snapshots (so retention had to delete some); after each attempt exactly
 * min(written, retain) remain. Returns the snapshots kept at the end.
 */
export async function retentionSettles(clock: ManualClock, intervalMs: number, list: Lister, retain: number): Promise<string[]> {
  const seen = new Set<string>();
  let names: string[] = [];
  for (let written = 1; written <= retain + 2; written++) {
    await clock.advance(intervalMs);
    names = await list();
    names.forEach((n) => seen.add(n));
    if (names.length !== Math.min(written, retain)) {
      throw new Error(`after ${written} snapshots with retain ${retain}, ${names.length} are kept: ${names.join(', ')}`);
    }
  }
  if (seen.size !== retain + 2) throw new Error(`${retain + 2} snapshots were due, ${seen.size} were written`);
  return names;
}

export interface ServeProcess {
  baseUrl: string;
  stdout: () => string;
  stop(): Promise<void>;
}

/** `node dist/cli.js serve --port 0 ...` as a child; resolves once it printed its base URL. */
export async function startServe(args: string[]): Promise<ServeProcess> {
  const child: ChildProcess = spawn(process.execPath, [`${ROOT}dist/cli.js`, 'serve', '--port', '0', ...args], {
    cwd: ROOT,
    env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '/tmp', NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const stop = (): Promise<void> => stopByPid(child);
  try {
    const baseUrl = await waitFor(async () => {
      if (child.exitCode !== null) throw new Error(`serve exited ${child.exitCode}: ${err}`);
      return /(http:\/\/127\.0\.0\.1:\d+\/v1)/.exec(out)?.[1];
    }, 'serve to print its address');
    return { baseUrl, stdout: () => out + err, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}
