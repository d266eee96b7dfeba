/** The pkcs11 managed-key backend (SoftHSM2 and real HSMs through their PKCS#11 library). */
import { randomBytes } from 'node:crypto';
import type { PKCS11 } from 'pkcs11js';
import { KeyBackendError } from '../errors.js';
import { DEFAULT_HASH } from '../hash.js';
import { assertMayGenerate, assertMaySign } from '../policy.js';
import { runProbe, type Probe } from '../probe.js';
import type { BackendFinding, KeyBackend, Pkcs11KeyConfig, TestSignOptions } from '../types.js';
import { CKM_ECDSA, CKM_RSA_PKCS } from './constants.js';
import { generateKeyPair } from './generate.js';
import { describeKey, findPrivateKeys, publicKeyOf, readPrivateKey, type PrivateKeyInfo } from './keys.js';
import { describeMechanism, mechanismFamily } from './mechanisms.js';
import { loadModule } from './module.js';
import { keySemaphore } from './semaphore.js';
import { keyIdentity, readPkcs11Settings, type Pkcs11Settings } from './settings.js';
import { assertKeyFits, assertTokenSigns, signAndVerify } from './sign.js';
import { describeSlot, resolveSlot, withSession } from './token.js';

type Handle = Buffer;

export class Pkcs11Backend implements KeyBackend {
  readonly type = 'pkcs11' as const;

  constructor(
    private readonly config: Pkcs11KeyConfig,
    private readonly libraries: Record<string, string> = {},
  ) {}

  async testSign(opts: TestSignOptions = {}): Promise<void> {
    const s = readPkcs11Settings(this.config, this.libraries);
    assertMaySign('pkcs11', s.policy);
    const req = { data: opts.data ?? randomBytes(64), hash: opts.hashAlgorithm ?? DEFAULT_HASH, usePss: opts.usePss ?? false };
    // max_parallel bounds everything this key does on the HSM, not just C_Sign.
    await keySemaphore(keyIdentity(s), s.maxParallel).run(async () => {
      const mod = loadModule(s.libraryPath);
      const slot = resolveSlot(mod, s);
      // Generation creates token objects, which needs a read-write session.
      const readWrite = s.forceRw || s.policy.allowGenerate;
      await withSession(mod, slot, { readWrite, pin: s.pin }, async (session) => {
        const key = await findOrGenerate(mod.lib, session, s);
        const family = assertKeyFits(key, s.mechanism);
        await signAndVerify(mod.lib, slot, session, key, family, req);
      });
    });
  }

  inspect(): Promise<BackendFinding[]> {
    return runProbe((p) => this.probe(p));
  }

  private async probe(p: Probe): Promise<void> {
    const s = await p.step('configuration', () => readPkcs11Settings(this.config, this.libraries), () => 'valid');
    const mod = await p.step(`library ${s.libraryPath}`, () => loadModule(s.libraryPath), (m) => `loaded (${m.description})`);
    const slot = await p.step(describeSlot(s), () => resolveSlot(mod, s), (r) => `found: slot ${r.id}, token "${r.tokenLabel}"`);
    let loggedIn = false;
    const inSession = (fn: (session: Handle) => Promise<void>) =>
      keySemaphore(keyIdentity(s), s.maxParallel).run(() => withSession(mod, slot, { readWrite: s.forceRw, pin: s.pin }, fn));
    await inSession(async (session) => {
      loggedIn = true;
      p.ok('login', 'the PIN is accepted');
      const subject = describeKey({ label: s.keyLabel, id: s.keyId });
      const handles = await p.attempt(subject, () => findPrivateKeys(mod.lib, session, { label: s.keyLabel, id: s.keyId }));
      if (handles.length === 0) return probeAbsentKey(p, s, subject);
      if (handles.length > 1) p.fail(subject, `${handles.length} private keys match; the key must be unique`);
      p.ok(subject, 'private key found');
      const key = await p.step('key attributes', () => readPrivateKey(mod.lib, session, handles[0]!), (k) => `${k.family} key, CKA_SIGN=${k.canSign}`);
      await p.step(`mechanism ${describeMechanism(s.mechanism)}`, () => {
        const family = assertKeyFits(key, s.mechanism);
        assertTokenSigns(mod.lib, slot, family === 'EC' ? CKM_ECDSA : CKM_RSA_PKCS);
      }, () => 'fits the key, and the token can sign with it');
      await p.step('public key', () => publicKeyOf(mod.lib, session, key), (k) => `found${k.curve ? ` (${k.curve})` : ''}`);
    }).catch((err: unknown) => {
      if (loggedIn) throw err;
      p.fail('login', err instanceof Error ? err.message : String(err));
    });
  }
}

/** A key that is absent is fine for check only when test/sign would generate it. */
function probeAbsentKey(p: Probe, s: Pkcs11Settings, subject: string): void {
  if (s.keyId !== undefined) p.fail(subject, 'no such private key (a key_id must name an existing key)');
  if (!s.policy.allowGenerate) p.fail(subject, 'no such private key, and allow_generate_key is false');
  if (mechanismFamily(s.mechanism) === undefined) p.fail(subject, `no such private key, and none can be generated for mechanism ${describeMechanism(s.mechanism)}`);
  p.ok(subject, 'not found; test/sign will generate it (allow_generate_key is true)');
}

async function findOrGenerate(lib: PKCS11, session: Handle, s: Pkcs11Settings): Promise<PrivateKeyInfo> {
  const sel = { label: s.keyLabel, id: s.keyId };
  const found = findPrivateKeys(lib, session, sel);
  if (found.length > 1) {
    throw new KeyBackendError('config', 'pkcs11', `${found.length} private keys match ${describeKey(sel)}; the key must be unique`);
  }
  if (found.length === 1) return readPrivateKey(lib, session, found[0]!);
  if (s.keyId !== undefined) {
    throw new KeyBackendError('not_found', 'pkcs11', `no private key with ${describeKey(sel)} (key ids are assigned by the HSM, so a key_id must name an existing key)`);
  }
  assertMayGenerate('pkcs11', s.policy, `private key with ${describeKey(sel)}`);
  const family = mechanismFamily(s.mechanism);
  if (family === undefined) {
    throw new KeyBackendError('unsupported', 'pkcs11', `no key can be generated for mechanism ${describeMechanism(s.mechanism)}`);
  }
  const spec = family === 'EC' ? { family, curve: s.curve! } : { family, bits: s.keyBits! };
  const handle = await generateKeyPair(lib, session, spec, s.keyLabel!, s.policy.usages);
  return readPrivateKey(lib, session, handle);
}
