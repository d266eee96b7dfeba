import { encodeOperationToken } from '../../../../src/kinds/dr-replication/otp.js';
import { SHARE_BYTES, SHARE_THRESHOLD, type ActivationToken, type World, type WorldCluster } from './world-state.js';

export interface WorldResponse {
  status: number;
  body: Record<string, unknown> | null;
  /** A generated operation token carried by this answer (the client marks it delivered). */
  generatedToken?: string;
}

const OTP_LENGTH = 28;
const DR = 'sys/replication/dr/';

/**
 * Serves one request against the world, as the spec's DR state table and the reference's
 * facts describe the service (plus the choices lockstep's applier expects, documented in the
 * report for the embedded server). Answers with the envelope except for operation-token
 * generation, which answers without it.
 */
export function handle(world: World, name: string, method: string, path: string, body: Record<string, unknown>): WorldResponse {
  const c = world.cluster(name);
  // http/sys_health.go: no envelope; a DR secondary answers 472.
  if (method === 'GET' && path === 'sys/health') return { status: c.mode === 'secondary' ? 472 : 200, body: { version: c.release, replication_dr_mode: c.mode } };
  if (!path.startsWith(DR)) return error(404, 'unsupported path');
  const endpoint = path.slice(DR.length);
  const key = `${method} ${endpoint}`;
  c.wal++;
  switch (key) {
    case 'GET status':
      return envelope(status(world, c));
    case 'POST primary/enable':
      if (c.mode !== 'disabled') return error(400, 'DR replication is already enabled on this cluster');
      c.mode = 'primary';
      c.clusterId = world.unique('cid-');
      c.primaryClusterAddr = str(body['primary_cluster_addr']) || c.clusterAddr;
      c.knownSecondaries = new Set();
      c.secondaryId = '';
      world.primaryCreated(c.name);
      return noContent();
    case 'POST primary/demote':
      if (c.mode !== 'primary') return error(400, 'this cluster is not a DR primary');
      c.mode = 'secondary';
      c.primaryClusterAddr = '';
      c.knownSecondaries = new Set();
      c.secondaryId = '';
      c.synced = true;
      c.stalePrimary = false;
      return noContent();
    case 'POST primary/disable':
      if (c.mode !== 'primary') return error(400, 'this cluster is not a DR primary');
      c.mode = 'disabled';
      c.stalePrimary = false;
      world.recordDestructive(c, 'primary disable');
      return noContent();
    case 'POST primary/secondary-token':
      return secondaryToken(world, c, body);
    case 'POST primary/revoke-secondary': {
      if (c.mode !== 'primary') return error(400, 'this cluster is not a DR primary');
      const id = str(body['id']);
      c.knownSecondaries.delete(id);
      for (const t of world.activation) if (t.issuer === c.name && t.id === id) t.revoked = true;
      return noContent();
    }
    case 'POST secondary/generate-public-key':
      if (c.mode === 'primary') return error(400, 'a DR primary cannot generate a secondary public key');
      c.publicKey = world.unique(`pk-${c.name}-`);
      return envelope({ public_key: c.publicKey });
    case 'POST secondary/enable':
      return enableSecondary(world, c, body);
    case 'POST secondary/update-primary':
      return updatePrimary(world, c, body);
    case 'POST secondary/promote': {
      if (c.mode !== 'secondary') return error(400, 'this cluster is not a DR secondary');
      if (!validOperationToken(c, body)) return error(400, 'invalid DR operation token');
      if (!c.synced && body['force'] !== true) return error(400, 'safety checks failed: the secondary is still syncing (merkle-sync); use force to promote anyway');
      c.mode = 'primary';
      c.primaryClusterAddr = str(body['primary_cluster_addr']) || c.clusterAddr;
      c.knownSecondaries = new Set();
      c.secondaryId = '';
      world.primaryCreated(c.name);
      return noContent();
    }
    case 'POST secondary/disable':
      if (c.mode !== 'secondary') return error(400, 'this cluster is not a DR secondary');
      if (!validOperationToken(c, body)) return error(400, 'invalid DR operation token');
      c.mode = 'disabled';
      c.primaryClusterAddr = '';
      world.recordDestructive(c, 'secondary disable');
      return noContent();
    case 'POST secondary/operation-token/delete': {
      if (!validOperationToken(c, body)) return error(400, 'invalid DR operation token');
      const token = str(body['dr_operation_token']);
      c.operationTokens.delete(token);
      world.tokenGone(token);
      return noContent();
    }
    case 'GET secondary/generate-operation-token/attempt':
      return bare(attemptStatus(c));
    case 'POST secondary/generate-operation-token/attempt': {
      if (c.mode !== 'secondary') return error(400, 'operation tokens are generated on a DR secondary');
      if (c.attempt) return error(400, 'an operation token generation attempt is already in progress');
      const otp = world.secret('otp', OTP_LENGTH);
      c.attempt = { nonce: world.unique('nonce-'), otp, progress: 0, given: [] };
      return bare({ ...attemptStatus(c), otp });
    }
    case 'DELETE secondary/generate-operation-token/attempt':
      c.attempt = undefined;
      return noContent();
    case 'POST secondary/generate-operation-token/update':
      return attemptUpdate(world, c, body);
    default:
      return error(405, `unsupported operation ${key}`);
  }
}

function status(world: World, c: WorldCluster): Record<string, unknown> {
  switch (c.mode) {
    case 'disabled':
      return { mode: 'disabled' };
    case 'primary':
      return {
        mode: 'primary',
        cluster_id: c.clusterId,
        state: 'running',
        known_secondaries: [...c.knownSecondaries],
        secondaries: [...c.knownSecondaries].map((id) => ({ node_id: id, connection_status: 'connected', last_heartbeat: new Date(world.clock * 1000 + c.wal).toISOString() })),
        last_wal: c.wal,
        merkle_root: `m${c.wal}`,
        primary_cluster_addr: c.primaryClusterAddr,
      };
    case 'secondary': {
      const primary = [...world.clusters.values()].find((p) => world.follows(c, p));
      const connected = primary?.reachable === true;
      return {
        mode: 'secondary',
        cluster_id: c.clusterId,
        state: !primary ? 'idle' : c.synced ? 'stream-wals' : 'merkle-sync',
        // As the embedded server reports it (never "disconnected"): idle without a primary.
        connection_state: !primary ? 'idle' : connected ? 'ready' : 'transient_failure',
        known_primary_cluster_addrs: c.primaryClusterAddr ? [c.primaryClusterAddr] : [],
        // What it applied of its primary's writes: all of them once synced and connected.
        last_remote_wal: primary && connected && c.synced ? primary.wal : 0,
        primary_cluster_addr: c.primaryClusterAddr,
        secondary_id: c.secondaryId,
      };
    }
  }
}

function secondaryToken(world: World, c: WorldCluster, body: Record<string, unknown>): WorldResponse {
  if (c.mode !== 'primary') return error(400, 'this cluster is not a DR primary');
  const id = str(body['id']);
  if (id === '') return error(400, 'id is required');
  if (c.knownSecondaries.has(id)) return error(400, `a secondary with id "${id}" already exists; revoke it first`);
  const ttl = /^([0-9]+)s$/.exec(str(body['ttl']) || '1800s');
  if (!ttl) return error(400, 'invalid ttl');
  // A new token for the same id replaces one not yet used.
  for (const t of world.activation) if (t.issuer === c.name && t.id === id && !t.used) t.revoked = true;
  const token: ActivationToken = {
    token: world.secret(`act-${id}-`),
    id,
    issuer: c.name,
    clusterId: c.clusterId,
    primaryClusterAddr: c.primaryClusterAddr,
    expiresAt: world.clock + Number(ttl[1]),
    publicKey: str(body['secondary_public_key']),
    used: false,
    revoked: false,
  };
  world.activation.push(token);
  return token.publicKey ? envelope({ token: token.token }) : { status: 200, body: { request_id: 'r', data: null, wrap_info: { token: token.token } } };
}

/** The activation token a secondary presents, or why it is refused. */
function activation(world: World, c: WorldCluster, text: string): ActivationToken | string {
  const t = world.activation.find((a) => a.token === text);
  if (!t || t.used || t.revoked) return 'invalid activation token';
  if (world.clock > t.expiresAt) return 'activation token expired';
  if (t.publicKey && t.publicKey !== c.publicKey) return 'activation token was encrypted for another key';
  const issuer = world.cluster(t.issuer);
  if (!issuer.reachable) return `cannot reach the primary ${issuer.name}`;
  if (issuer.mode !== 'primary' || issuer.clusterId !== t.clusterId) return 'the issuing cluster is no longer that DR primary';
  return t;
}

function join(world: World, c: WorldCluster, t: ActivationToken): void {
  t.used = true;
  c.mode = 'secondary';
  c.clusterId = t.clusterId;
  c.secondaryId = t.id;
  c.primaryClusterAddr = t.primaryClusterAddr;
  world.cluster(t.issuer).knownSecondaries.add(t.id);
}

function enableSecondary(world: World, c: WorldCluster, body: Record<string, unknown>): WorldResponse {
  if (c.mode !== 'disabled') return error(400, 'DR replication is already enabled on this cluster');
  const t = activation(world, c, str(body['token']));
  if (typeof t === 'string') return error(400, t);
  world.wipe(c);
  join(world, c, t);
  c.synced = false;
  return noContent();
}

function updatePrimary(world: World, c: WorldCluster, body: Record<string, unknown>): WorldResponse {
  if (c.mode !== 'secondary') return error(400, 'this cluster is not a DR secondary');
  if (!validOperationToken(c, body)) return error(400, 'invalid DR operation token');
  if (str(body['token']) === '') {
    c.primaryClusterAddr = '';
    return noContent();
  }
  const t = activation(world, c, str(body['token']));
  if (typeof t === 'string') return error(400, t);
  if (t.clusterId !== c.clusterId) return error(400, 'the primary belongs to another replication set: enable the secondary again (wipe)');
  join(world, c, t);
  c.synced = false;
  return noContent();
}

function attemptStatus(c: WorldCluster): Record<string, unknown> {
  return {
    started: c.attempt !== undefined,
    nonce: c.attempt?.nonce ?? '',
    progress: c.attempt?.progress ?? 0,
    required: SHARE_THRESHOLD,
    complete: false,
    encoded_token: '',
    pgp_fingerprint: '',
    otp_length: OTP_LENGTH,
  };
}

function attemptUpdate(world: World, c: WorldCluster, body: Record<string, unknown>): WorldResponse {
  const attempt = c.attempt;
  if (!attempt) return error(400, 'no operation token generation attempt in progress');
  if (str(body['nonce']) !== attempt.nonce) return error(400, 'nonce does not match the attempt');
  const key = str(body['key']);
  const bytes = /^[0-9a-f]+$/i.test(key) && key.length % 2 === 0 ? Buffer.from(key, 'hex') : Buffer.from(key, 'base64');
  const share = bytes.toString('hex');
  if (!SHARE_BYTES.includes(share)) return error(400, 'invalid key share');
  if (attempt.given.includes(share)) return error(400, 'key share already given');
  attempt.given.push(share);
  attempt.progress++;
  if (attempt.progress < SHARE_THRESHOLD) return bare({ ...attemptStatus(c), complete: false });
  const token = world.secret(`dro.${c.name}.`, OTP_LENGTH);
  c.operationTokens.add(token);
  c.attempt = undefined;
  world.generated.set(token, { cluster: c.name, delivered: false, deleted: false, deleteAttempted: false, apply: world.applyNumber });
  const encoded = encodeOperationToken(token, attempt.otp);
  world.secrets.add(encoded);
  return { ...bare({ started: true, nonce: attempt.nonce, progress: attempt.progress, required: SHARE_THRESHOLD, complete: true, encoded_token: encoded }), generatedToken: token };
}

function validOperationToken(c: WorldCluster, body: Record<string, unknown>): boolean {
  return c.operationTokens.has(str(body['dr_operation_token']));
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

function envelope(data: Record<string, unknown>): WorldResponse {
  return { status: 200, body: { request_id: 'r', lease_id: '', renewable: false, lease_duration: 0, data, wrap_info: null, warnings: null, auth: null } };
}

function bare(body: Record<string, unknown>): WorldResponse {
  return { status: 200, body };
}

function noContent(): WorldResponse {
  return { status: 204, body: null };
}

function error(status: number, message: string): WorldResponse {
  return { status, body: { errors: [message] } };
}
