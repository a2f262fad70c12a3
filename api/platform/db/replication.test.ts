// The Litestream supervisor with the real binary and a file replica: it replicates, reports its
// lag, is started again with a growing delay when it dies, and stops cleanly.
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from './client';
import { createReplication, redactReplicaUrl, replicaPosition, type Replication } from './replication';
import { loadConfig } from '../config';
import { createTestApp } from '../../test/harness';

function recordingLogger() {
  const lines: Record<string, unknown>[] = [];
  const log = (level: string) => (record: Record<string, unknown>) => lines.push({ level, ...record });
  return { lines, logger: { info: log('info'), warn: log('warn'), error: log('error') } };
}

const running: Replication[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.stop(1000)));
});

async function until(check: () => boolean, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('replication', () => {
  it('replicates, reports no lag once caught up, restarts a dead child with backoff, and stops it', { timeout: 30_000 }, async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'recovery-replication-'));
    const file = path.join(dir, 'recovery.db');
    const db = openDatabase(file);
    const replicaDir = path.join(dir, 'replica');
    const { lines, logger } = recordingLogger();
    const replication = createReplication({ databasePath: file, replicaUrl: `file://${replicaDir}`, logger, syncIntervalMs: 100, pollMs: 100, restartDelayMs: 200 });
    running.push(replication);
    expect(replication.status()).toMatchObject({ running: false, lagMs: null });
    await replication.start();
    db.$client.exec("insert into job_state (name, value) values ('replication-test', 'x')");
    await until(() => replication.status().lagMs === 0);
    expect(existsSync(path.join(replicaDir, 'generations'))).toBe(true);
    expect(replication.status()).toMatchObject({ running: true, restarts: 0, replica: `file://${replicaDir}` });

    await until(() => replication.pid() !== undefined);
    const first = replication.pid()!;
    process.kill(first, 'SIGKILL');
    await until(() => replication.status().running === false);
    await until(() => replication.status().restarts === 1 && replication.status().running && replication.pid() !== undefined);
    expect(replication.pid()).not.toBe(first);
    expect(lines.find((l) => l.msg === 'Replication stopped; restarting')).toMatchObject({ level: 'error', restartInMs: 200, failuresInARow: 1 });

    const second = replication.pid()!;
    await replication.stop();
    expect(replication.status().running).toBe(false);
    expect(() => process.kill(second, 0)).toThrow();
    expect(lines.at(-1)).toMatchObject({ msg: 'Replication stopped' });
    db.$client.close();
  });

  it('reads the lag from Litestream metrics: behind while the replica holds fewer frames', () => {
    const metrics = (replicaOffset: number) =>
      [
        'litestream_shadow_wal_index{db="/d"} 2',
        'litestream_shadow_wal_size{db="/d"} 4152',
        'litestream_replica_wal_index{db="/d",name="file"} 2',
        `litestream_replica_wal_offset{db="/d",name="file"} ${replicaOffset}`,
      ].join('\n');
    expect(replicaPosition(metrics(4152))).toEqual({ behind: false });
    expect(replicaPosition(metrics(32))).toEqual({ behind: true });
    expect(replicaPosition('# nothing yet')).toBeNull();
  });

  it('keeps credentials out of what it logs and reports', () => {
    expect(redactReplicaUrl('s3://KEY:SECRET@bucket/recovery?region=eu-west-2')).toBe('s3://bucket/recovery');
  });

  it('accepts file:// and s3:// replica URLs and refuses anything else at start', () => {
    const base = { NODE_ENV: 'test', DATABASE_PATH: ':memory:' };
    expect(loadConfig({ ...base, REPLICA_URL: 'file:///var/backups/recovery' }).replicaUrl).toBe('file:///var/backups/recovery');
    expect(loadConfig({ ...base, REPLICA_URL: 's3://bucket/recovery' }).replicaUrl).toBe('s3://bucket/recovery');
    expect(loadConfig({ ...base, REPLICA_URL: '' }).replicaUrl).toBeUndefined();
    expect(() => loadConfig({ ...base, REPLICA_URL: '/var/backups' })).toThrow(/REPLICA_URL must be/);
    expect(() => loadConfig({ ...base, REPLICA_URL: 'http://example.com/x' })).toThrow(/REPLICA_URL must be/);
  });

  it('reports its state in /readyz', async () => {
    const status = { replica: 'file:///r', running: true, restarts: 0, lagMs: 0, syncedAt: '2026-11-26T00:00:00.000Z' };
    const t = createTestApp({ replication: { status: () => status } });
    const res = await t.raw('GET', '/readyz');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ status: 'ok', replication: status });
  });
});
