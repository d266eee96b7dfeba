import nodeModule from 'node:module';
import { describe, expect, it } from 'vitest';
import { compileCacheDir, enableCompileCache, type CompileCacheHost } from '../../src/core/compile-cache.js';

describe('compileCacheDir', () => {
  it("is under the user's cache directory: XDG_CACHE_HOME, else ~/.cache", () => {
    expect(compileCacheDir({ XDG_CACHE_HOME: '/var/cache/alice' }, '/home/alice')).toBe('/var/cache/alice/lockstep/compile-cache');
    expect(compileCacheDir({}, '/home/alice')).toBe('/home/alice/.cache/lockstep/compile-cache');
  });

  it('ignores a relative XDG_CACHE_HOME (the XDG rules), so never the working directory', () => {
    expect(compileCacheDir({ XDG_CACHE_HOME: 'cache' }, '/home/alice')).toBe('/home/alice/.cache/lockstep/compile-cache');
    expect(compileCacheDir({ XDG_CACHE_HOME: '' }, '/home/alice')).toBe('/home/alice/.cache/lockstep/compile-cache');
  });

  it('has no cache without an absolute home, and leaves it to Node when the user set NODE_COMPILE_CACHE', () => {
    expect(compileCacheDir({}, '')).toBeNull();
    expect(compileCacheDir({}, 'relative')).toBeNull();
    expect(compileCacheDir({ NODE_COMPILE_CACHE: '/elsewhere', XDG_CACHE_HOME: '/x' }, '/home/alice')).toBeUndefined();
  });
});

describe('enableCompileCache', () => {
  it('asks Node for the cache in that directory', () => {
    const asked: Array<string | undefined> = [];
    enableCompileCache({ enableCompileCache: (dir) => asked.push(dir) }, {}, () => '/home/alice');
    expect(asked).toEqual(['/home/alice/.cache/lockstep/compile-cache']);
  });

  it('is harmless when the directory cannot be used, there is no home, or Node has no cache', () => {
    const throwing = {
      enableCompileCache: () => {
        throw new Error('EACCES');
      },
    };
    expect(() => enableCompileCache(throwing, {}, () => '/home/alice')).not.toThrow();
    const asked: Array<string | undefined> = [];
    expect(() =>
      enableCompileCache({ enableCompileCache: (dir) => asked.push(dir) }, {}, () => {
        throw new Error('no home');
      }),
    ).not.toThrow();
    expect(asked).toEqual([]);
    // This Node's own module (a no-op before 22.1).
    expect(() => enableCompileCache(nodeModule as CompileCacheHost, { XDG_CACHE_HOME: '/nonexistent/readonly' }, () => '/')).not.toThrow();
  });
});
