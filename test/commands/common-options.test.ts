import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { main } from '../../src/cli.js';
import type { OutputSink } from '../../src/commands/output.js';

function recorder(): OutputSink & { text(): string } {
  const lines: string[] = [];
  return {
    out: (t) => lines.push(t),
    err: (t) => lines.push(t),
    color: false,
    interactive: false,
    prompt: async () => '',
    text: () => lines.join('\n'),
  };
}

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

describe('global options', () => {
  test('#13.4: --help documents --allow-files-outside-root', async () => {
    const out = recorder();
    const writes: string[] = [];
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = (chunk: string) => (writes.push(String(chunk)), true);
    try {
      await main(['--help'], out);
    } finally {
      process.stdout.write = write;
    }
    expect(writes.join('').replace(/\s+/g, ' ')).toMatch(/--allow-files-outside-root \$\{file:\} references may read files outside the git work tree/);
  });

  test('#13.4: validate refuses a reference out of the directory given, and reads it with --allow-files-outside-root', async () => {
    const top = await mkdtemp(join(tmpdir(), 'lockstep-flag-'));
    dirs.push(top);
    await writeFile(join(top, 'ca.pem'), 'not used\n');
    const app = join(top, 'app');
    await mkdir(app);
    await writeFile(join(app, 'c.yaml'), 'apiVersion: lockstep/v1\nkind: Cluster\nname: east\naddress: http://127.0.0.1:1/v1\ntoken: ${env:T}\ncaCert: ${file:../ca.pem}\n');
    process.env['T'] = 'x';
    try {
      const refused = recorder();
      expect(await main(['validate', app], refused)).toBe(1);
      expect(refused.text()).toContain(`c.yaml:6:9: error: caCert: file "../ca.pem" is outside the directory given on the command line (${app})`);
      const allowed = recorder();
      await main(['validate', '--allow-files-outside-root', app], allowed);
      expect(allowed.text()).not.toContain('outside');
    } finally {
      delete process.env['T'];
    }
  });
});
