import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openObjectStore } from '../../../src/adapters/storage/index.js';
import { onFirstUse } from '../../../src/adapters/storage/on-first-use.js';
import { ROOT } from '../../support/cli.js';

const SDKS = ['@aws-sdk/client-s3', '@azure/storage-blob', '@google-cloud/storage'];

describe('object store SDKs load on first use', () => {
  it('runs `make` once, however many calls', async () => {
    let made = 0;
    const get = onFirstUse(async () => ++made);
    expect(await Promise.all([get(), get(), get()])).toEqual([1, 1, 1]);
    expect(made).toBe(1);
  });

  it('no built store module imports its SDK statically', () => {
    for (const name of ['s3', 'blob', 'gcs']) {
      const code = readFileSync(`${ROOT}dist/adapters/storage/${name}.js`, 'utf8');
      for (const sdk of SDKS) expect(code, name).not.toMatch(new RegExp(`^import [^;]*from '${sdk}'`, 'm'));
    }
  });

  it('the embedded server starts without loading them (a process of its own)', () => {
    const script = `
      import { createRequire } from 'node:module';
      const { startServer } = await import(${JSON.stringify(`${ROOT}dist/server/index.js`)});
      const server = await startServer({ port: 0, rootToken: 't' });
      await server.close();
      const loaded = Object.keys(createRequire(import.meta.url).cache);
      console.log(JSON.stringify(loaded.filter((f) => /@aws-sdk|@google-cloud|@azure/.test(f))));
    `;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000 });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual([]);
  });

  it('still refuses bad settings when a store is opened, before any SDK is needed', () => {
    expect(() => openObjectStore({ storage_type: 'provB-blob', path_prefix: 'p', provB_container_name: 'c', provB_account_name: 'a', provB_account_key: 5 as unknown as string })).toThrow(
      'provB_account_key is not a valid account key',
    );
    expect(() => openObjectStore({ storage_type: 'provC-gcs', path_prefix: 'p', provC_gcs_bucket: 'b', provC_service_account_key: '{' })).toThrow(
      'provC_service_account_key is not valid JSON',
    );
    expect(() => openObjectStore({ storage_type: 'provA-s3', path_prefix: 'p', provA_s3_bucket: 'b' })).toThrow('provA-s3 needs provA_s3_region');
  });
});
