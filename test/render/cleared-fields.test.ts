import { describe, expect, it } from 'vitest';
import { Address } from '../../src/core/address.js';
import { PLAN_FORMAT_VERSION, type Plan } from '../../src/core/plan.js';
import { fieldLines } from '../../src/render/fields.js';
import { renderPlanJson } from '../../src/render/json.js';
import { renderPlanMarkdown } from '../../src/render/markdown.js';
import { renderPlanText } from '../../src/render/text.js';
import { change } from '../core/builders.js';

/** #14.3: a write-only field the manifest does not set is shown as cleared, in every format. */
const update = change({
  address: new Address('east', 'auth/ldap/config'),
  action: 'update',
  before: { binddn: 'cn=svc' },
  after: { binddn: '' },
  changedFields: ['binddn'],
  writeOnlyFields: ['bindpass', 'client_tls_key'],
  sensitiveFields: ['bindpass', 'client_tls_key'],
  clearedFields: ['bindpass'],
});
const key = change({
  address: new Address('east', 'sys/managed-keys/provAkms/k'),
  action: 'update',
  before: {},
  after: {},
  changedFields: ['secret_key'],
  writeOnlyFields: ['secret_key'],
  sensitiveFields: ['secret_key'],
  clearedFields: ['secret_key'],
});
const plan: Plan = { formatVersion: PLAN_FORMAT_VERSION, changes: [update, key], unmanaged: [], notes: [] };

describe('#14.3 cleared write-only fields', () => {
  it('are hidden lines marked (cleared, write-only); the others keep (sensitive, write-only)', () => {
    expect(fieldLines(update).filter((f) => f.kind === 'hidden')).toEqual([
      { kind: 'hidden', name: 'bindpass', sensitive: false, writeOnly: true, cleared: true },
      { kind: 'hidden', name: 'client_tls_key', sensitive: true, writeOnly: true },
    ]);
    const text = renderPlanText(plan, { color: false });
    expect(text).toContain('      bindpass: (cleared, write-only)\n      client_tls_key: (sensitive, write-only)');
  });

  it('json lists them in clearedFields; markdown shows them, and in the table when their presence is what changed', () => {
    expect(JSON.parse(renderPlanJson(plan)).changes.map((c: { clearedFields: string[] }) => c.clearedFields)).toEqual([['bindpass'], ['secret_key']]);
    const md = renderPlanMarkdown(plan);
    expect(md).toContain('  bindpass: (cleared, write-only)');
    expect(md).toMatch(/\| update \| `east:sys\/managed-keys\/provAkms\/k` \| `secret_key` \|/);
    expect(md).toMatch(/\| update \| `east:auth\/ldap\/config` \| `binddn` \|/);
  });
});
