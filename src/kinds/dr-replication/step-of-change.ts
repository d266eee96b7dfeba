import type { JsonObject } from '../../core/json.js';
import type { Change } from '../../core/plan.js';
import { DR_BASE } from './addresses.js';
import type { Step } from './steps.js';

/**
 * The step a planned change stands for, rebuilt from its address and its `before`/`after`
 * (they hold every parameter except secrets), so apply runs exactly what was reviewed.
 */
export function stepOfChange(change: Change): Step {
  const cluster = change.address.cluster;
  const segments = change.address.segments;
  const base = DR_BASE.split('/');
  if (!base.every((s, i) => segments[i] === s)) throw new Error(`${change.address} is not a DR replication step`);
  const [role, action, ...rest] = segments.slice(base.length);
  const after: JsonObject = change.after ?? {};
  const before: JsonObject = change.before ?? {};
  const endpoint = [role, action].join('/');
  switch (endpoint) {
    case 'primary/enable':
      return { op: 'enable-primary', cluster, primaryClusterAddr: text(after['primary_cluster_addr']) };
    case 'primary/demote':
      return { op: 'demote', cluster, newPrimary: text(after['new_primary']) };
    case 'primary/disable':
      return { op: 'disable-primary', cluster };
    case 'secondary/promote':
      return { op: 'promote', cluster, primaryClusterAddr: text(after['primary_cluster_addr']), force: after['force'] === true, unreachable: [] };
    case 'secondary/generate-public-key':
      return { op: 'generate-public-key', cluster };
    case 'primary/secondary-token':
      return { op: 'secondary-token', cluster, secondary: text(after['id']) || rest.join('/'), ttlSeconds: Number(after['ttl']) };
    case 'secondary/enable':
    case 'secondary/update-primary':
      return {
        op: action === 'enable' ? 'enable-secondary' : 'update-primary',
        cluster,
        primary: text(after['follows']),
        options: { primary_api_addr: text(after['primary_api_addr']), ca_file: text(after['ca_file']), ca_path: text(after['ca_path']) },
      };
    case 'primary/revoke-secondary':
      return { op: 'revoke-secondary', cluster, secondaryId: text(before['secondary_id']) || rest.join('/') };
    case 'secondary/disable':
      return { op: 'disable-secondary', cluster };
    case 'secondary/operation-token':
      if (rest[0] === 'delete') return { op: 'delete-operation-token', cluster };
      break;
  }
  throw new Error(`${change.address} is not a DR replication step lockstep knows`);
}

function text(v: JsonObject[string] | undefined): string {
  return typeof v === 'string' ? v : '';
}
