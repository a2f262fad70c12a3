// The durability budgets (docs/budgets.md), measured against the real server on a 1 M-quote database:
// - `retention`: quote p99 at a steady rate while the nightly retention drains a backlog of expired
//   quotes, against the same server and database with the night's run already done, and the WAL's
//   largest size meanwhile;
// - `restore`: `npm run restore` of that database from a Litestream file replica and from an
//   `npm run backup` copy, each as an operator runs it (its own process), and the server's start on
//   the restored file.
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { londonDate } from '../../api/engine/calendar/uk-calendar';
import { RETENTION_JOB } from '../../api/leads/retention';
import { fillDatabase } from './fill-database';
import type { LoadRequest } from './load';
import { LARGE_COMPANIES, p99, pacedQuotes, runBackupCommand, unanswered, type Sample } from './reliability';
import { processesMentioning, REPO_ROOT, spawnServer } from './server-process';

export const DURABILITY_QUOTES = 1_000_000;
/**
 * Quotes a second while measuring: a steady open load, as motorists arrive, well below saturation.
 * 200 a second saturated a server sharing 2 cores with a load average of 15 (p99 in seconds, on
 * both servers alike): what was measured was the queue, not the drain.
 */
export const DRAIN_RATE = 100;
/**
 * Each server is measured in slices this long, in turn, the other paused (SIGSTOP). Short, so the
 * two slices of a round meet the same spell of a shared machine: with 5 s slices the slices' p99
 * went from 17 to 490 ms on one server alone.
 */
export const DRAIN_SLICE_SECONDS = 2;
/** The drain is measured for this long at most (its slices only); what is left is projected from its rate. */
export const DRAIN_CAP_SECONDS = 60;
/** The start of each slice left out of its figures, alike on both servers: connections opening again after the pause. */
const SLICE_SETTLE_MS = 250;
const YEAR_MS = 365 * 24 * 3600 * 1000;

const walBytes = (file: string) => {
  try {
    return statSync(`${file}-wal`).size;
  } catch {
    return 0;
  }
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface DrainFigures {
  quotes: number;
  fillSeconds: number;
  /** p99 over every measured quote of the server's slices (pooled), and the median of its slices' p99. */
  p99WithoutMs: number;
  p99DuringMs: number;
  medianSliceP99WithoutMs: number;
  medianSliceP99DuringMs: number;
  /** The median over the rounds of the draining slice's p99 over the quiet slice's in the same round: the budget's ratio. */
  pairedRatio: number;
  /** Each measured slice's p99, in order. */
  sliceP99sWithoutMs: number[];
  sliceP99sDuringMs: number[];
  requestsWithout: number;
  requestsDuring: number;
  slices: number;
  /** Quotes sent over both servers' slices, those not answered 2xx, and those that got no answer at all. */
  sent: number;
  non2xx: number;
  errors: number;
  drained: number;
  /** Seconds of the draining server's slices: the drain runs only while its server is not paused. */
  drainSeconds: number;
  /** Whether the whole backlog went within the cap. */
  finished: boolean;
  peakWalBytes: number;
  peakWalWithoutBytes: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * `quotes` quotes three years old (past every company's 24 months) over LARGE_COMPANIES companies,
 * the file copied: on one copy the night's run is marked done, on the other it is due
 * (RETENTION_HOUR=0, so due at once whatever the time). Both served by `script` at once and
 * measured in alternating DRAIN_SLICE_SECONDS slices at DRAIN_RATE quotes a second, the server not
 * measured paused (SIGSTOP) so the drain runs only in its own server's slices and neither takes
 * the cores from the other; every other round in the opposite order. A slower spell of a shared
 * machine then falls on both alike. Until the backlog is gone or DRAIN_CAP_SECONDS of drain.
 */
export async function measureRetentionDrain(script: string, requests: LoadRequest[], quotes = DURABILITY_QUOTES, rate = DRAIN_RATE): Promise<DrainFigures> {
  const dir = mkdtempSync(path.join(tmpdir(), 'recovery-bench-drain-'));
  try {
    const paths = { without: path.join(dir, 'without.db'), during: path.join(dir, 'during.db') };
    const filling = performance.now();
    fillDatabase(paths.during, { companies: LARGE_COMPANIES, quotes, endingAt: Date.now() - 3 * YEAR_MS });
    const fillSeconds = (performance.now() - filling) / 1000;
    copyFileSync(paths.during, paths.without);
    const setMarker = (file: string, value: string | undefined) => {
      const db = new Database(file);
      db.prepare('delete from job_state where name = ?').run(RETENTION_JOB);
      if (value) db.prepare('insert into job_state (name, value) values (?, ?)').run(RETENTION_JOB, value);
      db.close();
    };
    setMarker(paths.without, londonDate(new Date()));
    setMarker(paths.during, undefined);
    const oldLeft = () => {
      const db = new Database(paths.during, { readonly: true });
      try {
        return db.prepare('select count(*) from quotes where id <= ?').pluck().get(quotes) as number;
      } finally {
        db.close();
      }
    };
    const before = oldLeft();
    const env = { RETENTION_HOUR: '0' };
    // The quiet one first, so the drain's first batches are not spent while nothing is measured.
    const without = await spawnServer({ script, databasePath: paths.without, env, readyTimeoutMs: 60_000 });
    without.child.kill('SIGSTOP');
    const during = await spawnServer({ script, databasePath: paths.during, env, readyTimeoutMs: 60_000 });
    const servers = { without, during };
    const other = { without: during, during: without };
    const samples: Record<'without' | 'during', Sample[]> = { without: [], during: [] };
    const sliceP99s: Record<'without' | 'during', number[]> = { without: [], during: [] };
    const peakWal = { without: 0, during: 0 };
    let drainMs = 0;
    let left = before;
    let slices = 0;
    let sent = 0;
    let non2xx = 0;
    let errors = 0;
    const slice = async (name: 'without' | 'during', measured: boolean) => {
      other[name].child.kill('SIGSTOP');
      servers[name].child.kill('SIGCONT');
      const started = performance.now();
      const sampler = setInterval(() => (peakWal[name] = Math.max(peakWal[name], walBytes(paths[name]))), 100);
      const load = pacedQuotes(servers[name], requests, rate);
      await sleep(DRAIN_SLICE_SECONDS * 1000);
      const all = await load.stop();
      clearInterval(sampler);
      if (name === 'during') drainMs += performance.now() - started;
      if (!measured) return;
      const kept = all.filter((s) => s.startedMs >= SLICE_SETTLE_MS);
      samples[name].push(...kept);
      sliceP99s[name].push(p99(kept));
      const missed = unanswered(all);
      sent += all.length;
      non2xx += missed.non2xx;
      errors += missed.errors;
    };
    try {
      // Warm-up: each company's configuration read and the pairs routed, on both.
      await slice('without', false);
      await slice('during', false);
      for (let round = 0; left > 0 && drainMs < DRAIN_CAP_SECONDS * 1000; round++) {
        for (const name of round % 2 === 0 ? (['without', 'during'] as const) : (['during', 'without'] as const)) await slice(name, true);
        slices += 1;
        left = oldLeft();
      }
    } finally {
      for (const server of [without, during]) {
        server.child.kill('SIGCONT');
        await server.stop();
      }
    }
    return {
      quotes,
      fillSeconds,
      p99WithoutMs: p99(samples.without),
      p99DuringMs: p99(samples.during),
      medianSliceP99WithoutMs: median(sliceP99s.without),
      medianSliceP99DuringMs: median(sliceP99s.during),
      pairedRatio: median(sliceP99s.during.map((during, i) => during / sliceP99s.without[i])),
      sliceP99sWithoutMs: sliceP99s.without,
      sliceP99sDuringMs: sliceP99s.during,
      requestsWithout: samples.without.length,
      requestsDuring: samples.during.length,
      slices,
      sent,
      non2xx,
      errors,
      drained: before - left,
      drainSeconds: drainMs / 1000,
      finished: left === 0,
      peakWalBytes: peakWal.during,
      peakWalWithoutBytes: peakWal.without,
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

export interface DrillFigures {
  /** Quotes answered (200) while replicating, before the SIGKILL; and those not answered 200. */
  answered: number;
  notAnswered: number;
  writeSeconds: number;
  /** Answers given more than 1 s before the kill, and how many of them the restored file lacks (or holds with another total). */
  olderThanOneSecond: number;
  missingOlderThanOneSecond: number;
  /** Answers of the last second before the kill that the restored file lacks: the commits at risk. */
  lostInLastSecond: number;
  /** The oldest lost answer, ms before the kill (0: none lost): the recovery point achieved. */
  recoveryPointMs: number;
  /** The next quote on the restored server: its reference never given out before. */
  nextReferenceIsNew: boolean;
}

export interface RestoreFigures {
  quotes: number;
  fillSeconds: number;
  databaseBytes: number;
  /** From starting the server with REPLICA_URL to the replica holding every frame. */
  replicateSeconds: number;
  drill: DrillFigures;
  replica: RestoreRun;
  backup: RestoreRun;
}

interface Answer {
  reference: string;
  totalPence: number;
  at: number;
}

async function restoreRun(script: string, from: string, to: string): Promise<RestoreRun & { server: Awaited<ReturnType<typeof spawnServer>> }> {
  const restore = await runRestoreCommand(from, to);
  if (restore.code !== 0) throw new Error(`npm run restore failed (${restore.code}):\n${restore.output}`);
  const db = new Database(to, { readonly: true });
  const quotes = db.prepare('select count(*) from quotes').pluck().get() as number;
  db.close();
  const starting = performance.now();
  const server = await spawnServer({ script, databasePath: to, readyTimeoutMs: 120_000 });
  const startSeconds = (performance.now() - starting) / 1000;
  return { seconds: restore.seconds, output: restore.output.trim(), quotes, startSeconds, server };
}

/** Clients quoting on `server` until the kill, each waiting for its answer (as the widget does). */
const DRILL_CLIENTS = 4;
/** Seconds of quotes written under replication before the SIGKILL. */
const DRILL_WRITE_SECONDS = 10;

async function postQuote(url: string, body: string): Promise<Answer | undefined> {
  const res = await fetch(`${url}/api/quotes/calculate`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  if (res.status !== 200) {
    await res.arrayBuffer();
    return undefined;
  }
  const json = (await res.json()) as { quoteId: string; totalPrice: number };
  return { reference: json.quoteId, totalPence: Math.round(json.totalPrice * 100), at: Date.now() };
}

/**
 * The drill of api/reliability/restore-drill.test.ts at scale: a `quotes`-quote database served
 * by `script` replicating to a file replica (REPLICA_URL), quotes written for every company under
 * load, the server killed with SIGKILL, the database deleted, `npm run restore` from the replica
 * in its own process, the server started on the restored file; every answer given more than 1 s
 * before the kill must be there with the same reference and total, and the next quote must get a
 * reference never given out. Then, for comparison, a restore from an `npm run backup` copy.
 */
export async function measureRestore(script: string, requests: LoadRequest[], quotes = DURABILITY_QUOTES): Promise<RestoreFigures> {
  const dir = mkdtempSync(path.join(tmpdir(), 'recovery-bench-restore-'));
  const started: { stop(graceMs?: number): Promise<number | null> }[] = [];
  try {
    const databasePath = path.join(dir, 'recovery.db');
    const filling = performance.now();
    fillDatabase(databasePath, { companies: LARGE_COMPANIES, quotes });
    const fillSeconds = (performance.now() - filling) / 1000;
    const databaseBytes = statSync(databasePath).size;
    const replicaUrl = `file://${path.join(dir, 'replica')}`;
    const replicating = performance.now();
    const server = await spawnServer({ script, databasePath, env: { REPLICA_URL: replicaUrl }, readyTimeoutMs: 120_000 });
    started.push(server);
    const deadline = Date.now() + 600_000;
    for (;;) {
      const res = await fetch(`${server.url}/readyz`);
      const body = (await res.json().catch(() => ({}))) as { replication?: { lagMs: number | null } };
      if (body.replication?.lagMs === 0) break;
      if (Date.now() > deadline) throw new Error(`the replica did not catch up within 10 minutes: ${JSON.stringify(body)}`);
      await sleep(250);
    }
    const replicateSeconds = (performance.now() - replicating) / 1000;

    // Quotes under load until the kill.
    const answers: Answer[] = [];
    let notAnswered = 0;
    let killedAt = 0;
    let next = 0;
    const client = async () => {
      while (killedAt === 0) {
        const request = requests[next++ % requests.length];
        try {
          const answer = await postQuote(server.url, request.body!);
          if (killedAt !== 0) return;
          if (answer) answers.push(answer);
          else notAnswered++;
        } catch {
          // The connection died with the process: never answered.
        }
      }
    };
    const writing = performance.now();
    const clients = Array.from({ length: DRILL_CLIENTS }, client);
    await sleep(DRILL_WRITE_SECONDS * 1000);
    server.child.kill('SIGKILL');
    killedAt = Date.now();
    const writeSeconds = (performance.now() - writing) / 1000;
    await server.exited;
    await Promise.all(clients);
    // Litestream goes with the server (it watches its parent): wait for it, so nothing writes to the replica meanwhile.
    const gone = Date.now() + 10_000;
    while (processesMentioning(dir).length > 0 && Date.now() < gone) await sleep(50);
    if (processesMentioning(dir).length > 0) throw new Error(`still running after the SIGKILL: ${processesMentioning(dir).join('; ')}`);

    // The disk is lost.
    for (const file of [databasePath, `${databasePath}-wal`, `${databasePath}-shm`]) rmSync(file, { force: true });
    const restored = await restoreRun(script, replicaUrl, databasePath);
    started.push(restored.server);
    const issued = new Set(answers.map((a) => a.reference));
    const fresh = await postQuote(restored.server.url, requests[0].body!);
    // Every quote written since the fill (ids past it: the drill's, and the restored server's first),
    // by reference. The app finds a quote by decoding its reference into the id; nothing indexes
    // the reference column, so one look-up by it is a scan of the million rows.
    const stored = new Map<string, number>();
    const db = new Database(databasePath, { readonly: true });
    for (const row of db.prepare('select public_id as reference, total_price_pence as total from quotes where id > ?').all(quotes) as {
      reference: string;
      total: number;
    }[]) {
      stored.set(row.reference, row.total);
    }
    db.close();
    const freshStored = fresh ? stored.get(fresh.reference) : undefined;
    await restored.server.stop(30_000);
    const survived = (a: Answer) => stored.get(a.reference) === a.totalPence;
    const older = answers.filter((a) => a.at < killedAt - 1000);
    const lost = answers.filter((a) => !survived(a));
    const drill: DrillFigures = {
      answered: answers.length,
      notAnswered,
      writeSeconds,
      olderThanOneSecond: older.length,
      missingOlderThanOneSecond: older.filter((a) => !survived(a)).length,
      lostInLastSecond: lost.filter((a) => a.at >= killedAt - 1000).length,
      recoveryPointMs: lost.length === 0 ? 0 : killedAt - Math.min(...lost.map((a) => a.at)),
      // Not given out before the kill, and not a row the restored copy already held under it (it was stored by this quote).
      nextReferenceIsNew: fresh !== undefined && !issued.has(fresh.reference) && freshStored === fresh.totalPence,
    };
    const { server: _replicaServer, ...replica } = restored;

    const copy = path.join(dir, 'backup.db');
    const backup = await runBackupCommand(databasePath, copy);
    if (backup.code !== 0) throw new Error(`npm run backup failed (${backup.code}):\n${backup.output}`);
    const fromBackup = await restoreRun(script, copy, path.join(dir, 'from-backup.db'));
    started.push(fromBackup.server);
    await fromBackup.server.stop(30_000);
    const { server: _backupServer, ...backupRun } = fromBackup;
    return { quotes, fillSeconds, databaseBytes, replicateSeconds, drill, replica, backup: backupRun };
  } finally {
    await Promise.all(started.map((s) => s.stop(5000)));
    rmSync(dir, { recursive: true, force: true });
  }
}
