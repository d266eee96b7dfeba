import { badRequest } from '../http/reply.js';
import { toBool, toKvPairs, toStr } from '../util/fields.js';
import { isJsonObject, type JsonObject } from '../util/json.js';
import type { MountEntry, NewMount } from './mount-table.js';
import { applyTune } from './mount-view.js';

/** The body of `POST sys/auth/:path` and `POST sys/mounts/:path`. */
export function parseNewMount(body: JsonObject): NewMount {
  const type = toStr('type', body.type ?? '').trim();
  // vault/logical_system.go handleEnableAuth and handleMount.
  if (type === '') throw badRequest('backend type must be specified as a string');
  // `options` is a TypeKVPairs field: absent, its zero value, an empty map (shown as `{}`).
  const options = body.options === undefined ? {} : toKvPairs('options', body.options);
  const config = body.config ?? {};
  if (!isJsonObject(config)) throw badRequest('config must be an object');
  // The mount's config takes the same members as a tune.
  const tuned = applyTune(blankMount(), config);
  return {
    type,
    description: toStr('description', body.description ?? ''),
    local: toBool('local', body.local ?? false),
    seal_wrap: toBool('seal_wrap', body.seal_wrap ?? false),
    options,
    config: tuned.config,
  };
}

function blankMount(): MountEntry {
  return {
    kind: 'secret',
    path: '',
    type: '',
    description: '',
    accessor: '',
    uuid: '',
    local: false,
    seal_wrap: false,
    options: null,
    config: { default_lease_ttl: 0, max_lease_ttl: 0, force_no_cache: false, allowed_managed_keys: [] },
  };
}
