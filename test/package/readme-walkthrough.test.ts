import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outputRecorder } from '../support/canaries.js';
import { ROOT } from '../support/cli.js';

// The README's walkthrough ("Five minutes with lockstep") is run here as written, block by
// block in one bash session, and each block's output is compared with the README's: a walkthrough
// that no longer works, or prints something else, fails the suite instead of misleading a new
// user. `UPDATE_GOLDEN=1` writes the outputs of this run into the README instead (review the
// diff). The one change made to the text: the server's port 8200, which another process on the
// machine may hold, becomes a free one (and back, in the outputs).

const README = path.join(ROOT, 'README.md');
const SECTION = '## Five minutes with lockstep';
const README_PORT = '8200';

interface Step {
  /** The `sh` block, as the README has it. */
  script: string;
  /** The `text` block right after it, or null: then the step must print nothing. */
  expected: string | null;
  /** Where the expected block's body starts and ends in the README (for UPDATE_GOLDEN). */
  expectedSpan: { start: number; end: number } | null;
}

/** The `sh` blocks of the section, each with the `text` block that follows it with only blank lines between. */
function walkthroughSteps(readme: string): Step[] {
  const from = readme.indexOf(`\n${SECTION}\n`);
  if (from < 0) throw new Error(`README.md has no "${SECTION}" section`);
  const next = readme.indexOf('\n## ', from + SECTION.length + 2);
  const end = next < 0 ? readme.length : next;
  const fence = /^```(\w*)\n([\s\S]*?)^```\n/gm;
  fence.lastIndex = from;
  const blocks: Array<{ lang: string; body: string; start: number; bodyStart: number; end: number }> = [];
  for (let m = fence.exec(readme); m && m.index < end; m = fence.exec(readme)) {
    blocks.push({ lang: m[1]!, body: m[2]!, start: m.index, bodyStart: m.index + m[1]!.length + 4, end: m.index + m[0].length });
  }
  const steps: Step[] = [];
  blocks.forEach((block, i) => {
    if (block.lang === 'sh') {
      const following = blocks[i + 1];
      const adjacent = following?.lang === 'text' && readme.slice(block.end, following.start).trim() === '';
      steps.push({
        script: block.body,
        expected: adjacent ? following.body : null,
        expectedSpan: adjacent ? { start: following.bodyStart, end: following.bodyStart + following.body.length } : null,
      });
    } else if (block.lang === 'text') {
      const previous = blocks[i - 1];
      if (previous?.lang !== 'sh' || readme.slice(previous.end, block.start).trim() !== '') throw new Error(`a text block of "${SECTION}" follows no sh block`);
    } else {
      throw new Error(`"${SECTION}" holds a \`\`\`${block.lang} block: only sh (commands) and text (their output) are run and compared`);
    }
  });
  return steps;
}

/** What differs from one run to the next: timings, random key shares, the adaptive limiter's figures, the resolver's error code. */
function normalise(text: string): string {
  return text
    .replace(/\(\d+ms\)/g, '(Nms)')
    .replace(/(key share \d+ of \d+: )[0-9a-f]+/g, '$1<share>')
    .replace(/auto settled at \d+ \(peak \d+ in flight/g, 'auto settled at N (peak N in flight')
    // ldap.example.com does not resolve; how a resolver says so depends on the machine (ENOTFOUND, EAI_AGAIN offline).
    .replace(/getaddrinfo [A-Z_]+ /g, 'getaddrinfo <error> ');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

let work: string;
let readme: string;
let steps: Step[];
let outputs: string[] = [];
let statuses: number[] = [];

/** One bash session, as a user's shell: each step's output and status kept in its own files. */
function session(port: number): string {
  const lines = ['shopt -s expand_aliases', `cd ${JSON.stringify(ROOT)}`];
  steps.forEach((step, i) => {
    const script = step.script.replace(new RegExp(`(?<=--port |:)${README_PORT}\\b`, 'g'), String(port));
    lines.push(`{\n${script}} > ${JSON.stringify(path.join(work, `out-${i}`))} 2>&1`, `echo $? > ${JSON.stringify(path.join(work, `status-${i}`))}`);
  });
  return lines.join('\n') + '\n';
}

function runBash(scriptFile: string): Promise<number> {
  // Its own process group, so the server it leaves in the background (if a step failed before
  // stopping it) is ended with it.
  const child = spawn('bash', [scriptFile], {
    cwd: ROOT,
    detached: true,
    stdio: 'ignore',
    env: {
      PATH: `${path.dirname(process.execPath)}:${process.env['PATH'] ?? ''}`,
      HOME: process.env['HOME'] ?? work,
      TMPDIR: work,
      LANG: 'C.UTF-8',
    },
  });
  const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 60_000);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        // the group is gone already: every step ran, the last one stopped the server
      }
      resolve(code ?? -1);
    });
  });
}

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'lockstep-readme-'));
  readme = await readFile(README, 'utf8');
  steps = walkthroughSteps(readme);
  const port = await freePort();
  const scriptFile = path.join(work, 'walkthrough.sh');
  await writeFile(scriptFile, session(port));
  const code = await runBash(scriptFile);
  expect(code).toBe(0);
  const portInOutput = new RegExp(`127\\.0\\.0\\.1:${port}\\b`, 'g');
  outputs = await Promise.all(steps.map(async (_, i) => (await readFile(path.join(work, `out-${i}`), 'utf8')).replace(portInOutput, `127.0.0.1:${README_PORT}`)));
  statuses = await Promise.all(steps.map(async (_, i) => Number((await readFile(path.join(work, `status-${i}`), 'utf8')).trim())));
}, 90_000);

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe("the README's walkthrough", () => {
  it('starts the server, writes a manifest, plans, applies, makes drift and checks it, stops the server', () => {
    const all = steps.map((s) => s.script).join('\n');
    for (const needed of ['lockstep serve', 'export SERVICE_ADDR=', 'cat > manifests/', 'lockstep plan', 'lockstep apply', 'curl ', '--detailed-exitcode', 'kill ']) expect(all).toContain(needed);
  });

  it('runs every block without an error', () => {
    expect(statuses).toEqual(steps.map(() => 0));
  });

  it("prints what the README shows after each block (UPDATE_GOLDEN=1 writes this run's output into it)", async () => {
    if (process.env['UPDATE_GOLDEN'] === '1') {
      let updated = readme;
      // From the last block back, so the earlier spans stay where they are.
      for (let i = steps.length - 1; i >= 0; i--) {
        const span = steps[i]!.expectedSpan;
        if (span) updated = updated.slice(0, span.start) + outputs[i]! + updated.slice(span.end);
      }
      await writeFile(README, updated);
      return;
    }
    steps.forEach((step, i) => {
      expect(normalise(outputs[i]!), `the output of the README's block:\n${step.script}`).toBe(normalise(step.expected ?? ''));
    });
  });

  it('shows the drift check exiting 2, and 0 once the server is put back', () => {
    const all = outputs.join('');
    expect(all).toContain('exit status: 2');
    expect(all).toContain('exit status: 0');
  });

  it('prints the bind password in no form', () => {
    const bindpass = /export LDAP_BINDPASS=(\S+)/.exec(steps.map((s) => s.script).join('\n'))?.[1];
    expect(bindpass).toBeDefined();
    const recorder = outputRecorder();
    for (const output of outputs) recorder.add(output);
    recorder.expectNoCanaries([bindpass!], 1000);
  });
});
