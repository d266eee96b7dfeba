import { NAMESPACE_RESOURCE_TYPE } from '../../core/namespace-path.js';
import type { KindModule } from '../kind.js';
import { exportNamespaces } from './export.js';
import { desiredNamespaces } from './normalise.js';
import { planNamespaces } from './plan.js';
import { readNamespaces } from './read.js';
import { checkNamespaceValues, validateNamespaces } from './rules.js';
import { NAMESPACE_KIND, NAMESPACE_SCHEMA_FILE } from './types.js';
import { applyNamespaceChange } from './write.js';

/** Namespaces (`<parent/>sys/namespaces/<name>`): created before anything in them, pruned only when empty. */
export const namespaceKind: KindModule = {
  kind: NAMESPACE_KIND,
  resourceTypes: [NAMESPACE_RESOURCE_TYPE],
  schemaFile: NAMESPACE_SCHEMA_FILE,
  // Vault Community serves no sys/namespaces (a Vault Enterprise feature; OpenBao has it).
  feature: { name: 'namespaces', probe: { method: 'LIST', path: 'sys/namespaces' } },
  secretPaths: () => [],
  validate: validateNamespaces,
  checkValues: checkNamespaceValues,
  desired: desiredNamespaces,
  read: readNamespaces,
  plan: planNamespaces,
  apply: applyNamespaceChange,
  export: exportNamespaces,
};
