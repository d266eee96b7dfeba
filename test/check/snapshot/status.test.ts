import { describe, expect, it } from 'vitest';
import { checkSnapshotStatus, graceSeconds, intervalSeconds, type Finding, type SnapshotStatus } from '../../../src/check/snapshot/index.js';
import { Secret } from '../../../src/core/secret.js';

const NOW = new Date('2026-03-01T12:00:00Z');
const HOUR = 3600;
const config = { name: 'hourly', interval: HOUR, storage_type: 'local', path_prefix: '/snaps' };
const ago = (seconds: number) => new Date(NOW.getTime() - seconds * 1000).toISOString();
const healthy = (endAgo: number): SnapshotStatus => ({
  last_snapshot_start: ago(endAgo + 5),
  last_snapshot_end: ago(endAgo),
  last_snapshot_error: '',
  last_snapshot_url: 'file:///snaps/vault-snapshot-1.snap',
  consecutive_errors: 0,
  next_snapshot_start: ago(endAgo - HOUR),
});
const failing = (findings: Finding[]) => findings.filter((f) => !f.ok);

describe('checkSnapshotStatus', () => {
  it('is healthy with a recent snapshot and no errors', () => {
    const findings = checkSnapshotStatus(healthy(600), config, NOW);
    expect(failing(findings)).toEqual([]);
    expect(findings).toEqual([{ ok: true, subject: 'snapshot-auto/status/hourly', message: expect.stringContaining('ended 10m ago') }]);
  });

  it('allows interval + 60 s + 10% before calling a snapshot stale', () => {
    const grace = graceSeconds(HOUR);
    expect(grace).toBe(60 + 360);
    expect(failing(checkSnapshotStatus(healthy(HOUR + grace - 1), config, NOW))).toEqual([]);
    const stale = failing(checkSnapshotStatus(healthy(HOUR + grace + 1), config, NOW));
    expect(stale).toHaveLength(1);
    expect(stale[0]!.message).toMatch(/^stale: the last snapshot ended 1h7m1s ago/);
  });

  it('fails on a reported error and on consecutive errors', () => {
    const status = { ...healthy(60), last_snapshot_error: 'write failed: disk full', consecutive_errors: 3 };
    const messages = failing(checkSnapshotStatus(status, config, NOW)).map((f) => f.message);
    expect(messages).toEqual(['last snapshot attempt failed: write failed: disk full', '3 consecutive failed snapshot attempts']);
  });

  it('counts consecutive errors given as text', () => {
    expect(failing(checkSnapshotStatus({ ...healthy(60), consecutive_errors: '1' }, config, NOW))[0]!.message).toBe(
      '1 consecutive failed snapshot attempt',
    );
  });

  it('accepts a configuration that has not reached its first snapshot yet', () => {
    const young: SnapshotStatus = { last_snapshot_start: '', last_snapshot_end: '', next_snapshot_start: ago(-1200), consecutive_errors: 0 };
    const findings = checkSnapshotStatus(young, config, NOW);
    expect(findings).toEqual([{ ok: true, subject: 'snapshot-auto/status/hourly', message: expect.stringMatching(/^no snapshot taken yet; the first is due at/) }]);
  });

  it('treats Go zero times as unset', () => {
    const zero = '0001-01-01T00:00:00Z';
    const findings = checkSnapshotStatus({ last_snapshot_start: zero, last_snapshot_end: zero, next_snapshot_start: ago(-10) }, config, NOW);
    expect(failing(findings)).toEqual([]);
  });

  it('fails when the first snapshot is overdue beyond the grace', () => {
    const overdue = checkSnapshotStatus({ next_snapshot_start: ago(graceSeconds(HOUR) + 30) }, config, NOW);
    expect(failing(overdue)[0]!.message).toMatch(/^no snapshot taken yet, although the first was due at/);
    expect(failing(checkSnapshotStatus({ next_snapshot_start: ago(graceSeconds(HOUR) - 30) }, config, NOW))).toEqual([]);
  });

  it('fails when nothing shows the schedule runs', () => {
    expect(failing(checkSnapshotStatus({}, config, NOW))[0]!.message).toBe('no snapshot taken yet, and the status shows no next snapshot time');
  });

  it('judges a running first snapshot by its start', () => {
    expect(failing(checkSnapshotStatus({ last_snapshot_start: ago(30) }, config, NOW))).toEqual([]);
    expect(failing(checkSnapshotStatus({ last_snapshot_start: ago(2 * HOUR) }, config, NOW))[0]!.message).toMatch(/has not finished/);
  });

  it('accepts duration strings for the interval, and flags a bad one', () => {
    expect(failing(checkSnapshotStatus(healthy(20 * HOUR), { ...config, interval: '24h' }, NOW))).toEqual([]);
    expect(failing(checkSnapshotStatus(healthy(60), { ...config, interval: 'often' }, NOW))[0]!.message).toMatch(/not a positive duration/);
  });

  it('flags an unparsable time', () => {
    expect(failing(checkSnapshotStatus({ last_snapshot_end: 'yesterday' }, config, NOW))[0]!.message).toBe(
      'status field last_snapshot_end is not a time: "yesterday"',
    );
  });

  it('scrubs secret values the server might echo in an error', () => {
    const secret = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
    const status = { ...healthy(60), last_snapshot_error: `signature mismatch for key ${secret}` };
    for (const value of [secret, new Secret(secret, 'env:S3_SECRET')]) {
      const findings = checkSnapshotStatus(status, { ...config, storage_type: 'provA-s3', provA_secret_access_key: value }, NOW);
      expect(JSON.stringify(findings)).not.toContain(secret);
      expect(findings[0]!.message).toBe('last snapshot attempt failed: signature mismatch for key (sensitive)');
    }
  });
});

describe('intervalSeconds', () => {
  it('reads seconds and duration strings', () => {
    expect(intervalSeconds(3600)).toBe(3600);
    expect(intervalSeconds('3600')).toBe(3600);
    expect(intervalSeconds('1h30m')).toBe(5400);
    expect(intervalSeconds('1.5h')).toBe(5400);
    expect(intervalSeconds('7d')).toBe(604800);
    for (const bad of [0, -5, '', 'soon', '1x', '500ms', undefined]) expect(intervalSeconds(bad), String(bad)).toBeUndefined();
  });
});
