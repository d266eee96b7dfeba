import { formatPos, type Diagnostics, type SourcePos } from '../../core/diagnostics.js';
import { namespacePathProblem } from '../../core/namespace-path.js';
import type { ResolvedDocument } from '../../load/document.js';
import type { KindContext } from '../kind.js';
import { checkPruneAgreement, reportAt } from '../report.js';
import { asNamespaceDocuments, groupBySiblings, type NamespaceDocument } from './types.js';

/**
 * The rules over all Namespace documents (schema-valid, placed): each name is a namespace path
 * the service accepts, declared once per cluster; a document does not set `namespace` (its
 * name is its whole path); the documents of one parent agree on `prune`.
 */
export function validateNamespaces(docs: ReadonlyArray<ResolvedDocument>, diags: Diagnostics, _ctx: KindContext): void {
  const namespaceDocs = asNamespaceDocuments(docs);
  for (const doc of docs) checkNamespaceValues(doc, diags);
  const named = namespaceDocs.filter((doc) => namespacePathProblem(doc.data.name) === undefined);
  checkUnique(named, diags);
  for (const group of groupBySiblings(named)) {
    const where = group.parent === '' ? 'the root namespace' : `namespace ${group.parent}`;
    checkPruneAgreement(group.docs, diags, `the child namespaces of ${where} on cluster ${group.cluster} are one collection`);
  }
}

/** The rules about single values of one document (KindModule.checkValues): its name. Any shape. */
export function checkNamespaceValues(source: ResolvedDocument, diags: Diagnostics): void {
  const doc = asNamespaceDocuments([source])[0]!;
  if (typeof doc.data.name !== 'string') return;
  const problem = namespacePathProblem(doc.data.name);
  if (problem) reportAt(diags, doc, ['name'], problem);
}

function checkUnique(docs: readonly NamespaceDocument[], diags: Diagnostics): void {
  const seen = new Map<string, () => SourcePos>();
  for (const doc of docs) {
    const key = JSON.stringify([doc.data.cluster, doc.data.name]);
    const previous = seen.get(key);
    if (previous) {
      reportAt(diags, doc, ['name'], `namespace "${doc.data.name}" is already declared at ${formatPos(previous())} (cluster ${doc.data.cluster})`);
    } else {
      seen.set(key, () => doc.source.pos(['name']));
    }
  }
}
