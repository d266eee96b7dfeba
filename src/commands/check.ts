import type { Command } from 'commander';
import { printable } from '../core/text-escape.js';
import type { CheckFinding } from '../kinds/kind.js';
import { AUTO } from '../client/limiter.js';
import type { Interruption } from './interrupt.js';
import { withClientPool } from './clients.js';
import { globalOptions, referenceFlags } from './common-options.js';
import type { Output } from './output.js';
import { kindsOf } from '../engine/plan.js';
import { UnservedFeatures } from '../engine/unserved.js';
import { prepareOrFail } from './pipeline.js';

interface CheckFlags {
  user?: string;
  format: 'text' | 'json';
}

export function registerCheck(program: Command, output: () => Output, exit: (code: number) => void, interruption?: Interruption): void {
  program
    .command('check')
    .description('preflight the outside world the manifests point at (LDAP servers, HSMs, KMS keys, snapshot destinations)')
    .argument('<paths...>', 'manifest files or directories')
    .option('--user <name>', 'LDAP: confirm this user is found exactly once and list the groups it would get')
    .option('--format <format>', 'text or json', 'text')
    .action(async (paths: string[], flags: CheckFlags, cmd: Command) => {
      const g = globalOptions(cmd);
      const out = output();
      const prepared = await prepareOrFail(paths, { ...referenceFlags(g), prune: false, requireClusters: false }, out);
      const findings: CheckFinding[] = [];
      // Only clusters complete enough to talk to are in the pool; kinds handle the others.
      // A document whose server does not serve its kind is a located error, its kind checked without it.
      const unserved = await withClientPool(prepared.clusters, { concurrency: AUTO, limits: g, logLevel: g.logLevel, interruption }, out, async (clients) => {
        const probed = new UnservedFeatures(prepared, clients);
        for (const { kind, state } of await probed.probe(kindsOf(prepared))) {
          if (kind.check) findings.push(...(await kind.check(state, { user: flags.user, now: prepared.now }, clients)));
        }
        return probed;
      });
      out.out(flags.format === 'json' ? JSON.stringify({ formatVersion: 1, findings }, null, 2) : renderFindings(findings));
      for (const line of unserved.diags.format()) out.err(line);
      exit(findings.some((f) => !f.ok) || unserved.diags.hasErrors() ? 1 : 0);
    });
}

function renderFindings(findings: CheckFinding[]): string {
  if (findings.length === 0) return 'Nothing to check.';
  // Subjects and messages quote what a directory, a key service or a server answered: through the one printer.
  const lines = findings.map((f) => `${!f.ok ? 'FAIL' : f.warning ? 'warn' : 'ok  '} ${f.address ? `${printable(String(f.address))} ` : ''}${printable(f.subject)}: ${printable(f.message)}`);
  const failed = findings.filter((f) => !f.ok).length;
  const warned = findings.filter((f) => f.ok && f.warning).length;
  const warnings = warned ? ` (${warned} warning${warned === 1 ? '' : 's'})` : '';
  lines.push(failed ? `Check failed: ${failed} of ${findings.length} findings failed${warnings}.` : `Check passed: ${findings.length} findings${warnings}.`);
  return lines.join('\n');
}
