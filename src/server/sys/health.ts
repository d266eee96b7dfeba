import { ApiError } from '../http/reply.js';
import { readBool } from '../../values/index.js';
import type { Route } from '../http/router.js';
import type { ClusterServices } from '../services.js';

/**
 * `sys/health` (http/sys_health.go): answered without the envelope and without a token, for GET
 * and HEAD (Node leaves HEAD's body out). The status follows the node's state and the query:
 * `activecode` (200), `drsecondarycode` (472), `standbycode` (429), `performancestandbycode`
 * (473), `sealedcode` (503), `uninitcode` (501); `standbyok` / `perfstandbyok` must be booleans.
 * An emulated cluster is always initialised, unsealed and active, so only the active and DR
 * secondary codes can apply. A code or flag that does not parse is a 400 with no messages.
 */
export const healthRoute: Route = {
  pattern: 'sys/health',
  access: 'public',
  handlers: {
    read: ({ cluster, query }) => {
      const codes = statusCodes(query);
      const drSecondary = cluster.dr?.mode === 'secondary';
      return { kind: 'raw', status: drSecondary ? codes.drsecondarycode : codes.activecode, body: healthBody(cluster) };
    },
  },
};

const DEFAULT_CODES = {
  activecode: 200,
  standbycode: 429,
  drsecondarycode: 472,
  performancestandbycode: 473,
  sealedcode: 503,
  uninitcode: 501,
};

type HealthCodes = typeof DEFAULT_CODES;

function statusCodes(query: URLSearchParams): HealthCodes {
  for (const flag of ['standbyok', 'perfstandbyok']) {
    const value = query.get(flag);
    if (value !== null && readBool(value).kind === 'refused') throw new ApiError(400, []);
  }
  const codes = { ...DEFAULT_CODES };
  for (const name of Object.keys(codes) as Array<keyof HealthCodes>) {
    const value = query.get(name);
    if (value === null) continue;
    // strconv.Atoi; a code Go's WriteHeader would not take (outside 100-999) is refused here too.
    if (!/^[+-]?\d+$/.test(value)) throw new ApiError(400, []);
    const code = Number.parseInt(value, 10);
    if (code < 100 || code > 999) throw new ApiError(400, []);
    codes[name] = code;
  }
  return codes;
}

function healthBody(cluster: ClusterServices) {
  return {
    initialized: true,
    sealed: false,
    standby: false,
    performance_standby: false,
    replication_performance_mode: 'disabled',
    replication_dr_mode: cluster.dr?.mode ?? 'disabled',
    server_time_utc: Math.floor(cluster.clock.now() / 1000),
    version: cluster.release.reported,
    enterprise: true,
    cluster_name: cluster.name,
    cluster_id: cluster.id,
  };
}
