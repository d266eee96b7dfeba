/**
 * Process-wide cache of loaded PKCS#11 libraries, one per path. A library is C_Initialize'd
 * once per process (a second C_Initialize answers CKR_CRYPTOKI_ALREADY_INITIALIZED, which is
 * tolerated) and kept for the life of the process, since C_Finalize would end every other
 * user's sessions.
 */
import { createRequire } from 'node:module';
import type { PKCS11 } from 'pkcs11js';
import { KeyBackendError, firstLine } from '../errors.js';
import { CKF_OS_LOCKING_OK } from './constants.js';
import { isCkr, pkcs11Error } from './errors.js';

export interface Pkcs11Module {
  path: string;
  lib: PKCS11;
  /** e.g. `SoftHSM, Implementation of PKCS11 2.6`. */
  description: string;
}

const modules = new Map<string, Pkcs11Module>();

type Pkcs11Js = typeof import('pkcs11js');
let addon: Pkcs11Js | undefined;

/** The native addon, required lazily (pkcs11js is CommonJS with no static named exports). */
function pkcs11js(): Pkcs11Js {
  addon ??= createRequire(import.meta.url)('pkcs11js') as Pkcs11Js;
  return addon;
}

export function loadModule(path: string): Pkcs11Module {
  const cached = modules.get(path);
  if (cached) return cached;
  const lib = new (pkcs11js().PKCS11)();
  try {
    lib.load(path);
  } catch (err) {
    throw new KeyBackendError('unavailable', 'pkcs11', `cannot load PKCS#11 library ${path}: ${firstLine(err)}`);
  }
  try {
    // OS locking: pkcs11js runs the *Async calls on libuv worker threads.
    lib.C_Initialize({ flags: CKF_OS_LOCKING_OK });
  } catch (err) {
    if (!isCkr(err, 'CKR_CRYPTOKI_ALREADY_INITIALIZED')) {
      throw pkcs11Error(err, `C_Initialize of ${path}`, 'unavailable');
    }
  }
  const info = lib.C_GetInfo();
  const description = `${info.manufacturerID.trim()}, ${info.libraryDescription.trim()} ${info.libraryVersion.major}.${info.libraryVersion.minor}`;
  const loaded = { path, lib, description };
  modules.set(path, loaded);
  return loaded;
}
