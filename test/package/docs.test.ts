import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../support/cli.js';

// The README is a user's manual that fits in a sitting (issue 25.11): the commands that set up a
// fresh machine, the walkthrough (run by readme-walkthrough.test.ts), one line per feature, and
// links into docs/, where the reference lives. These checks keep the links working and the
// reference complete as the CLI and the schemas grow.

const README_MAX_BYTES = 28_000;
/** A row of the feature table is one line of a few phrases, not a paragraph. */
const FEATURE_ROW_MAX_CHARS = 400;

interface Doc {
  /** Relative to the repository, with "/" separators. */
  file: string;
  text: string;
}

let docs: Doc[];

beforeAll(async () => {
  const names = ['README.md', ...(await readdir(path.join(ROOT, 'docs'))).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
  docs = await Promise.all(names.map(async (file) => ({ file, text: await readFile(path.join(ROOT, file), 'utf8') })));
});

function doc(file: string): Doc {
  const found = docs.find((d) => d.file === file);
  if (!found) throw new Error(`${file} is missing`);
  return found;
}

/** The text outside fenced code blocks, where links and headings are markdown (line numbers kept). */
function prose(text: string): string[] {
  let inFence = false;
  return text.split('\n').map((line) => {
    if (/^\s*```/.test(line)) {
      inFence = !inFence;
      return '';
    }
    return inFence ? '' : line;
  });
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as "-", repeats numbered. */
function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of prose(text)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const slug = heading[1]!.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return anchors;
}

/** Every inline link `[text](target)` outside code, with its line. */
function linksOf(text: string): Array<{ line: number; target: string }> {
  const links: Array<{ line: number; target: string }> = [];
  prose(text).forEach((line, i) => {
    const withoutCode = line.replace(/`[^`]*`/g, 'code');
    for (const m of withoutCode.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) links.push({ line: i + 1, target: m[1]! });
  });
  return links;
}

describe('README.md', () => {
  it(`is at most ${README_MAX_BYTES} bytes`, () => {
    expect(Buffer.byteLength(doc('README.md').text)).toBeLessThanOrEqual(README_MAX_BYTES);
  });

  it('starts with the two commands that set up a fresh machine, and the note for a machine offline', () => {
    const text = doc('README.md').text;
    const firstBlock = /```sh\n([\s\S]*?)```/.exec(text)?.[1] ?? '';
    expect(firstBlock).toMatch(/^npm ci && npm run demo\b/m);
    expect(firstBlock).toMatch(/^npm ci && npm test\b/m);
    expect(text).toContain('npm_config_nodedir=/usr');
  });

  it('has one short line per feature-table row, each saying what works today and what does not yet', () => {
    const lines = doc('README.md').text.split('\n');
    const header = lines.indexOf('| Area | Works today | Not yet |');
    expect(header).toBeGreaterThan(0);
    const rows = lines.slice(header + 2).filter((_, i, all) => all.slice(0, i + 1).every((l) => l.startsWith('|')));
    expect(rows.length).toBeGreaterThan(5);
    for (const row of rows) {
      expect(row.split(/(?<!\\)\|/).length, row).toBe(5);
      expect(row.length, row).toBeLessThanOrEqual(FEATURE_ROW_MAX_CHARS);
    }
  });
});

describe('README.md and docs/', () => {
  it('link only to files that exist, and to headings that exist in them', () => {
    const broken: string[] = [];
    for (const { file, text } of docs) {
      for (const { line, target } of linksOf(text)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:: not local
        const [pathPart, anchor] = target.split('#', 2) as [string, string | undefined];
        const resolved = pathPart === '' ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), pathPart));
        const where = `${file}:${line}: ${target}`;
        if (resolved.startsWith('../') || !existsSync(path.join(ROOT, resolved))) {
          broken.push(`${where} (no such file)`);
          continue;
        }
        if (anchor !== undefined && resolved.endsWith('.md')) {
          const linked = docs.find((d) => d.file === resolved);
          const anchors = anchorsOf(linked ? linked.text : '');
          if (!linked || !anchors.has(anchor)) broken.push(`${where} (no heading with that anchor)`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it('hold YAML examples that parse (a reference unquoted inside { } does not)', async () => {
    const { loadAll } = await import('js-yaml');
    const broken: string[] = [];
    for (const { file, text } of docs) {
      for (const m of text.matchAll(/^( *)```ya?ml\n([\s\S]*?)^\1```/gm)) {
        const body = m[2]!.split('\n').map((l) => l.slice(m[1]!.length)).join('\n');
        const line = text.slice(0, m.index).split('\n').length + 1;
        // Examples may show alternatives of one key one after another: duplicates are allowed here (json: true).
        try {
          loadAll(body, undefined, { json: true });
        } catch (e) {
          broken.push(`${file}:${line}: ${(e as Error).message.split('\n')[0]}`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it('are all linked from the README, directly or from a page it links', () => {
    const reached = new Set(['README.md']);
    for (let grew = true; grew; ) {
      grew = false;
      for (const { file, text } of docs.filter((d) => reached.has(d.file))) {
        for (const { target } of linksOf(text)) {
          const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(file), target.split('#')[0]!));
          if (docs.some((d) => d.file === resolved) && !reached.has(resolved)) {
            reached.add(resolved);
            grew = true;
          }
        }
      }
    }
    expect(docs.map((d) => d.file).filter((f) => !reached.has(f))).toEqual([]);
  });
});

describe('docs/commands.md', () => {
  it('names every command and every option the CLI has', async () => {
    const text = doc('docs/commands.md').text;
    const top = await runCli(['--help']);
    const commands = [...top.stdout.matchAll(/^ {2}([a-z]+) /gm)].map((m) => m[1]!).filter((c) => c !== 'help');
    expect(commands.length).toBeGreaterThan(5);
    const missing: string[] = [];
    for (const option of [...top.stdout.matchAll(/ (--[a-z-]+)/g)].map((m) => m[1]!)) if (!text.includes(option)) missing.push(option);
    for (const command of commands) {
      if (!text.includes(`lockstep ${command}`)) missing.push(command);
      const help = await runCli([command, '--help']);
      for (const option of [...help.stdout.matchAll(/^ {2}(?:-\w, )?(--[a-z-]+)/gm)].map((m) => m[1]!)) {
        if (option !== '--help' && !text.includes(option)) missing.push(`${command} ${option}`);
      }
    }
    expect(missing).toEqual([]);
  });
});

describe('docs/manifests.md', () => {
  it('names every field of every kind the schemas define', async () => {
    const text = doc('docs/manifests.md').text;
    const missing: string[] = [];
    for (const name of await readdir(path.join(ROOT, 'schemas'))) {
      const schema = JSON.parse(await readFile(path.join(ROOT, 'schemas', name), 'utf8')) as unknown;
      for (const field of fieldsOf(schema)) if (!text.includes(`\`${field}\``) && !new RegExp(`^\\s*${field}:`, 'm').test(text)) missing.push(`${name}: ${field}`);
    }
    expect(missing).toEqual([]);
  });
});

/** Every property name anywhere in a schema (its documents, their configs, their nested options). */
function fieldsOf(schema: unknown): Set<string> {
  const fields = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (typeof node !== 'object' || node === null) return;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'properties' && typeof value === 'object' && value !== null) for (const field of Object.keys(value)) fields.add(field);
      visit(value);
    }
  };
  visit(schema);
  return fields;
}
