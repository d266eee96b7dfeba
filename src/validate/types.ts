import type { ClusterTarget } from '../core/cluster.js';
import type { Diagnostics } from '../core/diagnostics.js';
import type { DesiredState } from '../core/resource.js';
import type { ResolvedDocument } from '../load/document.js';
import type { KindModule } from '../kinds/kind.js';

export interface PrepareOptions {
  /** `--allow-plaintext-secrets`: literal secret values are accepted (as Secret, origin `literal`). */
  allowPlaintextSecrets: boolean;
  /** `--allow-files-outside-root`: `${file:}` references may leave the manifests' tree. */
  allowFilesOutsideRoot?: boolean;
  /** `--prune`: adds to each document's own `prune`. */
  prune: boolean;
  /** Where `${env:...}` and the SERVICE_* variables are read. */
  env: NodeJS.ProcessEnv;
  /**
   * The command talks to servers (plan, apply, check, export): no resolvable cluster, or a
   * broken SERVICE_* setup, is an error. `validate` passes false.
   */
  requireClusters: boolean;
  /**
   * The clock certificates are judged by (expired, not yet valid, ending soon): the moment
   * prepare starts unless a test sets it. `check` judges live chains by the same reading.
   */
  now?: Date;
}

export interface Prepared<K extends PreparableKind = KindModule> {
  /** The modules of the kinds the manifests use, in registry order. */
  kinds: K[];
  /** Every problem of every file, warnings included. */
  diags: Diagnostics;
  /** Clusters complete enough to talk to, by name. */
  clusters: Map<string, ClusterTarget>;
  /**
   * Documents that passed schema, references and placement, by kind (`Cluster` included).
   * Resource documents have `data.cluster` and `data.namespace` filled in.
   */
  documents: Map<string, ResolvedDocument[]>;
  /** Every YAML document read, valid or not. */
  documentCount: number;
  /** By kind; filled only when there are no errors. */
  desired: Map<string, DesiredState>;
  /**
   * Every secret text the references of any document resolved to (see ReferenceOptions), and the
   * environment's own secrets (SERVICE_TOKEN and the login's), whether or not a cluster was built.
   */
  secretTexts: ReadonlySet<string>;
  /** The clock reading validation used (PrepareOptions.now). */
  now: Date;
}

/** What prepare needs of a kind (a KindModule has more). */
export type PreparableKind = Pick<KindModule, 'kind' | 'schemaFile' | 'secretPaths' | 'validate' | 'checkValues' | 'desired' | 'placement'>;

/** Where prepare gets its kinds: every name, and the modules of those the manifests use. */
export interface KindSource<K extends PreparableKind = PreparableKind> {
  names: readonly string[];
  load(names: ReadonlySet<string>): Promise<K[]>;
}
