import { stat } from 'node:fs/promises';
import { replaceFile } from '../core/replace-file.js';
import type { Command } from 'commander';
import { Diagnostics } from '../core/diagnostics.js';
import { AliasBudget } from '../load/alias-expansion.js';
import { formatManifestText } from '../load/format.js';
import { readManifestFiles } from '../load/loader.js';
import { parseManifest } from '../load/parse.js';
import { CliError } from './errors.js';
import type { Output } from './output.js';

/**
 * `lockstep fmt PATH... [--check]`: rewrites manifest files in the canonical layout (comments,
 * key order and styles kept: src/load/format.ts). A file with YAML errors is reported and left
 * as it is. `--check` writes nothing and exits 1 when a file would change, naming each one.
 */
export function registerFmt(program: Command, output: () => Output, exit: (code: number) => void): void {
  program
    .command('fmt')
    .description('rewrite manifest files in the canonical YAML layout, comments kept (--check: only say which would change)')
    .argument('<paths...>', 'manifest files or directories')
    .option('--check', 'write nothing; exit 1 when a file is not in the canonical layout')
    .action(async (paths: string[], flags: { check?: boolean }) => {
      const out = output();
      const diags = new Diagnostics();
      const files = await readManifestFiles(paths, diags);
      if (files.length === 0 && !diags.hasErrors()) diags.error(`no manifest files (.yaml, .yml) in ${paths.join(', ')}`);
      const changed: string[] = [];
      const aliases = new AliasBudget();
      for (const f of files) {
        const fileDiags = new Diagnostics();
        parseManifest(f.text, f.file, f.absoluteFile, fileDiags, { givenDir: f.givenDir, aliases });
        diags.append(fileDiags);
        if (fileDiags.hasErrors()) continue;
        const formatted = formatManifestText(f.text);
        if (formatted.kind === 'unsafe') {
          diags.error(`${f.file}: left as it is: ${formatted.reason}`);
          continue;
        }
        if (!formatted.changed) continue;
        changed.push(f.file);
        if (!flags.check) await rewriteFile(f.absoluteFile, formatted.text);
      }
      for (const line of diags.format()) out.err(line);
      for (const file of changed) out.out(flags.check ? `would reformat ${file}` : `reformatted ${file}`);
      if (diags.hasErrors()) throw new CliError(`${diags.errors.length} error${diags.errors.length === 1 ? '' : 's'}; files with errors were left as they are`);
      exit(flags.check && changed.length > 0 ? 1 : 0);
    });
}

/** Written beside the file, then renamed over it (core/replace-file.ts); its mode is kept. */
async function rewriteFile(file: string, text: string): Promise<void> {
  const { mode } = await stat(file);
  await replaceFile(file, text, mode & 0o7777);
}
