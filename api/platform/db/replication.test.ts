// The Litestream supervisor with the real binary and a file replica: it replicates, reports its
// lag, is started again with a growing delay when it dies, and stops cleanly.
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from './client';
import { createLagTracker, createReplication, redactReplicaUrl, replicaPosition, type Replication } from './replication';
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
    const replication = createReplication({
      databasePath: file,
      replicaUrl: `file://${replicaDir}`,
      logger,
      syncIntervalMs: 100,
      pollMs: 100,
      restartDelayMs: 200,
    });
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

  it('reads the positions from Litestream metrics: behind while the replica holds fewer frames', () => {
    const metrics = (replicaOffset: number) =>
      [
        'litestream_shadow_wal_index{db="/d"} 2',
        'litestream_shadow_wal_size{db="/d"} 4152',
        'litestream_replica_wal_index{db="/d",name="file"} 2',
        `litestream_replica_wal_offset{db="/d",name="file"} ${replicaOffset}`,
      ].join('\n');
    expect(replicaPosition(metrics(4152))).toEqual({ local: { index: 2, offset: 4152 }, replica: { index: 2, offset: 4152 }, behind: false });
    expect(replicaPosition(metrics(32))).toMatchObject({ behind: true });
    expect(replicaPosition('# nothing yet')).toBeNull();
  });

  it('reports the age of the oldest commit not in the replica: bounded under steady writes, growing in an outage', () => {
    // A fake clock: samples every 250 ms for ten minutes of steady writes, the replica always a
    // little behind (it holds what was written up to 100 ms before each sample), never level.
    const lag = createLagTracker();
    expect(lag.lagMs(0)).toBeNull();
    const at = (n: number) => ({ index: 1, offset: 32 + n * 4120 });
    let worst = 0;
    for (let t = 0; t <= 600_000; t += 250) {
      lag.sample(t, at(t / 10), at((t - 100) / 10));
      worst = Math.max(worst, lag.lagMs(t + 249) ?? Infinity);
    }
    // The old measure, time since the replica was last level, would say ten minutes here.
    expect(worst).toBeLessThan(600);
    expect(lag.lagMs(600_000)).toBe(250);

    // The replica stops (an outage): the lag is the age of the first commit it misses, and grows.
    const stalled = at(59_990);
    lag.sample(600_250, at(60_025), stalled);
    lag.sample(600_500, at(60_050), stalled);
    // The first commit it misses came after the sample at 599,750 (the last one it held came before).
    expect(lag.lagMs(630_000)).toBe(30_250);
    expect(lag.syncedAt()).toBe(599_750);
    // It catches up: nothing missing, no lag.
    lag.sample(630_250, at(60_050), at(60_050));
    expect(lag.lagMs(630_250)).toBe(0);
  });

  it('counts commits made while Litestream is down, and clears them once a restarted one has copied them', () => {
    const lag = createLagTracker();
    lag.sample(0, { index: 3, offset: 8000 }, { index: 3, offset: 8000 });
    expect(lag.lagMs(0)).toBe(0);
    // Dead: no metrics, but the WAL file changed (a commit).
    lag.unreadable(1000, false);
    expect(lag.lagMs(1000)).toBe(0);
    lag.unreadable(2000, true);
    lag.unreadable(3000, true);
    expect(lag.lagMs(10_000)).toBe(9000);
    // Restarted, numbering the WAL afresh: its first position holds those commits, not yet copied.
    lag.restarted();
    lag.sample(11_000, { index: 0, offset: 9000 }, { index: 0, offset: 0 });
    expect(lag.lagMs(11_000)).toBe(10_000);
    lag.sample(12_000, { index: 0, offset: 9000 }, { index: 0, offset: 9000 });
    expect(lag.lagMs(12_000)).toBe(0);
  });

  it('stays under 2 s with real Litestream under steady writes (a 3 s run)', { timeout: 30_000 }, async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'recovery-replication-lag-'));
    const file = path.join(dir, 'recovery.db');
    const db = openDatabase(file);
    const { logger } = recordingLogger();
    const replication = createReplication({ databasePath: file, replicaUrl: `file://${path.join(dir, 'replica')}`, logger, pollMs: 100 });
    running.push(replication);
    await replication.start();
    await until(() => replication.status().lagMs === 0);
    // A write every 10 ms or so for 3 s: the replica is never level with the database when it is looked at.
    const insert = db.$client.prepare('insert into job_state (name, value) values (?, ?)');
    const lags: number[] = [];
    const started = Date.now();
    for (let i = 0; Date.now() - started < 3000; i++) {
      insert.run(`steady-${i}`, 'x'.repeat(200));
      lags.push(replication.status().lagMs ?? 0);
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(lags.length).toBeGreaterThan(20);
    expect(Math.max(...lags)).toBeLessThan(2000);
    db.$client.close();
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
