import { formatPos, type Diagnostics, type SourcePos } from '../../core/diagnostics.js';
import type { ResolvedDocument } from '../../load/document.js';
import { parseAclPolicy } from '../../values/acl-policy/index.js';
import type { KindContext } from '../kind.js';
import { checkPruneAgreement, reportAt } from '../report.js';
import { canonicalPolicyName, policyNameProblem } from './names.js';
import { asAclPolicyDocuments, groupByScope, type AclPolicyDocument, type PolicyScope } from './types.js';

/**
 * The rules over all AclPolicy documents (schema-valid, placed): each name one the service
 * stores as written and lets be written, declared once per cluster and namespace (compared as
 * the service stores it, lower case); the documents of one namespace agree on `prune`; each
 * policy text parses as the service parses it (values/acl-policy), every problem located
 * inside the text as written in the manifest.
 */
export function validateAclPolicies(docs: ReadonlyArray<ResolvedDocument>, diags: Diagnostics, _ctx: KindContext): void {
  const policyDocs = asAclPolicyDocuments(docs);
  for (const doc of docs) checkAclPolicyValues(doc, diags);
  const named = policyDocs.filter((doc) => policyNameProblem(doc.data.name) === undefined);
  for (const scope of groupByScope(named)) {
    checkUnique(scope, diags);
    checkPruneAgreement(scope.docs, diags, `the ACL policies of ${describeScope(scope)} are one collection`);
  }
}

/** The rules about single values of one document (KindModule.checkValues): its name and its text. Any shape. */
export function checkAclPolicyValues(source: ResolvedDocument, diags: Diagnostics): void {
  const doc = asAclPolicyDocuments([source])[0]!;
  if (typeof doc.data.policy === 'string') checkPolicyText(doc, diags);
  if (typeof doc.data.name !== 'string') return;
  const problem = policyNameProblem(doc.data.name);
  if (problem) reportAt(diags, doc, ['name'], problem);
}

function checkUnique(scope: PolicyScope, diags: Diagnostics): void {
  const seen = new Map<string, () => SourcePos>();
  for (const doc of scope.docs) {
    const name = canonicalPolicyName(doc.data.name);
    const previous = seen.get(name);
    if (previous) {
      reportAt(diags, doc, ['name'], `ACL policy "${name}" is already declared at ${formatPos(previous())} (${describeScope(scope)}; the service stores names lower-cased)`);
    } else {
      seen.set(name, () => doc.source.pos(['name']));
    }
  }
}

/**
 * The text as the service parses it; each problem at its place in the manifest: inside the
 * block scalar, shifted by where the text starts and how it is indented (load/positions
 * textPos). Where the written form does not map one to one (a folded or double-quoted text, a
 * `${file:}` reference, a `$${` escape), at the value, naming the line and column in the text.
 */
function checkPolicyText(doc: AclPolicyDocument, diags: Diagnostics): void {
  const text = doc.data.policy;
  const parsed = parseAclPolicy(text);
  if (parsed.kind === 'parsed') return;
  const written = (doc.source.value as { policy?: unknown } | null)?.policy;
  const asWritten = written === text;
  for (const error of parsed.errors) {
    const inside = asWritten ? doc.source.textPos(['policy'], error.line, error.column) : undefined;
    const where = inside ? '' : ` (line ${error.line}, column ${error.column} of the policy text)`;
    // hcl's syntax errors start with their place in the text ("At 2:6: "): said by the position instead.
    const message = error.message.replace(/^At \d+:\d+: /, '');
    diags.add({ severity: 'error', origin: 'manifest', message: `policy: ${message}${where}`, pos: inside ?? doc.source.pos(['policy']) });
  }
}

function describeScope(scope: { cluster: string; namespace: string }): string {
  return `cluster ${scope.cluster}${scope.namespace === '' ? '' : `, namespace ${scope.namespace}`}`;
}
