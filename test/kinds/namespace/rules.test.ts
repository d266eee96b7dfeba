import { describe, expect, test } from 'vitest';
import { Diagnostics } from '../../../src/core/diagnostics.js';
import { validateNamespaces } from '../../../src/kinds/namespace/rules.js';
import { ctx, namespace, namespaceDocs } from './docs.js';

async function check(files: string[]): Promise<string[]> {
  const diags = new Diagnostics();
  validateNamespaces(await namespaceDocs(files), diags, ctx);
  return diags.format();
}

describe('Namespace rules', () => {
  test('natural manifests pass: one segment, nested, metadata, prune', async () => {
    expect(await check([namespace('team-a', 'custom_metadata: { owner: ops }', 'prune: true'), namespace('team-a/apps'), namespace('team-b', 'prune: true')])).toEqual([]);
  });

  test('every name the service refuses is located, each its own problem', async () => {
    expect(await check([namespace('sys'), namespace('team-a/auth'), namespace('"a b"'), namespace('"x*"'), namespace('"/lead"')])).toEqual([
      'f0.yaml:3:7: error: name: segment "sys" is reserved by the service and cannot name a namespace',
      'f1.yaml:3:7: error: name: segment "auth" is reserved by the service and cannot name a namespace',
      'f2.yaml:3:7: error: name: must not contain spaces',
      'f3.yaml:3:7: error: name: segment "x*" must not contain the wildcards "+" or "*"',
      'f4.yaml:3:7: error: name: must not start or end with "/"',
    ]);
  });

  test('a namespace is declared once per cluster, naming the first place', async () => {
    expect(await check([namespace('team-a'), namespace('team-a'), namespace('team-a', 'cluster: west')])).toEqual([
      'f1.yaml:3:7: error: name: namespace "team-a" is already declared at f0.yaml:3:7 (cluster default)',
    ]);
  });

  test('siblings agree on prune; namespaces of other parents need not', async () => {
    expect(await check([namespace('team-a', 'prune: true'), namespace('team-b', 'prune: false'), namespace('team-a/x', 'prune: false')])).toEqual([
      'f1.yaml:4:8: error: prune: disagrees with prune: true at f0.yaml:4:8 (the child namespaces of the root namespace on cluster default are one collection)',
    ]);
  });
});
