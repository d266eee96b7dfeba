import { printable } from '../core/text-escape.js';
import { mkdir } from 'node:fs/promises';
import { replaceFile } from '../core/replace-file.js';
import path from 'node:path';
import type { Command } from 'commander';
import type { ClusterClient } from '../client/types.js';
import type { ClusterTarget } from '../core/cluster.js';
import type { PlanNote } from '../core/plan.js';
import { reportedVersion, servesFeature, UnservedPathError } from '../kinds/feature.js';
import { loadKinds } from '../kinds/registry.js';
import { formatPlanNote } from '../render/text.js';
import { makeChalk } from '../render/vocabulary.js';
import { manifestText, withUniqueEnvNames } from '../load/manifest-writer.js';
import { AUTO } from '../client/limiter.js';
import type { Interruption } from './interrupt.js';
import { withClientPool, type ClusterClientPool } from './clients.js';
import { globalOptions, referenceFlags, type GlobalOptions, type ServerLimits } from './common-options.js';
import { CliError } from './errors.js';
import { describeError } from '../engine/plan.js';
import { describeServer } from '../engine/unserved.js';
import type { Output } from './output.js';
import { prepareOrFail } from './pipeline.js';
import { withRequestProgress } from './progress.js';
import { implicitClusterOrFail } from './implicit-cluster.js';

interface ExportFlags {
  cluster?: string;
  out?: string;
}

const HEADER = [
  '# Exported by lockstep. Write-only fields (bindpass, client_tls_cert, client_tls_key) and',
  '# other secrets (DR operation tokens) cannot be read back: they appear as ${env:...}',
  '# references to fill in, or, where the server does not say whether it holds one, in',
  '# managedElsewhere (never sent, so never cleared; see docs/manifests.md, Write-only fields).',
  '# Values read from the server are literal text: a "${" in one is written "$${".',
].join('\n');

export function registerExport(program: Command, output: () => Output, exit: (code: number) => void, interruption?: Interruption): void {
  program
    .command('export')
    .description('write manifests of the live state (secrets as ${env:...} references)')
    .argument('[paths...]', 'manifests holding Cluster documents (default: the cluster from SERVICE_ADDR)')
    .option('--cluster <name>', 'only this cluster')
    .option('--out <dir>', 'write one file per cluster and kind into this directory (default: standard output)')
    .action(async (paths: string[], flags: ExportFlags, cmd: Command) => {
      const g = globalOptions(cmd);
      const out = output();
      const clusters = paths.length
        ? (await prepareOrFail(paths, { ...referenceFlags(g), prune: false, requireClusters: true }, out)).clusters
        : await implicitClusterOrFail(process.env);
      exit(await runExport(clusters, flags, out, g, interruption));
    });
}

async function runExport(clusters: ReadonlyMap<string, ClusterTarget>, flags: ExportFlags, output: Output, g: ServerLimits & Pick<GlobalOptions, 'logLevel'>, interruption?: Interruption): Promise<number> {
  const selected = [...clusters.values()].filter((c) => !flags.cluster || c.name === flags.cluster);
  if (selected.length === 0) throw new CliError(`no cluster named "${flags.cluster}"`);
  const read = await withClientPool(clusters, { concurrency: AUTO, limits: g, logLevel: g.logLevel, interruption }, output, (pool) =>
    withRequestProgress(output, () => pool.requestCount, exportFiles(selected, pool, output)),
  );
  // Files lockstep writes hold no secret either: a server value that is one of this run's
  // secrets (a token someone stored as a binddn) is written as "(sensitive)", and said. The
  // values are redacted before they are written out: in the file, YAML breaks a text of several
  // lines over indented lines and escapes what it must quote, so the secret is no longer there
  // as it is. The text is redacted again as written (a key, the header).
  const files = read.map((f) => {
    const docs = output.redaction.redactValue(f.docs);
    const written = `# yaml-language-server: $schema=${f.schema}\n${HEADER}\n${manifestText(docs)}`;
    const text = output.redaction.redact(written);
    if (docs !== f.docs || text !== written) {
      output.err(`warning: ${printable(f.name)}: a value on the server is a secret of this run (a cluster token or a referenced secret); it is written as "(sensitive)"`);
    }
    return { name: f.name, text };
  });
  if (flags.out) {
    await mkdir(flags.out, { recursive: true });
    // Replaced, never written through: a link planted in the directory is not followed.
    for (const f of files) await replaceFile(path.join(flags.out, f.name), f.text, 0o644);
    output.out(`Wrote ${files.length} file${files.length === 1 ? '' : 's'} to ${flags.out}: ${files.map((f) => printable(f.name)).join(', ') || '(nothing to export)'}`);
  } else {
    output.out(files.map((f) => f.text).join('---\n'));
  }
  return 0;
}

/** One manifest file per cluster and kind that holds anything, as read from the servers: its documents, not yet written out. */
async function exportFiles(selected: ClusterTarget[], pool: ClusterClientPool, output: Output): Promise<Array<{ name: string; schema: string; docs: unknown[] }>> {
  const secrets = output.redaction;
  const read: Array<{ name: string; schema: string; docs: unknown[] }> = [];
  const kinds = await loadKinds();
  for (const cluster of selected) {
    if (await isDrSecondary(pool.get(cluster.name))) {
      output.err(`${printable(cluster.name)} is a DR secondary: it serves no reads, and what it holds is exported from its DR primary`);
      continue;
    }
    for (const kind of kinds) {
      if (!kind.export) continue;
      const client = pool.get(cluster.name);
      const notes: PlanNote[] = [];
      // A server without the kind's feature holds none of its objects: said, and the export goes on.
      const failed = (err: unknown): typeof UNSERVED => {
        if (err instanceof UnservedPathError) return UNSERVED;
        throw new CliError(`export of ${kind.kind} from ${cluster.name} failed: ${describeError(err, secrets)}`);
      };
      const served = (await servesFeature(client, kind.feature)) ? await kind.export(client, cluster, notes).catch(failed) : UNSERVED;
      if (served === UNSERVED) {
        output.err(`warning: ${describeServer(cluster.name, await reportedVersion(client))} does not serve ${kind.feature.name}: none exported`);
        continue;
      }
      const docs = served;
      // Objects left out (a name that cannot be addressed): said, so the export is not taken as whole.
      for (const note of notes) output.err(formatPlanNote(note, makeChalk(false)));
      if (docs.length === 0) continue;
      read.push({ name: `${cluster.name}-${kebab(kind.kind)}.yaml`, schema: `../schemas/${kind.schemaFile}`, docs });
    }
  }
  // One variable per secret across the whole export (the user sets them all for one run).
  const unique = withUniqueEnvNames(read.map((f) => f.docs));
  for (const { from, to } of unique.renamed) output.err(`warning: two secrets would both read \${env:${printable(from)}}: the later one reads \${env:${printable(to)}}`);
  return read.map((f, i) => ({ ...f, docs: unique.documents[i] as unknown[] }));
}

const UNSERVED = Symbol('unserved');

/** `sys/health` says so (answered without a token, with the service's non-200 codes for standbys and secondaries). */
async function isDrSecondary(client: ClusterClient): Promise<boolean> {
  try {
    const health = await client.request('GET', 'sys/health', { anonymous: true, okStatuses: [429, 472, 473, 501, 503] });
    return health.data?.['replication_dr_mode'] === 'secondary';
  } catch {
    return false; // the kinds' own reads report an unreachable cluster
  }
}

function kebab(s: string): string {
  return s.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
}
