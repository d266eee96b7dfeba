import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

const TOKEN = 'hvs.CANARY-retries-token-8c1d';
/** A port nothing listens on: every connection is refused at once, so only the retries' waits take time. */
let refusedAddr: string;

beforeAll(async () => {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  refusedAddr = `http://127.0.0.1:${port}`;
});

async function exportWith(...flags: string[]) {
  return runCli([...flags, 'export'], { env: { SERVICE_ADDR: refusedAddr, SERVICE_TOKEN: TOKEN } });
}

describe('--retries: further attempts of a call that is safe to repeat', () => {
  it('retries a refused connection 4 times by default, as many times as --retries says, or not at all', async () => {
    const [byDefault, two, none] = await Promise.all([exportWith(), exportWith('--retries', '2'), exportWith('--retries', '0')]);
    expect(byDefault.code).toBe(1);
    // Whichever kind's read comes first (the namespaces' LIST sys/namespaces, today).
    const firstRead = String.raw`(?:GET|LIST) sys/[a-z/]+`;
    expect(byDefault.stderr).toMatch(new RegExp(String.raw`connection refused \(${firstRead}, 5 attempts\)`));
    expect(two.stderr).toMatch(new RegExp(String.raw`connection refused \(${firstRead}, 3 attempts\)`));
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(new RegExp(String.raw`connection refused \(${firstRead}\)\n`));
    for (const r of [byDefault, two, none]) {
      expect(r.stdout + r.stderr).not.toContain('CANARY');
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it('refuses a --retries that is not a whole number from 0 to 10, before any request', async () => {
    const bads = ['11', '-1', 'x', '1.5', ''];
    const results = await Promise.all(bads.map((bad) => exportWith('--retries', bad)));
    for (const [i, res] of results.entries()) {
      const bad = bads[i]!;
      expect(res.code).toBe(1);
      expect(res.stderr.trim()).toBe(`error: --retries must be a whole number from 0 to 10 (got ${JSON.stringify(bad)})`);
    }
  });
});
