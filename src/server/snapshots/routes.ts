/**
 * `sys/storage/raft/snapshot-auto/...`: configurations need sudo (on the emulator: the root
 * token; others get 403 permission denied); the status read only needs a valid token.
 */
import type { ApiRequest } from '../http/api-request.js';
import { ApiError, keyList, noContent, notFound, ok, written, type Reply } from '../http/reply.js';
import type { Route } from '../http/router.js';
import type { JsonObject } from '../util/json.js';
import { configView, parseConfigWrite } from './config.js';
import { configKey, configNames, storedConfig } from './config-store.js';

const BASE = 'sys/storage/raft/snapshot-auto';

export const snapshotAutoRoutes: Route[] = [
  { pattern: `${BASE}/config/?`, access: 'acl', handlers: { list: listConfigs } },
  {
    pattern: `${BASE}/config/:name`,
    access: 'acl',
    handlers: { read: readConfig, update: writeConfig, delete: deleteConfig },
  },
  { pattern: `${BASE}/status/:name`, access: 'acl', handlers: { read: readStatus } },
];

function listConfigs(req: ApiRequest): Reply {
  return keyList(configNames(req.cluster.store));
}

function readConfig(req: ApiRequest): Reply {
  const config = storedConfig(req.cluster.store, req.params.name!);
  if (!config) throw notFound();
  return ok(configView(config));
}

async function writeConfig(req: ApiRequest): Promise<Reply> {
  const parsed = parseConfigWrite(req.body);
  if (!parsed.ok) throw new ApiError(400, parsed.errors);
  // The scheduler hears the write and (re)starts this configuration's schedule.
  await req.cluster.store.put(configKey(req.params.name!), parsed.config as unknown as JsonObject);
  return written(parsed.warnings, parsed.ignored);
}

async function deleteConfig(req: ApiRequest): Promise<Reply> {
  await req.cluster.store.delete(configKey(req.params.name!));
  return noContent();
}

function readStatus(req: ApiRequest): Reply {
  const status = req.cluster.snapshots.status(req.params.name!);
  if (!status) throw notFound();
  return ok(status);
}
