import path from 'node:path';

/**
 * Where Node's compile cache (Node 22.1+, `module.enableCompileCache`) keeps lockstep's compiled
 * code: the user's own cache directory, `$XDG_CACHE_HOME/lockstep/compile-cache` or
 * `~/.cache/lockstep/compile-cache`. Not Node's default, a folder under the shared temporary
 * directory that another account could create first and so hand this process compiled code to
 * run; never the repository or the working directory. `undefined`: let Node decide, which it does
 * only when the user asked through NODE_COMPILE_CACHE (NODE_DISABLE_COMPILE_CACHE, Node's own
 * switch, turns the cache off either way); `null`: no cache (no home to put it in).
 */
export function compileCacheDir(env: NodeJS.ProcessEnv, home: string): string | undefined | null {
  if (env['NODE_COMPILE_CACHE']) return undefined;
  // The XDG rules: a relative path is invalid and ignored.
  const xdg = env['XDG_CACHE_HOME'];
  if (xdg && path.isAbsolute(xdg)) return path.join(xdg, 'lockstep', 'compile-cache');
  return path.isAbsolute(home) ? path.join(home, '.cache', 'lockstep', 'compile-cache') : null;
}

/** The part of `node:module` this needs; absent before Node 22.1. */
export interface CompileCacheHost {
  enableCompileCache?: (dir?: string) => unknown;
}

/**
 * Turns the cache on for the modules loaded after this call (the chunks a command loads, the
 * SDKs and parsers). A directory that cannot be made or written only costs speed: Node reports
 * that in its return value, and anything thrown is dropped the same way.
 */
export function enableCompileCache(host: CompileCacheHost, env: NodeJS.ProcessEnv, home: () => string): void {
  if (!host.enableCompileCache) return;
  try {
    const dir = compileCacheDir(env, home());
    if (dir !== null) host.enableCompileCache(dir);
  } catch {
    // os.homedir() throws without a home and a passwd entry; then no cache, as without Node 22.
  }
}
