import { NAMESPACE_RESOURCE_TYPE } from '../../core/namespace-path.js';
import { assertNever, type Change } from '../../core/plan.js';
import type { DesiredResource } from '../../core/resource.js';
import type { ApplyContext } from '../kind.js';

/**
 * Carries out one namespace change. A create is `POST <parent/>sys/namespaces/<name>` with its
 * custom metadata. An update is a JSON merge patch of the metadata (`PATCH`, as the service
 * documents it: a POST on an existing namespace replaces its metadata on OpenBao and is not
 * documented as an update on Vault): the keys the manifest sets, and `null` for each key the
 * server holds that it no longer does. A delete is a DELETE (the plan refused it unless the
 * namespace was empty).
 */
export async function applyNamespaceChange(change: Change, desired: DesiredResource | undefined, { client }: ApplyContext): Promise<void> {
  if (change.resourceType !== NAMESPACE_RESOURCE_TYPE) throw new Error(`${change.address}: unknown namespace resource type ${change.resourceType}`);
  // The change's own segments, encoded by the client: never text split again.
  const path = change.address;
  switch (change.action) {
    case 'create':
      if (!desired) throw new Error(`${change.address}: no desired namespace to create`);
      await client.write(path, { custom_metadata: metadataOf(desired.attrs['custom_metadata']) }, { idempotent: true });
      return;
    case 'update': {
      if (!desired) throw new Error(`${change.address}: no desired namespace to update`);
      await client.request('PATCH', path, { body: { custom_metadata: metadataPatch(change.before?.['custom_metadata'], desired.attrs['custom_metadata']) } });
      return;
    }
    case 'delete':
      await client.delete(path);
      return;
    case 'transition':
      throw new Error(`${change.address}: namespaces have no transitions`);
    default:
      assertNever(change.action);
  }
}

/** A merge patch from `before` to `after` (maps of strings): every key of `after`, `null` for each key only `before` has. */
export function metadataPatch(before: unknown, after: unknown): Record<string, string | null> {
  const patch: Record<string, string | null> = {};
  for (const key of Object.keys(metadataOf(before))) patch[key] = null;
  return { ...patch, ...metadataOf(after) };
}

function metadataOf(value: unknown): Record<string, string> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return {};
  return Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string'));
}
