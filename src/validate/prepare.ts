import { KIND_NAMES, loadKinds } from '../kinds/registry.js';
import { prepareWithKinds } from './pipeline.js';
import type { Prepared, PrepareOptions } from './types.js';

export type { Prepared, PrepareOptions } from './types.js';

/**
 * The one entry point of the commands: loads the manifests under `paths`, validates them
 * (schema, references, clusters, semantic rules) and, when nothing is wrong, normalises them
 * into desired state per kind. Never sends a request.
 */
export function prepare(paths: string[], opts: PrepareOptions): Promise<Prepared> {
  return prepareWithKinds(paths, opts, { names: KIND_NAMES, load: loadKinds });
}
