import { describe, expect, it } from 'vitest';
import { Diagnostics, formatPos } from '../../../src/core/diagnostics.js';
import { drReplicationKind } from '../../../src/kinds/dr-replication/index.js';
import type { ResolvedDocument, ValuePath } from '../../../src/load/document.js';
import { schemaValidator } from '../../../src/validate/schemas.js';
import { drDoc, kindContext, SHARE_TEXTS, type DocSpec } from './fixtures.js';

const CLUSTERS = ['east', 'west', 'south', 'north'];

function validate(...specs: DocSpec[]): { diags: Diagnostics; docs: ResolvedDocument[] } {
  const docs = specs.map((s, i) => drDoc({ file: `dr${i}.yaml`, ...s }));
  const diags = new Diagnostics();
  drReplicationKind.validate(docs, diags, kindContext(CLUSTERS));
  return { diags, docs };
}

/** The one error, and that it points at `path` of document `doc`. */
function onlyError(result: { diags: Diagnostics; docs: ResolvedDocument[] }, doc: number, path: ValuePath): string {
  expect(result.diags.errors).toHaveLength(1);
  const [d] = result.diags.errors;
  expect(d!.pos).toEqual(result.docs[doc]!.source.pos(path));
  return d!.message;
}

const ok: DocSpec = { primary: 'east', secondaries: ['west'], keyShares: SHARE_TEXTS };

describe('DrReplication rules', () => {
  it('accepts a valid set', () => {
    expect(validate(ok).diags.items).toEqual([]);
    expect(validate({ primary: 'east', secondaries: ['west', { cluster: 'south', primary_api_addr: 'https://east:8200' }], operationTokens: { west: 'w', south: 's' } }).diags.items).toEqual([]);
    expect(validate({ primary: 'east' }).diags.items).toEqual([]);
  });

  it('every named cluster has a Cluster document', () => {
    expect(onlyError(validate({ ...ok, primary: 'nowhere' }), 0, ['primary'])).toBe('primary: unknown cluster "nowhere"; known clusters: east, west, south, north');
    expect(onlyError(validate({ ...ok, secondaries: ['west', 'mars'] }), 0, ['secondaries', 1])).toContain('unknown cluster "mars"');
    expect(onlyError(validate({ ...ok, secondaries: [{ cluster: 'mars' }] }), 0, ['secondaries', 0, 'cluster'])).toContain('unknown cluster "mars"');
    expect(onlyError(validate({ ...ok, operationTokens: { mars: 'x' } }), 0, ['operationTokens', 'mars'])).toContain('unknown cluster "mars"');
  });

  it('a cluster appears once in a set', () => {
    const msg = onlyError(validate({ ...ok, secondaries: ['west', 'south', 'west'] }), 0, ['secondaries', 2]);
    expect(msg).toBe('secondaries[2]: west appears twice in set "prod" (also at secondaries[0])');
  });

  it('a primary is never its own secondary', () => {
    const msg = onlyError(validate({ ...ok, secondaries: ['west', 'east'] }), 0, ['secondaries', 1]);
    expect(msg).toBe('secondaries[1]: east is the primary of set "prod"; a primary is never its own secondary');
  });

  it('one replication set per cluster, across documents', () => {
    const r = validate(ok, { name: 'other', primary: 'south', secondaries: ['west'], keyShares: SHARE_TEXTS });
    const msg = onlyError(r, 1, ['secondaries', 0]);
    const first = formatPos(r.docs[0]!.source.pos(['secondaries', 0]));
    expect(msg).toBe(`secondaries[0]: west is already in replication set "prod" (${first}); a cluster belongs to one replication set`);
  });

  it('a set name is declared once', () => {
    const msg = onlyError(validate(ok, { primary: 'south', keyShares: SHARE_TEXTS }), 1, ['name']);
    expect(msg).toMatch(/^name: replication set "prod" is already declared at dr0\.yaml:\d+:\d+$/);
  });

  it('secondaries without operationTokens or keyShares', () => {
    const msg = onlyError(validate({ primary: 'east', secondaries: ['west'] }), 0, ['secondaries']);
    expect(msg).toContain('neither operationTokens nor keyShares is given');
  });

  it('operationTokens lacking a secondary and no keyShares', () => {
    const msg = onlyError(validate({ primary: 'east', secondaries: ['west', 'south', 'north'], operationTokens: { west: 'w' } }), 0, ['operationTokens']);
    expect(msg).toBe(
      'operationTokens: no DR operation token for south and north, which need one for a failover or a change of primary; add them or give keyShares',
    );
    // Key shares cover the clusters without a token.
    expect(validate({ primary: 'east', secondaries: ['west', 'south'], operationTokens: { west: 'w' }, keyShares: SHARE_TEXTS }).diags.items).toEqual([]);
  });

  it('key shares are hex or base64, and the message never shows the share', () => {
    const msg = onlyError(validate({ ...ok, keyShares: ['0a1b', 'not a share!'] }), 0, ['keyShares', 1]);
    expect(msg).toBe('keyShares[1]: a root key share must be hex or base64');
    expect(msg).not.toContain('not a share');
  });

  it('secondaryTokenTtl is a positive whole-second duration', () => {
    expect(validate({ ...ok, secondaryTokenTtl: '1h30m' }).diags.items).toEqual([]);
    expect(onlyError(validate({ ...ok, secondaryTokenTtl: '1500ms' }), 0, ['secondaryTokenTtl'])).toContain('positive duration');
    expect(onlyError(validate({ ...ok, secondaryTokenTtl: 0 }), 0, ['secondaryTokenTtl'])).toContain('positive duration');
  });

  it('addresses are URLs', () => {
    expect(onlyError(validate({ ...ok, primaryClusterAddr: 'east-lb' }), 0, ['primaryClusterAddr'])).toContain('must be an address');
    expect(onlyError(validate({ ...ok, secondaries: [{ cluster: 'west', primary_api_addr: '::' }] }), 0, ['secondaries', 0, 'primary_api_addr'])).toContain('must be an address');
  });

  it('reports every problem at once', () => {
    const r = validate({ primary: 'mars', secondaries: ['west', 'west', 'venus'], keyShares: ['%%'] });
    expect(r.diags.errors.length).toBe(4);
  });
});

describe('secret paths', () => {
  it('every operation token and every key share', () => {
    expect(drReplicationKind.secretPaths({ operationTokens: { west: '${env:W}', south: '${env:S}' }, keyShares: ['${file:a}', '${file:b}'] })).toEqual([
      ['operationTokens', 'west'],
      ['operationTokens', 'south'],
      ['keyShares', 0],
      ['keyShares', 1],
    ]);
    expect(drReplicationKind.secretPaths({ primary: 'east' })).toEqual([]);
    expect(drReplicationKind.secretPaths(null)).toEqual([]);
  });
});

describe('schema', () => {
  const validateSchema = schemaValidator('dr-replication.schema.json');
  const doc = { apiVersion: 'lockstep/v1', kind: 'DrReplication', name: 'prod', primary: 'east' };

  it('accepts the contract example', () => {
    expect(
      validateSchema({
        ...doc,
        secondaries: ['west', { cluster: 'south', primary_api_addr: 'https://east:8200', ca_file: 'ca.pem' }],
        primaryClusterAddr: 'https://east-lb:8201',
        operationTokens: { west: '${env:WEST_DR_OPERATION_TOKEN}' },
        keyShares: ['${file:shares/1}', '${file:shares/2}'],
        secondaryTokenTtl: '30m',
      }),
    ).toBe(true);
  });

  it('refuses unknown fields everywhere (a typo never drops configuration)', () => {
    expect(validateSchema({ ...doc, secondary: ['west'] })).toBe(false);
    expect(validateSchema({ ...doc, secondaries: [{ cluster: 'west', ca_flie: 'x' }] })).toBe(false);
  });

  it('requires name and primary; keyShares is never empty; TTL is a duration', () => {
    expect(validateSchema({ apiVersion: 'lockstep/v1', kind: 'DrReplication', primary: 'east' })).toBe(false);
    expect(validateSchema({ ...doc, keyShares: [] })).toBe(false);
    expect(validateSchema({ ...doc, secondaryTokenTtl: 'soon' })).toBe(false);
  });
});
