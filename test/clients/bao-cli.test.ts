import { diffArrays } from 'diff';
import { describe, expect, it } from 'vitest';
import type { CliResult } from '../support/cli.js';
import { useForFile } from '../support/file-scoped.js';
import { binaryClient, useRealServer, type RealServer } from '../support/real-server.js';
import { startTestServer, type TestCluster } from '../support/server.js';
import { ldapSettingsFor, startSlapd, USERS, type Slapd } from '../support/slapd.js';

/**
 * #22.4: the service's own CLI (OpenBao's `bao`, test/setup/openbao.sh), a real client nobody
 * here wrote, against `lockstep serve` over HTTP and against a real `bao server -dev`, the same
 * commands in the same order against both: each must succeed (or fail) alike and print the same,
 * once `normalise` took out what is random (tokens, accessors, ids, times, cluster names,
 * versions). What still differs is declared at its step, with the source that explains it: the
 * emulator answers as Vault Enterprise (hashicorp/vault), the real server is OpenBao
 * (openbao/openbao), and where the two differ Vault's source wins.
 */
const real = useRealServer();
const fixtures = useForFile(
  async () => {
    const slapd = await startSlapd();
    try {
      return { slapd, emulator: await startTestServer() };
    } catch (err) {
      await slapd.stop();
      throw err;
    }
  },
  async ({ slapd, emulator }) => {
    await emulator.server.close();
    await slapd.stop();
  },
  60_000,
);

interface Target {
  name: 'real' | 'emulated';
  addr: string;
  token: string;
  bao: RealServer['client'];
}

function targets(): [Target, Target] {
  const emulator: TestCluster = fixtures().emulator;
  const addr = new URL(emulator.baseUrl).origin;
  return [
    { name: 'real', addr: real().addr, token: real().token, bao: binaryClient(real().addr, real().token) },
    { name: 'emulated', addr, token: emulator.token, bao: binaryClient(addr, emulator.token) },
  ];
}

/**
 * The one place where output is made comparable: only values that are random per server or per
 * run are replaced, each by a placeholder naming what it was. Column padding is collapsed too:
 * the CLI pads table columns to their widest value, which the replaced values change.
 */
function normalise(text: string, target: Target): string[] {
  const RANDOM_KEYS = [
    // tokens and their accessors, ids of namespaces and mounts
    'token',
    'token_accessor',
    'accessor',
    'id',
    'uuid',
    'request_id',
    // a token's creation in Unix seconds; what is left of its time to live counts down with the clock
    'creation_time',
    'ttl',
    // the cluster's identity and release
    'Cluster Name',
    'Cluster ID',
    'Version',
  ];
  const keyed = new RegExp(`^(\\s*"?(?:${RANDOM_KEYS.join('|')})"?(?::\\s*|\\s{2,}))(?!null|<nil>|n/a|0s?$)("?)[^"\\s]+("?,?)$`);
  return text
    .split(target.addr)
    .join('<addr>')
    .split(target.token)
    .join('<root token>')
    .split('\n')
    .map((line) =>
      line
        .replace(keyed, '$1$2<random>$3')
        // Only times in the form Go's encoding/json writes a time.Time (RFC 3339, the fraction's
        // trailing zeros dropped): another form is a difference.
        .replace(/\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d*[1-9])?Z(?![\w.])/g, '<time>')
        .replace(/\b((?:auth_)?[a-z]+)_[0-9a-f]{8}\b/g, '$1_<random>')
        .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g, '<uuid>')
        .replace(/\bv\d+\.\d+\.\d+\+builtin\.(?:bao|vault)\b/g, '<builtin version>')
        .replace(/(\S) {2,}/g, '$1  ')
        .trimEnd(),
    );
}

/** A difference between the real server's output and the emulator's that is not a fault of the emulator. */
interface Known {
  /** Lines (after normalise) only the real server's output has. */
  real?: string[];
  /** Lines only the emulator's output has. */
  emulated?: string[];
  /** The exit code against the emulator, where the client fails on its answer. */
  emulatedExit?: number;
  /** Why, with the sources that say so. */
  because: string;
}

interface Step {
  args: string[];
  /** The token each server gets (default: its root token). */
  tokens?: Record<Target['name'], string>;
  known?: Known;
}

interface Compared {
  real: CliResult;
  emulated: CliResult;
}

/**
 * Runs `step` with the CLI against both servers; fails unless both exit alike and what differs
 * between their normalised output is exactly what the step declares.
 */
async function same(step: Step): Promise<Compared> {
  const [r, e] = targets();
  const [realRun, emulatedRun] = await Promise.all([r.bao(step.args, { token: step.tokens?.real }), e.bao(step.args, { token: step.tokens?.emulated })]);
  const realLines = normalise(realRun.stdout + realRun.stderr, r);
  const emulatedLines = normalise(emulatedRun.stdout + emulatedRun.stderr, e);
  const onlyReal: string[] = [];
  const onlyEmulated: string[] = [];
  for (const part of diffArrays(realLines, emulatedLines)) {
    if (part.removed) onlyReal.push(...part.value);
    if (part.added) onlyEmulated.push(...part.value);
  }
  const shown = `bao ${step.args.join(' ')}\n--- real (${real().release}), exit ${realRun.code}:\n${realLines.join('\n')}\n--- emulated, exit ${emulatedRun.code}:\n${emulatedLines.join('\n')}`;
  expect({ exit: emulatedRun.code, onlyReal, onlyEmulated }, shown).toEqual({
    exit: step.known?.emulatedExit ?? realRun.code,
    onlyReal: step.known?.real ?? [],
    onlyEmulated: step.known?.emulated ?? [],
  });
  return { real: realRun, emulated: emulatedRun };
}

async function sameAll(steps: Step[]): Promise<void> {
  for (const step of steps) await same(step);
}

/** The token a `login` or `token create` table shows (its `token` row). */
function tokenShown(run: CliResult): string {
  const token = /^token\s+(\S+)$/m.exec(run.stdout)?.[1];
  if (token === undefined) throw new Error(`no token in:\n${run.stdout}`);
  return token;
}

function ldapConfigArgs(slapd: Slapd): string[] {
  const s = ldapSettingsFor(slapd);
  return [`url=${s.url}`, `binddn=${s.binddn}`, `bindpass=${s.bindpass}`, `userdn=${s.userdn}`, `groupdn=${s.groupdn}`, 'userattr=uid', 'token_ttl=1h', 'token_policies=dev'];
}

/**
 * LDAP config fields one side has and the other not. Vault 1.21: builtin/credential/ldap/
 * path_config.go adds the automated root rotation fields (sdk/helper/automatedrotationutil:
 * rotation_period, rotation_schedule, rotation_window, disable_automated_rotation, alias_metadata) and
 * password_policy, rotation_url, rotation_schema, rotation_credential_type;
 * sdk/helper/ldaputil/config.go adds enable_samaccountname_login. OpenBao: its
 * sdk/helper/tokenutil/tokenutil.go adds token_strictly_bind_ip.
 */
const LDAP_CONFIG_FIELDS_BECAUSE = 'Vault 1.21 (builtin/credential/ldap/path_config.go, sdk/helper/ldaputil/config.go) has fields OpenBao 2.6 lacks, OpenBao (sdk/helper/tokenutil/tokenutil.go) one Vault lacks';

/** Each step runs the CLI twice (about half a second each on a loaded machine). */
const SEQUENCE_TIMEOUT = 120_000;

describe('#22.4 the bao CLI against serve prints what it prints against the real server', () => {
  it('status, auth enable and auth list', async () => {
    await sameAll([
      {
        args: ['status'],
        known: {
          real: ['Commit Date  <time>'],
          because:
            "OpenBao's seal-status names the build time commit_date (openbao internal/vault/logical_system.go CoreSealStatusResponse), which the bao CLI prints; Vault's is build_date (vault/logical_system.go SealStatusResponse), which it does not",
        },
      },
      { args: ['auth', 'list'] },
      { args: ['secrets', 'list'] },
      { args: ['auth', 'enable', 'ldap'] },
      { args: ['auth', 'list'] },
      { args: ['auth', 'list', '-detailed'] },
    ]);
  }, SEQUENCE_TIMEOUT);

  it('write, read, list and delete on the LDAP paths', async () => {
    const { slapd } = fixtures();
    await sameAll([
      { args: ['write', 'auth/ldap/config', ...ldapConfigArgs(slapd)] },
      {
        args: ['read', 'auth/ldap/config'],
        known: {
          real: ['token_strictly_bind_ip  false'],
          emulated: [
            'alias_metadata  map[]',
            'disable_automated_rotation  false',
            'enable_samaccountname_login  false',
            'password_policy  n/a',
            'rotation_credential_type  password',
            'rotation_period  0s',
            'rotation_schedule  n/a',
            'rotation_schema  openldap',
            'rotation_url  n/a',
            'rotation_window  0',
          ],
          because: LDAP_CONFIG_FIELDS_BECAUSE,
        },
      },
      {
        args: ['read', '-format=json', 'auth/ldap/config'],
        known: {
          real: ['    "token_strictly_bind_ip": false,'],
          emulated: [
            '    "alias_metadata": {},',
            '    "disable_automated_rotation": false,',
            '    "enable_samaccountname_login": false,',
            '    "password_policy": "",',
            '    "rotation_credential_type": "password",',
            '    "rotation_period": 0,',
            '    "rotation_schedule": "",',
            '    "rotation_schema": "openldap",',
            '    "rotation_url": "",',
            '    "rotation_window": 0,',
          ],
          because: LDAP_CONFIG_FIELDS_BECAUSE,
        },
      },
      { args: ['write', 'auth/ldap/groups/admins', 'policies=admin,audit'] },
      { args: ['write', 'auth/ldap/groups/devs', 'policies=dev'] },
      { args: ['write', 'auth/ldap/users/alice', 'policies=oncall', 'groups=admins,devs'] },
      { args: ['list', 'auth/ldap/groups'] },
      { args: ['list', 'auth/ldap/users'] },
      { args: ['read', 'auth/ldap/groups/admins'] },
      { args: ['read', 'auth/ldap/users/alice'] },
      { args: ['read', '-format=json', 'auth/ldap/users/alice'] },
      { args: ['read', 'auth/ldap/groups/nobody'] },
      {
        args: ['write', 'auth/ldap/config', 'token_ttl=soon'],
        known: {
          real: ['* Field validation failed: error converting input for field "token_ttl": time: invalid duration "soon"'],
          emulated: ['* Field validation failed: error converting input soon for field "token_ttl": time: invalid duration "soon"'],
          because: 'Vault names the value in a conversion error (sdk/framework/field_data.go: "error converting input %v for field %q"); OpenBao dropped it. See docs/real-server-differences.md',
        },
      },
      { args: ['write', 'auth/ldap/groups/ops', 'policies=ops', 'nonsense=1'] },
      { args: ['delete', 'auth/ldap/config'] },
      { args: ['delete', 'auth/ldap/groups/devs'] },
      { args: ['read', 'auth/ldap/groups/devs'] },
      { args: ['list', 'auth/ldap/groups'] },
      { args: ['delete', 'auth/ldap/groups/devs'] },
    ]);
  }, SEQUENCE_TIMEOUT);

  it('login -method=ldap against the directory; the login token looks itself up', async () => {
    const login = await same({ args: ['login', '-method=ldap', '-no-store', 'username=alice', `password=${USERS.alice.password}`] });
    await same({ args: ['token', 'lookup'], tokens: { real: tokenShown(login.real), emulated: tokenShown(login.emulated) } });
    await same({ args: ['login', '-method=ldap', '-no-store', 'username=alice', 'password=wrong'] });
    await same({ args: ['login', '-method=ldap', '-no-store', 'username=nobody', 'password=whatever'] });
  }, SEQUENCE_TIMEOUT);

  it('token create, token lookup', async () => {
    await same({
      args: ['token', 'lookup'],
      known: {
        real: ['display_name  token', 'path  auth/token/create'],
        emulated: ['display_name  root', 'path  auth/token/root'],
        because:
          "the real server's root token is made by `server -dev -dev-root-token-id`, through auth/token/create (openbao command/server.go); serve's is the one initialisation makes (vault/token_store.go rootToken: display name root, path auth/token/root)",
      },
    });
    const created = await same({ args: ['token', 'create', '-policy=default', '-ttl=30m', '-display-name=ci'] });
    const child = { real: tokenShown(created.real), emulated: tokenShown(created.emulated) };
    await same({ args: ['token', 'lookup'], tokens: child });
    await same({ args: ['token', 'lookup', '-format=json'], tokens: child });
  }, SEQUENCE_TIMEOUT);

  it('namespace create, list and lookup', async () => {
    await sameAll([
      { args: ['namespace', 'list'] },
      {
        args: ['namespace', 'create', 'team-a'],
        known: {
          real: ['uuid  <random>'],
          emulated: ['uuid  n/a'],
          because: "OpenBao's namespaces carry a uuid (openbao vault/namespace.go); Vault Enterprise's do not (website/content/api-docs/system/namespaces.mdx)",
        },
      },
      { args: ['namespace', 'list'] },
      { args: ['namespace', 'lookup', 'team-a'], known: { real: ['uuid  <random>'], emulated: ['uuid  n/a'], because: 'as for create' } },
      { args: ['namespace', 'lookup', 'team-b'] },
      { args: ['auth', 'list', '-namespace=team-a'] },
      { args: ['secrets', 'list', '-namespace=team-a'] },
      {
        args: ['namespace', 'delete', 'team-a'],
        known: {
          real: ['Success! Namespace deletion scheduled: team-a/'],
          emulated: ['Error deleting namespace: EOF'],
          emulatedExit: 2,
          because:
            "OpenBao deletes a namespace in the background and answers 200 with data.status (openbao internal/command/namespace_delete.go reads it, and fails on no body); Vault Enterprise answers 204, which Vault's own CLI expects (hashicorp/vault command/namespace_delete.go: a nil secret is 'Success! Namespace deleted at')",
        },
      },
    ]);
  }, SEQUENCE_TIMEOUT);
});

describe("#22.4 what serve answers so that the CLI prints the service's output", () => {
  it('sys/leader, to any client: one node without HA (vault/logical_system.go GetLeaderStatus, LeaderResponse; http/sys_leader.go)', async () => {
    const res = await fetch(`${fixtures().emulator.baseUrl}/sys/leader`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      ha_enabled: false,
      is_self: false,
      active_time: '0001-01-01T00:00:00Z',
      leader_address: '',
      leader_cluster_address: '',
      performance_standby: false,
      performance_standby_last_remote_wal: 0,
      last_wal: expect.any(Number),
    });
  });

  it('times as encoding/json writes a Go time.Time: no fraction on a whole second (vault/token_store.go handleLookup issue_time)', async () => {
    const self = (await fixtures().emulator.raw('GET', 'auth/token/lookup-self')).body as { data: { issue_time: string } };
    expect(self.data.issue_time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it('nothing serves a path: the router names it when no mount holds it, the backend says "unsupported path" (vault/router.go routeCommon, sdk/framework/backend.go HandleRequest)', async () => {
    const emulator = fixtures().emulator;
    expect(await emulator.raw('GET', 'auth/nothing/config')).toEqual({ status: 404, body: { errors: ['no handler for route "auth/nothing/config". route entry not found.'] } });
    expect(await emulator.raw('LIST', 'nothing/here')).toEqual({ status: 404, body: { errors: ['no handler for route "nothing/here/". route entry not found.'] } });
    expect(await emulator.raw('GET', 'sys/nothing')).toEqual({ status: 404, body: { errors: ['1 error occurred:\n\t* unsupported path\n\n'] } });
    expect(await emulator.raw('GET', 'auth/token/nothing')).toEqual({ status: 404, body: { errors: ['1 error occurred:\n\t* unsupported path\n\n'] } });
    expect(await emulator.raw('GET', 'secret/data/x')).toEqual({ status: 404, body: { errors: ['1 error occurred:\n\t* unsupported path\n\n'] } });
  });

  it('an operation a path does not have is 405 in the wording request handling gives it (sdk/framework/backend.go, vault/request_handling.go)', async () => {
    expect(await fixtures().emulator.raw('GET', 'sys/managed-keys/pkcs11')).toEqual({ status: 405, body: { errors: ['1 error occurred:\n\t* unsupported operation\n\n'] } });
  });

  it('token create parses its own ttl and answers the parser\'s words (vault/token_store.go handleCreateCommon)', async () => {
    expect(await fixtures().emulator.raw('POST', 'auth/token/create', { ttl: 'soon' })).toEqual({
      status: 400,
      body: { errors: ['time: invalid duration "soon"'] },
    });
  });
});
