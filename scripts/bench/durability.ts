// The durability budgets (docs/budgets.md), measured against the real server on a 1 M-quote database:
// - `retention`: quote p99 at a steady rate while the nightly retention drains a backlog of expired
//   quotes, against the same server and database with the night's run already done, and the WAL's
//   largest size meanwhile;
// - `restore`: `npm run restore` of that database from a Litestream file replica and from an
//   `npm run backup` copy, each as an operator runs it (its own process), and the server's start on
//   the restored file.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { londonDate } from '../../api/engine/calendar/uk-calendar';
import { RETENTION_JOB } from '../../api/leads/retention';
import { fillDatabase } from './fill-database';
import { runLoad, type LoadRequest } from './load';
import { LARGE_COMPANIES, p99, pacedQuotes, runBackupCommand, type Sample } from './reliability';
import { REPO_ROOT, spawnServer } from './server-process';

export const DURABILITY_QUOTES = 1_000_000;
/** Quotes a second while measuring: a steady open load, as motorists arrive, well below saturation. */
export const DRAIN_RATE = 200;
/** Seconds of quotes measured without the drain. */
const WITHOUT_SECONDS = 15;
/** The drain is measured for this long at most; what is left is projected from its rate. */
export const DRAIN_CAP_SECONDS = 60;
const YEAR_MS = 365 * 24 * 3600 * 1000;

const walBytes = (file: string) => {
  try {
    return statSync(`${file}-wal`).size;
  } catch {
    return 0;
  }
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const okOnly = (samples: Sample[], fromMs: number, toMs = Infinity) => samples.filter((s) => s.startedMs >= fromMs && s.startedMs < toMs);

export interface DrainFigures {
  quotes: number;
  fillSeconds: number;
  p99WithoutMs: number;
  requestsWithout: number;
  p99DuringMs: number;
  requestsDuring: number;
  failures: number;
  drained: number;
  drainSeconds: number;
  /** Whether the whole backlog went within the cap. */
  finished: boolean;
  peakWalBytes: number;
  peakWalWithoutBytes: number;
}

/**
 * `quotes` quotes three years old (past every company's 24 months), the night's run marked done:
 * quotes at DRAIN_RATE for WITHOUT_SECONDS. Then the marker removed and the server started again
 * (RETENTION_HOUR=0, so the night's run is due at once whatever the time): the same load while the
 * backlog drains, until it is gone or DRAIN_CAP_SECONDS have passed.
 */
export async function measureRetentionDrain(script: string, requests: LoadRequest[], quotes = DURABILITY_QUOTES): Promise<DrainFigures> {
  const dir = mkdtempSync(path.join(tmpdir(), 'recovery-bench-drain-'));
  try {
    const databasePath = path.join(dir, 'recovery.db');
    const filling = performance.now();
    fillDatabase(databasePath, { companies: LARGE_COMPANIES, quotes, endingAt: Date.now() - 3 * YEAR_MS });
    const fillSeconds = (performance.now() - filling) / 1000;
    const setMarker = (value: string | undefined) => {
      const db = new Database(databasePath);
      db.prepare('delete from job_state where name = ?').run(RETENTION_JOB);
      if (value) db.prepare('insert into job_state (name, value) values (?, ?)').run(RETENTION_JOB, value);
      db.close();
    };
    const oldLeft = () => {
      const db = new Database(databasePath, { readonly: true });
      try {
        return db.prepare('select count(*) from quotes where id <= ?').pluck().get(quotes) as number;
      } finally {
        db.close();
      }
    };
    const env = { RETENTION_HOUR: '0' };

    // Without: tonight's run is done already.
    setMarker(londonDate(new Date()));
    let server = await spawnServer({ script, databasePath, env, readyTimeoutMs: 60_000 });
    let without: Sample[];
    let peakWalWithoutBytes = 0;
    try {
      await runLoad(server, requests, { connections: 2, durationSeconds: 3 });
      const load = pacedQuotes(server, requests, DRAIN_RATE);
      const sampler = setInterval(() => (peakWalWithoutBytes = Math.max(peakWalWithoutBytes, walBytes(databasePath))), 100);
      await sleep(WITHOUT_SECONDS * 1000);
      clearInterval(sampler);
      without = okOnly(await load.stop(), 1000);
    } finally {
      await server.stop();
    }

    // During: the same server started again with the night's run due.
    setMarker(undefined);
    const before = oldLeft();
    let peakWalBytes = 0;
    const walSampler = setInterval(() => (peakWalBytes = Math.max(peakWalBytes, walBytes(databasePath))), 100);
    server = await spawnServer({ script, databasePath, env, readyTimeoutMs: 60_000 });
    const drainStarted = performance.now();
    let during: Sample[];
    let left = before;
    try {
      const load = pacedQuotes(server, requests, DRAIN_RATE);
      while (left > 0 && performance.now() - drainStarted < DRAIN_CAP_SECONDS * 1000) {
        await sleep(2000);
        left = oldLeft();
      }
      during = okOnly(await load.stop(), 1000);
    } finally {
      clearInterval(walSampler);
      await server.stop();
    }
    const drainSeconds = (performance.now() - drainStarted) / 1000;
    return {
      quotes,
      fillSeconds,
      p99WithoutMs: p99(without),
      requestsWithout: without.length,
      p99DuringMs: p99(during),
      requestsDuring: during.length,
      failures: [...without, ...during].filter((s) => !s.ok).length,
      drained: before - left,
      drainSeconds,
      finished: left === 0,
      peakWalBytes,
      peakWalWithoutBytes,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `npm run restore` as an operator runs it, in a process of its own. */
function runRestoreCommand(from: string, to: string): Promise<{ code: number | null; output: string; seconds: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/restore.ts', '--from', from, '--to', to], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, output, seconds: (performance.now() - started) / 1000 }));
  });
}

export interface RestoreRun {
  seconds: number;
  output: string;
  quotes: number;
  /** From spawning the server on the restored file to its first healthy answer. */
  startSeconds: number;
}

export interface RestoreFigures {
  quotes: number;
  fillSeconds: number;
  databaseBytes: number;
  /** From starting the server with REPLICA_URL to the replica holding every frame. */
  replicateSeconds: number;
  replica: RestoreRun;
  backup: RestoreRun;
}

async function restoreRun(script: string, from: string, to: string): Promise<RestoreRun> {
  const restore = await runRestoreCommand(from, to);
  if (restore.code !== 0) throw new Error(`npm run restore failed (${restore.code}):\n${restore.output}`);
  const db = new Database(to, { readonly: true });
  const quotes = db.prepare('select count(*) from quotes').pluck().get() as number;
  db.close();
  const starting = performance.now();
  const server = await spawnServer({ script, databasePath: to, readyTimeoutMs: 120_000 });
  const startSeconds = (performance.now() - starting) / 1000;
  await server.stop();
  return { seconds: restore.seconds, output: restore.output.trim(), quotes, startSeconds };
}

/**
 * A 1 M-quote database replicated to a file replica by the real server (REPLICA_URL), the server
 * stopped once the replica holds everything, then restored from the replica and, for comparison,
 * from an `npm run backup` copy.
 */
export async function measureRestore(script: string, quotes = DURABILITY_QUOTES): Promise<RestoreFigures> {
  const dir = mkdtempSync(path.join(tmpdir(), 'recovery-bench-restore-'));
  try {
    const databasePath = path.join(dir, 'recovery.db');
    const filling = performance.now();
    fillDatabase(databasePath, { companies: LARGE_COMPANIES, quotes });
    const fillSeconds = (performance.now() - filling) / 1000;
    const databaseBytes = statSync(databasePath).size;
    const replicaUrl = `file://${path.join(dir, 'replica')}`;
    const replicating = performance.now();
    const server = await spawnServer({ script, databasePath, env: { REPLICA_URL: replicaUrl }, readyTimeoutMs: 120_000 });
    let replicateSeconds = NaN;
    try {
      const deadline = Date.now() + 600_000;
      for (;;) {
        const res = await fetch(`${server.url}/readyz`);
        const body = (await res.json().catch(() => ({}))) as { replication?: { lagMs: number | null } };
        if (body.replication?.lagMs === 0) break;
        if (Date.now() > deadline) throw new Error(`the replica did not catch up within 10 minutes: ${JSON.stringify(body)}`);
        await sleep(250);
      }
      replicateSeconds = (performance.now() - replicating) / 1000;
    } finally {
      await server.stop(30_000);
    }
    const replica = await restoreRun(script, replicaUrl, path.join(dir, 'from-replica.db'));
    const copy = path.join(dir, 'backup.db');
    const backup = await runBackupCommand(databasePath, copy);
    if (backup.code !== 0) throw new Error(`npm run backup failed (${backup.code}):\n${backup.output}`);
    const fromBackup = await restoreRun(script, copy, path.join(dir, 'from-backup.db'));
    return { quotes, fillSeconds, databaseBytes, replicateSeconds, replica, backup: fromBackup };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
