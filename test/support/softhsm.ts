/**
 * A private SoftHSM2 for one test file: its own SOFTHSM2_CONF, token directory and initialised
 * token(s), plus helpers to create EC and RSA key pairs. SoftHSM reads SOFTHSM2_CONF when the
 * library is C_Initialize'd, once per process, so the fixture sets process.env.SOFTHSM2_CONF
 * before anything loads the library, and a test file (its own process under the forks pool)
 * starts at most one fixture. Keys are created through the adapter's module cache, since a
 * process may initialise the library only once.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { PKCS11, Template } from 'pkcs11js';
import { loadModule } from '../../src/adapters/kms/pkcs11/module.js';
import { resolveSlot } from '../../src/adapters/kms/pkcs11/token.js';

const run = promisify(execFile);

export const SOFTHSM_LIBRARY = '/usr/lib/softhsm/libsofthsm2.so';

export interface TokenSpec {
  label: string;
  soPin?: string;
  userPin?: string;
}

export interface SoftHsmToken {
  label: string;
  soPin: string;
  userPin: string;
  /** Decimal slot id, as the spec's `slot` field takes it. */
  slot: string;
}

export interface KeyOptions {
  label: string;
  /** CKA_ID bytes as hex; default none (empty). */
  idHex?: string;
  /** CKA_SIGN of the private key; default true. */
  sign?: boolean;
  /** Token to create the key on; default the first. */
  token?: string;
}

export interface SoftHsm {
  library: string;
  dir: string;
  tokens: SoftHsmToken[];
  /** The first token. */
  token: SoftHsmToken;
  createEcKey(opts: KeyOptions & { curve?: 'P-256' | 'P-384' | 'P-521' }): Promise<void>;
  createRsaKey(opts: KeyOptions & { bits?: number }): Promise<void>;
  /** Number of private keys with this label on the token. */
  countPrivateKeys(label: string, token?: string): Promise<number>;
  cleanup(): Promise<void>;
}

let started = false;

const EC_PARAMS = {
  'P-256': Buffer.from('06082a8648ce3d030107', 'hex'),
  'P-384': Buffer.from('06052b81040022', 'hex'),
  'P-521': Buffer.from('06052b81040023', 'hex'),
};

export async function startSoftHsm(specs: TokenSpec[] = [{ label: 'lockstep-test' }]): Promise<SoftHsm> {
  if (started) throw new Error('startSoftHsm: one SoftHSM fixture per test file (SOFTHSM2_CONF is read once per process)');
  started = true;
  const dir = await mkdtemp(join(tmpdir(), 'lockstep-softhsm-'));
  const conf = join(dir, 'softhsm2.conf');
  await mkdir(join(dir, 'tokens'));
  await writeFile(conf, `directories.tokendir = ${join(dir, 'tokens')}\nobjectstore.backend = file\nlog.level = ERROR\nslots.removable = false\n`);
  process.env.SOFTHSM2_CONF = conf;
  const env = { ...process.env, SOFTHSM2_CONF: conf };
  const filled = specs.map((s) => ({ label: s.label, soPin: s.soPin ?? '10203040', userPin: s.userPin ?? '4321-user-pin' }));
  for (const t of filled) {
    await run('softhsm2-util', ['--init-token', '--free', '--label', t.label, '--so-pin', t.soPin, '--pin', t.userPin], { env });
  }
  const mod = loadModule(SOFTHSM_LIBRARY);
  const tokens = filled.map((t) => ({ ...t, slot: resolveSlot(mod, { tokenLabel: t.label }).id }));
  const tokenOf = (label?: string): SoftHsmToken => tokens.find((t) => t.label === (label ?? tokens[0]!.label))!;

  const withUserSession = async <T>(label: string | undefined, fn: (lib: PKCS11, session: Buffer) => Promise<T> | T): Promise<T> => {
    const t = tokenOf(label);
    const slot = resolveSlot(mod, { slot: t.slot });
    const session = mod.lib.C_OpenSession(slot.handle, 0x4 | 0x2);
    try {
      try {
        mod.lib.C_Login(session, 1, t.userPin);
      } catch (err) {
        if (!String((err as Error).message).startsWith('CKR_USER_ALREADY_LOGGED_IN')) throw err;
      }
      return await fn(mod.lib, session);
    } finally {
      mod.lib.C_CloseSession(session);
    }
  };

  const generate = (opts: KeyOptions, mechanism: number, publicExtra: Template) =>
    withUserSession(opts.token, (lib, session) => {
      const common: Template = [
        { type: 0x1, value: true }, // CKA_TOKEN
        { type: 0x3, value: opts.label }, // CKA_LABEL
        ...(opts.idHex ? [{ type: 0x102, value: Buffer.from(opts.idHex, 'hex') }] : []), // CKA_ID
      ];
      lib.C_GenerateKeyPair(
        session,
        { mechanism },
        [...common, { type: 0x0, value: 2 }, { type: 0x10a, value: true }, ...publicExtra], // CKO_PUBLIC_KEY, CKA_VERIFY
        [...common, { type: 0x0, value: 3 }, { type: 0x2, value: true }, { type: 0x103, value: true }, { type: 0x108, value: opts.sign ?? true }],
      );
    });

  return {
    library: SOFTHSM_LIBRARY,
    dir,
    tokens,
    token: tokens[0]!,
    createEcKey: (opts) => generate(opts, 0x1040, [{ type: 0x180, value: EC_PARAMS[opts.curve ?? 'P-256'] }]),
    createRsaKey: (opts) =>
      generate(opts, 0x0, [
        { type: 0x121, value: opts.bits ?? 2048 }, // CKA_MODULUS_BITS
        { type: 0x122, value: Buffer.from([1, 0, 1]) }, // CKA_PUBLIC_EXPONENT
      ]),
    countPrivateKeys: (label, token) =>
      withUserSession(token, (lib, session) => {
        lib.C_FindObjectsInit(session, [{ type: 0x0, value: 3 }, { type: 0x3, value: label }]);
        const found = lib.C_FindObjects(session, 100);
        lib.C_FindObjectsFinal(session);
        return found.length;
      }),
    cleanup: async () => {
      await rm(dir, { recursive: true, force: true });
    },
  };
}
