import { describe, expect, test } from 'vitest';
import { Address } from '../../../src/core/address.js';
import type { LiveState } from '../../../src/core/resource.js';
import { desiredSnapshotPolicies } from '../../../src/kinds/snapshot-policy/normalise.js';
import { planSnapshotPolicies } from '../../../src/kinds/snapshot-policy/plan.js';
import { renderPlanText } from '../../../src/render/text.js';
import { ctx, LOCAL, policy, snapshotDocs } from './docs.js';

const flags = { syncSecrets: false, allowUnreachablePrimary: false, force: false };
const ADDR = 'default:sys/storage/raft/snapshot-auto/config/';

function live(resources: Array<[string, Record<string, unknown>]>): LiveState {
  return {
    resources: resources.map(([name, attrs]) => ({ address: Address.parse(ADDR + name)!, resourceType: 'snapshot.config', attrs: attrs as never })),
    observed: {},
    notes: [],
  };
}

const LOCAL_LIVE = { interval: 3600, retain: 1, path_prefix: '/var/snap', file_prefix: 'vault-snapshot', storage_type: 'local', local_max_space: 10737418240 };

async function planOf(files: string[], liveState: LiveState, opts = { prune: false, syncSecrets: false }, env: NodeJS.ProcessEnv = {}) {
  const desired = desiredSnapshotPolicies(await snapshotDocs(files, env), { ...ctx, prune: opts.prune });
  return planSnapshotPolicies(desired, liveState, { ...flags, syncSecrets: opts.syncSecrets });
}

function text(plan: Awaited<ReturnType<typeof planOf>>): string {
  return renderPlanText({ formatVersion: 1, changes: plan.changes, unmanaged: plan.unmanaged, notes: plan.notes }, { color: false });
}

describe('planning snapshot policies', () => {
  test('a matching live configuration plans nothing', async () => {
    const plan = await planOf([policy('hourly', ...LOCAL)], live([['hourly', LOCAL_LIVE]]));
    expect(plan.changes).toEqual([]);
  });

  test('a storage_type change is an update showing the old and new destinations', async () => {
    const s3 = ['interval: 1h', 'storage_type: provA-s3', 'path_prefix: db/', 'provA_s3_bucket: backups', 'provA_s3_region: eu-west-1',
      'provA_access_key_id: AKIA', 'provA_secret_access_key: ${env:S}'];
    const plan = await planOf([policy('hourly', ...s3)], live([['hourly', LOCAL_LIVE]]), undefined, { S: 'canary-secret' });
    expect(plan.changes).toHaveLength(1);
    const change = plan.changes[0]!;
    expect(change.action).toBe('update');
    expect(change.changedFields).toContain('local_max_space');
    expect(change.changedFields).toContain('storage_type');
    expect(change.notes).toContain('destination: local /var/snap -> s3 backups/db/');
    const out = text(plan);
    expect(out).toContain(`~ ${ADDR}hourly`);
    expect(out).toContain('storage_type: "local" -> "provA-s3"');
    expect(out).toContain('local_max_space: 10737418240 -> (none)');
    expect(out).toContain('provA_s3_bucket: (none) -> "backups"');
    expect(out).toContain('provA_secret_access_key: (sensitive, write-only)');
    expect(out).toContain('# destination: local /var/snap -> s3 backups/db/');
    expect(out).not.toContain('canary-secret');
  });

  test('a new bucket or directory is a destination change too; other changes are not', async () => {
    const moved = await planOf([policy('hourly', 'interval: 1h', 'storage_type: local', 'path_prefix: /srv/snap', 'local_max_space: 10GiB')], live([['hourly', LOCAL_LIVE]]));
    expect(moved.changes[0]!.notes[0]).toBe('destination: local /var/snap -> local /srv/snap');
    const retained = await planOf([policy('hourly', ...LOCAL, 'retain: 5')], live([['hourly', LOCAL_LIVE]]));
    expect(retained.changes[0]!.changedFields).toEqual(['retain']);
    expect(retained.changes[0]!.notes).toEqual([]);
  });

  test('unlisted configurations are unmanaged, or deleted with prune (snapshots stay)', async () => {
    const state = live([['hourly', LOCAL_LIVE], ['old', { ...LOCAL_LIVE, path_prefix: '/old' }]]);
    const kept = await planOf([policy('hourly', ...LOCAL)], state);
    expect(kept.changes).toEqual([]);
    expect(kept.unmanaged.map((u) => String(u.address))).toEqual([`${ADDR}old`]);
    const pruned = await planOf([policy('hourly', ...LOCAL)], state, { prune: true, syncSecrets: false });
    expect(pruned.changes.map((c) => [String(c.address), c.action, c.reason])).toEqual([[`${ADDR}old`, 'delete', 'prune']]);
    expect(pruned.changes[0]!.notes).toEqual(['snapshots already written to local /old are not deleted']);
    expect(pruned.changes[0]!.destructive).toBe(false);
  });

  test('--sync-secrets re-sends credentials of a matching configuration', async () => {
    const blob = ['interval: 1h', 'storage_type: provB-blob', 'path_prefix: p/', 'provB_container_name: c', 'provB_account_name: a', 'provB_account_key: ${env:K}'];
    const liveBlob = { interval: 3600, retain: 1, path_prefix: 'p/', file_prefix: 'vault-snapshot', storage_type: 'provB-blob', provB_container_name: 'c', provB_account_name: 'a', provB_blob_environment: '', provB_endpoint: '' };
    expect((await planOf([policy('b', ...blob)], live([['b', liveBlob]]), undefined, { K: 'k' })).changes).toEqual([]);
    const sync = await planOf([policy('b', ...blob)], live([['b', liveBlob]]), { prune: false, syncSecrets: true }, { K: 'k' });
    expect(sync.changes.map((c) => [c.action, c.reason, c.writeOnlyFields])).toEqual([['update', 'sync-secrets', ['provB_account_key']]]);
  });
});
