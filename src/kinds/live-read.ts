import type { Address } from '../core/address.js';
import type { JsonObject } from '../core/json.js';
import { mountTable, record, type FieldShape, type TableShape } from '../core/json-shape.js';
import { checkLiveAnswer } from '../core/live-shape.js';
import { segmentProblem } from '../core/path-segment.js';
import type { LiveState } from '../core/resource.js';
import type { ClusterClient } from '../client/types.js';
import { refuseUnserved } from './feature.js';

/**
 * How every kind reads the server: a GET whose answer is checked against the shape the kind
 * expects (core/live-shape) before anything normalises it, and a LIST whose names are checked
 * for being addressable before any of them becomes an address. A 404 is "not there", unless it
 * says the server has no such path at all (kinds/feature.ts UnservedPathError): a server
 * without the feature is not a server without objects.
 */

const NOT_FOUND_OK = { okStatuses: [404] };

/** GET `path`: null on 404, else the answer when it has `shape` (a LiveShapeError when not). */
export async function readShaped(client: ClusterClient, path: string, shape: FieldShape): Promise<JsonObject | null> {
  const res = await client.request('GET', path, NOT_FOUND_OK);
  if (res.status === 404) {
    refuseUnserved(client, 'GET', path, res);
    return null;
  }
  // An object's read answers with its data: anything else (null, none) is not "empty".
  return checkLiveAnswer({ cluster: client.cluster, method: 'GET', path }, res.data as JsonObject, shape);
}

/** A LIST answer: `keys`, a list of strings (an empty list is a 404: http/logical.go respondLogical). */
const LIST_SHAPE = record({ keys: 'texts' }, ['keys']);

/**
 * LIST `path`: the names it holds (none on 404). A `keys` that is not a list of strings is a
 * LiveShapeError naming cluster, path and the item, like any other answer of the wrong shape.
 */
export async function listNames(client: ClusterClient, path: string): Promise<string[]> {
  const res = await client.request('LIST', path, NOT_FOUND_OK);
  if (res.status === 404) {
    refuseUnserved(client, 'LIST', path, res);
    return [];
  }
  const data = checkLiveAnswer({ cluster: client.cluster, method: 'LIST', path }, res.data, LIST_SHAPE);
  return (data?.['keys'] as string[] | null | undefined) ?? [];
}

/**
 * The names of a LIST answer that can be addressed. Each other name (`a/b`, `..`, a control
 * character: see core/path-segment) would address another object than the one it names, so it
 * never becomes an address: it is left alone, and a warning in the plan says so.
 */
export function addressableNames(names: readonly string[], collection: Address, what: string, notes: LiveState['notes']): string[] {
  const usable: string[] = [];
  for (const name of names) {
    if (segmentProblem(name) === undefined) {
      usable.push(name);
      continue;
    }
    // JSON quoting shows a control character as an escape, never raw to a terminal.
    notes.push({
      severity: 'warning',
      address: collection,
      message: `the server holds ${what} named ${JSON.stringify(name)} that cannot be addressed; lockstep leaves it alone`,
    });
  }
  return usable;
}

/**
 * `GET sys/auth` and `GET sys/mounts`: each `path/` entry an object naming its type, its config's
 * allowed_managed_keys a list (vault/logical_system.go mountInfo; a comma string is read too).
 */
export const MOUNT_TABLE_SHAPE: TableShape = mountTable(
  record({ type: 'text', config: record({ allowed_managed_keys: 'text-or-texts' }) }, ['type']),
);
