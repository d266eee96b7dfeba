/**
 * Issue 25, items 2 and 3, end to end with generated inputs: a server that echoes what it was
 * sent (in any encoding) never gets a secret printed; text from a manifest or a server never
 * starts a line of its own (a forged diagnostic, `::error::` in CI) and, in markdown, never
 * leaves code (no @mention, HTML or heading; no fence closed early).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHORT_SECRET_LENGTH } from '../../src/core/redaction.js';
import { outputRecorder } from '../support/canaries.js';
import { runCli, type CliResult } from '../support/cli.js';
import { useProxiedServer } from '../support/proxied-server.js';
import { BODIES, ENCODINGS, secretArb } from '../support/secret-encodings.js';

const served = useProxiedServer({});
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'lockstep-untrusted-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const cli = (args: string[], env: Record<string, string> = {}): Promise<CliResult> =>
  runCli(args, { env: { SERVICE_ADDR: served.proxy.baseUrl, SERVICE_TOKEN: served.cluster.token, ...env } });

const LDAP_MANIFEST = `apiVersion: lockstep/v1
kind: LdapAuth
config:
  url: ldap://ldap.example.com
  binddn: cn=admin,dc=example,dc=com
  bindpass: \${env:LDAP_BINDPASS}
  userdn: ou=users,dc=example,dc=com
  userattr: uid
`;

describe('#25.2: a server that echoes the request body, in any encoding, never gets a secret printed', () => {
  it('property: secrets of any length and characters × every encoding and nesting × where they stand', async () => {
    const manifest = path.join(dir, 'ldap.yaml');
    await writeFile(manifest, LDAP_MANIFEST);
    await fc.assert(
      fc.asyncProperty(secretArb, fc.constantFrom(...BODIES), async (secret, around) => {
        // One answer holds every encoding of the body it got, and of the secret where it stands in other texts.
        served.proxy.respond('POST auth/ldap/config', (body) => ({
          status: 400,
          body: {
            errors: ENCODINGS.filter((e) => !e.foldsCase || secret.length >= SHORT_SECRET_LENGTH).flatMap((e) => [
              `${e.name}: ${e.encode(body)}`,
              `${e.name}: ${e.encode(around(secret))}`,
            ]),
          },
        }));
        const recorder = outputRecorder();
        const run = recorder.record(await cli(['apply', manifest, '--auto-approve', '--retries', '0'], { LDAP_BINDPASS: secret }));
        expect(run.code, run.stdout + run.stderr).toBe(1);
        expect(run.stdout + run.stderr).toMatch(/400|\(sensitive\)/);
        recorder.expectNoCanaries([secret], 200);
      }),
      { numRuns: 8 },
    );
    served.proxy.clear();
  });
});

/** Texts a manifest or a server may hold to forge other programs' input. */
const hostileText = fc
  .array(
    fc.oneof(
      fc.constantFrom('\n', '\r\n', '\r', '\u2028', '\u2029', '\u0085', '\u202e', '\u2066', '\u200b', '\u001b[31m', '\t', '\u0000', '\u007f'),
      fc.integer({ min: 1, max: 12 }).map((n) => '`'.repeat(n)),
      fc.constantFrom('@octocat', '@org/team', '<b>bold</b>', '<img src=x onerror=alert(1)>', '# heading', '::error::forged', '::add-mask::x', '[link](http://evil.example)', '</details>', '|'),
      fc.string({ maxLength: 6 }),
    ),
    { minLength: 1, maxLength: 8 },
  )
  .map((parts) => `${parts.join('')}\n::error file=x::forged`);

/** No character that starts a line, moves the cursor or reorders text, other than the line feeds of lockstep's own lines. */
function expectOnlyPrintableLines(text: string): void {
  // eslint-disable-next-line no-control-regex
  expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\u200b]/);
  for (const line of text.split('\n')) expect(line).not.toMatch(/^\s*::/);
}

/**
 * Markdown with every code span and fenced block taken out, as CommonMark reads them: a fence
 * closes only on a line of at least as many backticks, a code span on a run of exactly as many.
 */
function outsideCode(markdown: string): string {
  const kept: string[] = [];
  let fence: string | undefined;
  for (const line of markdown.split('\n')) {
    if (fence !== undefined) {
      if (new RegExp(`^ {0,3}${fence}\`*\\s*$`).test(line)) fence = undefined;
      continue;
    }
    const opening = /^ {0,3}(`{3,})/.exec(line);
    if (opening) {
      fence = opening[1];
      continue;
    }
    kept.push(line.replace(/(`+)([\s\S]*?[^`])\1(?!`)/g, ''));
  }
  expect(fence, 'a fence left open: something closed or broke it').toBeUndefined();
  return kept.join('\n');
}

describe('#25.3: text from a manifest or a server is printed by the one printer', () => {
  it('property: a manifest key of hostile text gives located diagnostics, one line each, nothing forged', async () => {
    await fc.assert(
      fc.asyncProperty(hostileText, async (text) => {
        const manifest = path.join(dir, 'hostile.yaml');
        // JSON is YAML: any string is a key as it is.
        await writeFile(manifest, `apiVersion: lockstep/v1\nkind: LdapAuth\nconfig: { url: "ldap://ldap.example.com", ${JSON.stringify(text)}: 1 }\n`);
        const run = await cli(['validate', manifest]);
        expect(run.code).toBe(1);
        expectOnlyPrintableLines(run.stdout + run.stderr);
        for (const line of run.stderr.trimEnd().split('\n')) expect(line).toMatch(/^(\S+:\d+:\d+: )?(error|warning): /);
      }),
      { numRuns: 15 },
    );
  });

  it('property: a server error of hostile text stays on its line in the log, and in code in the failure comment (lockstep log-comment)', async () => {
    const manifest = path.join(dir, 'ldap-error.yaml');
    await writeFile(manifest, LDAP_MANIFEST);
    await fc.assert(
      fc.asyncProperty(hostileText, async (text) => {
        served.proxy.respond('POST auth/ldap/config', () => ({ status: 400, body: { errors: [text] } }));
        const run = await cli(['apply', manifest, '--auto-approve', '--retries', '0'], { LDAP_BINDPASS: 'bind-password-0' });
        expect(run.code).toBe(1);
        expectOnlyPrintableLines(run.stdout + run.stderr);
        const log = path.join(dir, 'apply.log');
        await writeFile(log, run.stdout + run.stderr);
        const comment = await cli(['log-comment', log, '--title', 'lockstep apply failed (exit 1)']);
        expect(comment.code, comment.stderr).toBe(0);
        expectOnlyPrintableLines(comment.stdout);
        const prose = outsideCode(comment.stdout);
        expect(prose.trim()).toBe('### lockstep apply failed (exit 1)');
      }),
      { numRuns: 8 },
    );
    served.proxy.clear();
  });

  it('property: a name held on the server shows in the markdown plan only in code (no @mention, HTML, heading or link)', async () => {
    const manifest = path.join(dir, 'ldap-plan.yaml');
    await writeFile(manifest, LDAP_MANIFEST);
    await fc.assert(
      fc.asyncProperty(hostileText, async (name) => {
        served.proxy.clear();
        served.proxy.rewrite('LIST auth/ldap/groups', (b) => ({ ...b, data: { keys: [name] } }));
        const run = await cli(['plan', manifest, '--format', 'markdown'], { LDAP_BINDPASS: 'bind-password-0' });
        expect(run.code, run.stderr).toBe(0);
        expectOnlyPrintableLines(run.stdout + run.stderr);
        const prose = outsideCode(run.stdout);
        for (const forged of ['@', '<b>', '<img', '# heading', '](http', '::error']) expect(prose).not.toContain(forged);
        expect(run.stdout).toContain('**Notes**');
      }),
      { numRuns: 8 },
    );
    served.proxy.clear();
  });
});
