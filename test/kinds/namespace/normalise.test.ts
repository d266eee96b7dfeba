import { describe, expect, test } from 'vitest';
import { desiredNamespaces } from '../../../src/kinds/namespace/normalise.js';
import { ctx, namespace, namespaceDocs } from './docs.js';

describe('desired namespaces', () => {
  test('one object per document at <parent/>sys/namespaces/<name>, metadata sorted, a nested one depending on its parent', async () => {
    const state = desiredNamespaces(await namespaceDocs([namespace('team-a', 'custom_metadata: { z: "1", a: "2" }'), namespace('team-a/apps')]), ctx);
    expect(state.resources.map((r) => [r.address.toString(), r.attrs, r.dependsOn.map(String)])).toEqual([
      ['default:sys/namespaces/team-a', { custom_metadata: { a: '2', z: '1' } }, []],
      ['default:team-a/sys/namespaces/apps', { custom_metadata: {} }, ['default:sys/namespaces/team-a']],
    ]);
    expect(Object.keys(state.resources[0]!.attrs['custom_metadata'] as object)).toEqual(['a', 'z']);
  });

  test('one collection per cluster and parent, pruned by --prune or a document of it', async () => {
    const docs = await namespaceDocs([namespace('team-a', 'prune: true'), namespace('team-a/apps'), namespace('team-b', 'cluster: west')]);
    const collections = (prune: boolean): string[][] => desiredNamespaces(docs, { ...ctx, prune }).collections.map((c) => [c.address.toString(), String(c.prune)]);
    expect(collections(false)).toEqual([
      ['default:sys/namespaces', 'true'],
      ['default:team-a/sys/namespaces', 'false'],
      ['west:sys/namespaces', 'false'],
    ]);
    expect(collections(true).every(([, prune]) => prune === 'true')).toBe(true);
  });
});
