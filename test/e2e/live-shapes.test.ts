/**
 * Finding 13.9 and the server side of 13.1/13.2, end to end: the built CLI against the embedded
 * server behind a proxy that rewrites chosen answers into shapes the real service never gives,
 * or adds names that cannot be addressed. Wrong shapes are an error naming cluster, path and
 * field (exit 1, no stack, no value); unaddressable names are shown and never acted on.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HUGE_NUMBER } from '../support/answer-proxy.js';
import { runCli, type CliResult } from '../support/cli.js';
import { EXAMPLE_LDAP_AUTH } from '../support/ldap-e2e.js';
import { useProxiedServer } from '../support/proxied-server.js';

const BINDPASS = 'canary-bindpass-shape-5e1d';
const AWS_SECRET = 'canary-aws-secret-shape-90ab';
const SLOW = 120_000;

const LDAP = `${EXAMPLE_LDAP_AUTH}users:
  alice: { groups: [admins] }
`;

const AWS_KEY = `apiVersion: lockstep/v1
kind: ManagedKey
name: aws-signing
type: provAkms
config:
  key_type: ECDSA
  curve: P256
  kms_key: alias/aws-signing
  access_key: AKIASHAPE0000000001
  secret_key: \${env:AWS_SECRET_KEY}
  endpoint: http://127.0.0.1:9/kms
`;

const SNAPSHOT = `apiVersion: lockstep/v1
kind: SnapshotPolicy
name: daily
config:
  interval: 24h
  retain: 3
  storage_type: local
  path_prefix: /tmp/lockstep-shape-snapshots
  local_max_space: 10MiB
`;

const served = useProxiedServer({ LDAP_BINDPASS: BINDPASS, AWS_SECRET_KEY: AWS_SECRET });
const { cli } = served;
let dir: string;

async function manifest(text: string): Promise<string> {
  await writeFile(path.join(dir, 'm.yaml'), text);
  return dir;
}

/** Refused cleanly: exit 1, the message named, no stack, no canary. */
function expectRefused(run: CliResult, message: string): void {
  expect(run.code, run.stdout + run.stderr).toBe(1);
  expect(run.stderr).toContain(message);
  expect(run.stderr).not.toMatch(/\n\s+at /);
  expect(run.stderr + run.stdout).not.toContain(BINDPASS);
  expect(run.stderr + run.stdout).not.toContain(AWS_SECRET);
}

type Data = Record<string, unknown>;
/** Rewrites `data` of an answer. */
const withData = (change: (data: Data) => void) => (body: Data) => {
  const data = (body['data'] ?? {}) as Data;
  change(data);
  return { ...body, data };
};
/** A LIST answer with `names` added (the collection may not exist yet). */
const withNames = (...names: unknown[]) => (body: Data) => ({
  data: { keys: [...(((body['data'] as Data | undefined)?.['keys'] as unknown[] | undefined) ?? []), ...names] },
});

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'lockstep-shapes-'));
});
afterEach(async () => {
  served.proxy.clear();
  await rm(dir, { recursive: true, force: true });
});

describe('LdapAuth', () => {
  beforeAll(async () => {
    // An ldap method holding the manifest's objects, so every read below has an answer to rewrite.
    const setup = await runCli(['apply', await mkdtemp(path.join(tmpdir(), 'lockstep-shapes-setup-')).then(async (d) => {
      await writeFile(path.join(d, 'm.yaml'), LDAP);
      return d;
    }), '--auto-approve'], { env: { ...served.cluster.env, LDAP_BINDPASS: BINDPASS } });
    expect(setup.code, setup.stderr).toBe(0);
  }, SLOW);

  it('#13.9: the answers as the emulator gives them plan as no changes (the shapes accept the service\'s own)', async () => {
    const run = await cli(['plan', await manifest(LDAP), '--detailed-exitcode']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
  }, SLOW);

  it('#13.9: a config url given as a list is refused, naming cluster, path and field', async () => {
    served.proxy.rewrite('GET auth/ldap/config', withData((d) => (d['url'] = ['a'])));
    expectRefused(await cli(['plan', await manifest(LDAP)]), 'default: GET auth/ldap/config: field "url" is a list, expected a string');
  }, SLOW);

  it('#13.9: token_ttl as text, a non-finite number and a fraction are each refused', async () => {
    served.proxy.rewrite('GET auth/ldap/config', withData((d) => (d['token_ttl'] = 'abc')));
    expectRefused(await cli(['plan', await manifest(LDAP)]), 'field "token_ttl" is a string, expected an integer');
    served.proxy.rewrite('GET auth/ldap/config', withData((d) => (d['token_ttl'] = HUGE_NUMBER)));
    const huge = await cli(['plan', await manifest(LDAP)]);
    expectRefused(huge, 'auth/ldap/config');
    served.proxy.rewrite('GET auth/ldap/config', withData((d) => (d['connection_timeout'] = 1.5)));
    expectRefused(await cli(['plan', await manifest(LDAP)]), 'field "connection_timeout" is a fraction, expected an integer');
  }, SLOW);

  it('#13.9: every wrong field is named at once, and no value is shown (a secret placed there stays hidden)', async () => {
    served.proxy.rewrite(
      'GET auth/ldap/config',
      withData((d) => {
        d['binddn'] = [BINDPASS];
        d['starttls'] = 'yes';
        d['token_policies'] = ['ok', 7];
      }),
    );
    const run = await cli(['plan', await manifest(LDAP)]);
    expectRefused(run, 'field "binddn" is a list, expected a string');
    expect(run.stderr).toContain('field "starttls" is a string, expected true or false');
    expect(run.stderr).toContain('field "token_policies[1]" is a number, expected a string');
  }, SLOW);

  it('#13.9: fields a newer release adds are accepted', async () => {
    served.proxy.rewrite('GET auth/ldap/config', withData((d) => Object.assign(d, { rotation_schedule: '', use_token_groups: false, brand_new: { nested: [1] } })));
    const run = await cli(['plan', await manifest(LDAP), '--detailed-exitcode']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
  }, SLOW);

  it('#13.9: group, user and sys/auth answers are checked too', async () => {
    served.proxy.rewrite('GET auth/ldap/groups/admins', withData((d) => (d['policies'] = { admin: true })));
    expectRefused(await cli(['plan', await manifest(LDAP)]), 'default: GET auth/ldap/groups/admins: field "policies" is an object, expected a list of strings');
    served.proxy.clear();
    served.proxy.rewrite('GET auth/ldap/users/alice', withData((d) => (d['groups'] = [1])));
    expectRefused(await cli(['plan', await manifest(LDAP)]), 'default: GET auth/ldap/users/alice: field "groups[0]" is a number, expected a string');
    served.proxy.clear();
    served.proxy.rewrite('GET sys/auth', withData((d) => (d['ldap/'] = 'ldap')));
    expectRefused(await cli(['plan', await manifest(LDAP)]), 'default: GET sys/auth: field "ldap/" is a string, expected an object');
  }, SLOW);

  it('a sys/health answer that names no release is a warning naming the cluster, the path and the field; the plan goes on', async () => {
    for (const [rewrite, said] of [
      [(b: Data) => ({ ...b, version: 12 }), 'field "version" is a number, expected a string'],
      [(b: Data) => ({ ...b, version: undefined }), 'field "version" is missing'],
      [() => ['\u001b[2J'], 'sys/health: 200 OK: unexpected response: body is not a JSON object (starts with "[\\"\\\\u001b[2J\\"]")'],
    ] as const) {
      served.proxy.rewrite('GET sys/health', rewrite);
      const run = await cli(['plan', await manifest(LDAP)]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout + run.stderr).toContain(`${said}: the server's release is unknown, so every field is compared as if it had it`);
      expect(run.stdout + run.stderr).toContain('warning: default:auth/ldap: ');
      expect(run.stdout + run.stderr).not.toContain('\u001b');
      served.proxy.clear();
    }
  }, SLOW);

  it('a server text quoted in an error reaches the terminal with its control characters escaped', async () => {
    served.proxy.rewrite('GET sys/auth', withData((d) => ((d['ldap/'] as Record<string, unknown>)['type'] = '\u001b[2Jnot-ldap')));
    const run = await cli(['plan', await manifest(LDAP)]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('is a "\\u001b[2Jnot-ldap" method, not ldap');
    expect(run.stderr).not.toContain('\u001b');
    served.proxy.clear();
  }, SLOW);

  it('#13.1/#13.2: users and groups the server names unaddressably are shown and never touched by plan --prune or apply --prune', async () => {
    // x\u009by and b\u202ed: a C1 control and the right-to-left override, which the service's
    // printable-path check refuses (values/printable.ts): read, they would fail the whole plan.
    const bad = ['a/b', '..', '.', 'x\u0001y', 'x\u009by', 'b\u202ed'];
    served.proxy.rewrite('LIST auth/ldap/users', withNames(...bad));
    served.proxy.rewrite('LIST auth/ldap/groups', withNames('ops/../admins'));
    for (const format of ['text', 'json', 'markdown']) {
      const plan = await cli(['plan', await manifest(LDAP), '--prune', '--format', format]);
      expect(plan.code, plan.stdout + plan.stderr).toBe(0);
      expect(plan.stdout).toContain('auth/ldap/users');
      expect(plan.stdout).toContain(format === 'json' ? 'a user named \\"a/b\\"' : 'a user named "a/b"');
      expect(plan.stdout).toContain('cannot be addressed');
      expect(plan.stdout).toContain('lockstep leaves it alone');
    }
    const text = await cli(['plan', await manifest(LDAP), '--prune']);
    expect(text.stdout).toContain('warning: default:auth/ldap/users: the server holds a user named "a/b" that cannot be addressed');
    expect(text.stdout).toContain('warning: default:auth/ldap/groups: the server holds a group named "ops/../admins"');
    expect(text.stdout).toContain('a user named "x\\u0001y"');
    expect(text.stdout).toContain('a user named "x\\u009by"');
    expect(text.stdout).toContain('a user named "b\\u202ed"');
    expect(text.stdout).not.toContain('\u0001');
    expect(text.stdout).toContain('No changes.');

    served.proxy.requests.length = 0;
    const apply = await cli(['apply', await manifest(LDAP), '--prune', '--auto-approve', '--allow-destructive']);
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    // eslint-disable-next-line no-control-regex -- the user named x\u0001y is one of the odd names under test
    const touched = served.proxy.requests.filter((r) => /users\/(a\/b|\.\.?|x\u0001y)$|users$|groups\/ops/.test(r) && !r.startsWith('LIST '));
    expect(touched).toEqual([]);
    expect(served.proxy.requests.filter((r) => !r.startsWith('GET ') && !r.startsWith('LIST '))).toEqual([]);
  }, SLOW);

  it('#13.1/#13.2: export leaves names that cannot be addressed out of the manifests and says so', async () => {
    served.proxy.rewrite('LIST auth/ldap/users', withNames('a/b'));
    served.proxy.rewrite('LIST sys/managed-keys/provAkms', withNames('..'));
    const run = await cli(['export']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('warning: default:auth/ldap/users: the server holds a user named "a/b" that cannot be addressed');
    expect(run.stderr).toContain('warning: default:sys/managed-keys/provAkms: the server holds a managed key named ".."');
    expect(run.stdout).toContain('alice');
    expect(run.stdout).not.toContain('a/b');
    expect(served.proxy.requests.filter((r) => r.includes('users/a') && !r.endsWith('alice'))).toEqual([]);
  }, SLOW);

  it('#13.9: a LIST answer with keys that are not strings is an error naming cluster and path', async () => {
    served.proxy.rewrite('LIST auth/ldap/users', withNames(7));
    expectRefused(await cli(['plan', await manifest(LDAP)]), 'default: LIST auth/ldap/users: field "keys[1]" is a number, expected a string');
    served.proxy.rewrite('LIST auth/ldap/users', () => ({ data: { keys: 'alice' } }));
    expectRefused(await cli(['plan', await manifest(LDAP)]), 'default: LIST auth/ldap/users: field "keys" is a string, expected a list of strings');
    served.proxy.rewrite('LIST auth/ldap/users', () => ({ data: {} }));
    expectRefused(await cli(['plan', await manifest(LDAP)]), 'default: LIST auth/ldap/users: field "keys" is missing');
  }, SLOW);
});

describe('ManagedKey', () => {
  const pkcs11Sample = {
    UUID: 'af0a688e-d2c1-fc07-b365-40325674114d',
    allow_generate_key: true,
    allow_replace_key: false,
    allow_store_key: false,
    any_mount: false,
    curve: '',
    force_rw_session: false,
    key_bits: 0,
    key_label: 'test-kms-root',
    library: 'softhsm',
    mechanism: 1,
    name: 'hsm-key1',
    pin: 'redacted',
    slot: 1,
    token_label: '',
    type: 'pkcs11',
  };

  it('#13.9: a key read back as the real service documents it (mechanism and slot as numbers) is accepted', async () => {
    served.proxy.rewrite('LIST sys/managed-keys/pkcs11', withNames('hsm-key1'));
    served.proxy.rewrite('GET sys/managed-keys/pkcs11/hsm-key1', () => ({ data: pkcs11Sample }));
    const run = await cli(['plan', await manifest(AWS_KEY)]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain('sys/managed-keys/pkcs11/hsm-key1');
  }, SLOW);

  it('#13.9: a key field of the wrong shape is refused, naming cluster, path and field', async () => {
    served.proxy.rewrite('LIST sys/managed-keys/pkcs11', withNames('hsm-key1'));
    served.proxy.rewrite('GET sys/managed-keys/pkcs11/hsm-key1', () => ({ data: { ...pkcs11Sample, mechanism: 'CKM_ECDSA', key_bits: 2048.5 } }));
    const run = await cli(['plan', await manifest(AWS_KEY)]);
    expectRefused(run, 'default: GET sys/managed-keys/pkcs11/hsm-key1: field "mechanism" is a string, expected an integer or 0x hexadecimal text');
    expect(run.stderr).toContain('field "key_bits" is a fraction, expected an integer');
  }, SLOW);

  it('#13.9: a mount table whose allowed_managed_keys are not names is refused', async () => {
    served.proxy.rewrite('GET sys/mounts', withData((d) => (d['transit/'] = { type: 'transit', config: { allowed_managed_keys: [true] } })));
    expectRefused(await cli(['plan', await manifest(AWS_KEY)]), 'default: GET sys/mounts: field "transit/.config.allowed_managed_keys[0]" is a boolean, expected a string');
  }, SLOW);

  it('#13.1/#13.2: a key named unaddressably is shown and never read, updated or deleted', async () => {
    served.proxy.rewrite('LIST sys/managed-keys/provAkms', withNames('k/x', '..'));
    const plan = await cli(['plan', await manifest(AWS_KEY), '--prune']);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    expect(plan.stdout).toContain('warning: default:sys/managed-keys/provAkms: the server holds a managed key named "k/x" that cannot be addressed');
    expect(served.proxy.requests.filter((r) => r.includes('provAkms/k') || r.endsWith('provAkms/..'))).toEqual([]);
  }, SLOW);
});

describe('SnapshotPolicy', () => {
  const stored = { interval: 86400, retain: 3, path_prefix: '/tmp/x', file_prefix: 'vault-snapshot', storage_type: 'local', local_max_space: 1024 };

  it('#13.9: an interval that is not whole seconds is refused, naming cluster, path and field', async () => {
    served.proxy.rewrite('LIST sys/storage/raft/snapshot-auto/config', withNames('daily'));
    served.proxy.rewrite('GET sys/storage/raft/snapshot-auto/config/daily', () => ({ data: { ...stored, interval: 'abc' } }));
    const run = await cli(['plan', await manifest(SNAPSHOT)]);
    expectRefused(run, 'default: GET sys/storage/raft/snapshot-auto/config/daily: field "interval" is a string, expected an integer');
    // A number that is not finite is refused by the client itself, before any shape is checked.
    served.proxy.rewrite('GET sys/storage/raft/snapshot-auto/config/daily', () => ({ data: { ...stored, interval: 'abc', local_max_space: HUGE_NUMBER } }));
    expectRefused(await cli(['plan', await manifest(SNAPSHOT)]), 'sys/storage/raft/snapshot-auto/config/daily: 200 OK: unexpected response: "data.local_max_space" is not a finite number');
  }, SLOW);

  it('#13.1/#13.2: a policy named unaddressably is shown and never deleted by apply --prune', async () => {
    served.proxy.rewrite('LIST sys/storage/raft/snapshot-auto/config', withNames('..', 'a/b'));
    const apply = await cli(['apply', await manifest(SNAPSHOT), '--prune', '--auto-approve']);
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    expect(apply.stdout).toContain('the server holds a snapshot policy named ".." that cannot be addressed');
    expect(served.proxy.requests.filter((r) => /config\/(\.\.|a\/b|a)$/.test(r))).toEqual([]);
  }, SLOW);
});
