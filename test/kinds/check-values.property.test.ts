/**
 * KindModule.checkValues and the Cluster's checkClusterValues take any shape the schema lets
 * through: prepare runs them on what is left of a document that failed its schema or a
 * reference (validate/salvage.ts), where a required field may be missing and every value left
 * passed the schema at its own place. Arbitrary values under the fields the kinds know, salvaged
 * as prepare salvages them (the kind's own schema, withoutRefused): the rules never throw, and
 * every problem they report is at a position.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Diagnostics } from '../../src/core/diagnostics.js';
import type { LoadedDocument, ResolvedDocument } from '../../src/load/document.js';
import { checkClusterValues, CLUSTER_SCHEMA_FILE } from '../../src/kinds/cluster/index.js';
import { loadKinds } from '../../src/kinds/registry.js';
import { refusedBySchema, withoutRefused } from '../../src/validate/salvage.js';
import { schemaValidator } from '../../src/validate/schemas.js';

const FIELDS = [
  'name', 'cluster', 'namespace', 'mount', 'type', 'config', 'groups', 'users', 'policy', 'verify', 'acknowledge', 'managedElsewhere',
  'keyShares', 'secondaryTokenTtl', 'primaryClusterAddr', 'address', 'caCert', 'url', 'token_ttl', 'token_bound_cidrs', 'userfilter',
  'groupfilter', 'usages', 'slot', 'mechanism', 'key_bits', 'storage_type', 'interval', 'retain', 'local_max_space', 'certificate',
  'client_tls_cert', 'client_tls_key', '__proto__', 'constructor',
];

const leaf = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom('..', 'a/b', 'ldap://h', '1h', '10.0.0.0/33', '{{.Nope', 'pkcs11', 'local', 'path "a" { capabilities = ["reed"] }', '-----BEGIN CERTIFICATE-----\nAA\n-----END CERTIFICATE-----'),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
);
const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  any: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('any'), { maxLength: 3 }), fc.dictionary(fc.constantFrom(...FIELDS), tie('any'), { maxKeys: 4 })),
})).any;
// Through JSON, as a loaded manifest is: plain objects, a `__proto__` key an own key like any other.
const documentData = fc.dictionary(fc.constantFrom(...FIELDS), value, { maxKeys: 8 }).map((d) => JSON.parse(JSON.stringify(d)) as Record<string, unknown>);

/** What prepare keeps of `data` for the rules about single values: the values the schema lets through at their own place. */
function salvaged(schemaFile: string, data: Record<string, unknown>): Record<string, unknown> | undefined {
  const validate = schemaValidator(schemaFile);
  const document = { apiVersion: 'lockstep/v1', kind: 'X', ...data };
  if (validate(document)) return document;
  return withoutRefused(document, refusedBySchema(validate.errors ?? []))?.data;
}

function resolved(kind: string, data: Record<string, unknown>): ResolvedDocument {
  const at = { file: 'm.yaml', line: 1, column: 1 };
  const source: LoadedDocument = {
    file: 'm.yaml',
    absoluteFile: '/m.yaml',
    index: 0,
    value: data,
    pos: () => at,
    keyPos: () => at,
    needlePos: () => at,
    textPos: () => undefined,
  };
  return { source, kind, data };
}

describe('the rules about single values take any shape', () => {
  it('property: every kind\'s checkValues and the Cluster\'s never throw, and report only located problems', async () => {
    const kinds = (await loadKinds()).filter((k) => k.checkValues !== undefined);
    expect(kinds.length).toBeGreaterThanOrEqual(6);
    fc.assert(
      fc.property(documentData, (data) => {
        for (const kind of kinds) {
          const left = salvaged(kind.schemaFile, data);
          if (left === undefined) continue;
          const diags = new Diagnostics();
          kind.checkValues!(resolved(kind.kind, left), diags);
          for (const d of diags.items) expect(d.pos, d.message).toBeDefined();
        }
        const cluster = salvaged(CLUSTER_SCHEMA_FILE, data);
        if (cluster) checkClusterValues(resolved('Cluster', cluster), new Diagnostics());
      }),
      { numRuns: 400, seed: 20261127 },
    );
  });
});
