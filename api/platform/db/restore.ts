// A restore that is safe to serve from (docs/decisions/019-replication-and-restore.md).
// A restored copy is the database as it was at some earlier moment: whatever the live server
// did after it (the lost window) is gone, but its effects outside the database are not. Rows
// written in that window were given ids, and emails were sent. Serving from the copy as it is
// would hand the same ids to new rows, and send alerts a second time. (Quote references are not
// made from ids since decision 038: a time bucket and 40 random bits, so one given in the window
// comes again only by a one-in-a-trillion draw.) So before the copy replaces anything, every number sequence (each AUTOINCREMENT
// table's, and each counter of our own: COUNTER_COLUMNS, the receipts' and VAT invoices' numbers)
// is moved past anything the lost window could have issued (SEQUENCE_GAP), the mail outbox and the
// job markers are set so that nothing already handled is sent again (a motorist's text about a job
// still open is sent, decision 035), and the copy must pass integrity_check.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { backupDatabase, cacheWholeFile } from './backup';
import { litestreamBinary } from './replication';

/**
 * Ids skipped after a restore: at least a million, and more for a longer lost window: the
 * server cannot store more than 20,000 quotes a second (it measures about 6,000 on 2 cores), so
 * 20,000 per second between the copy's newest row and the restore covers anything issued since.
 * Ids are 64-bit: a year of such gaps uses a negligible fraction of them.
 */
export const MIN_SEQUENCE_GAP = 1_000_000;
export const MAX_IDS_PER_SECOND = 20_000;

/** The reason an outbox message left unsent in the copy is not sent after it. */
export const RESTORED_UNSENT = 'not sent: restored from a copy, and it may have been sent before the loss';

/**
 * Job markers that say "everything up to this row id has been handed to the outbox". After a
 * restore they move to the copy's newest row: the lost window may already have alerted those rows.
 */
export const ID_MARKERS: readonly { marker: string; table: string }[] = [{ marker: 'mail.lastQuoteId', table: 'quotes' }];

/**
 * Number sequences kept in a column of our own rather than in sqlite_sequence: `column` holds the
 * last number given out. With an `owner`, the counter is a row of `table` per row of `owner` (by
 * `key`), made on first use; without one, it is a column of each row of `table`. A restore moves
 * every value on by the gap, and gives every owner without a row one starting past the gap (the
 * lost window may have taken its first number). restore-counters.test.ts finds every counter in
 * the schema and fails until it is listed here.
 */
export const COUNTER_COLUMNS: readonly { table: string; column: string; owner?: { table: string; key: string } }[] = [
  // Receipts, VAT invoices and credit notes, numbered per company (api/documents/store.ts).
  { table: 'document_sequences', column: 'last_number', owner: { table: 'companies', key: 'company_id' } },
  // Sign-out and a password change bump it to revoke sessions sealed with the old value: one made
  // in the lost window must not be undone (decision 035: everyone signs in again after a restore).
  { table: 'users', column: 'session_version' },
];

/**
 * A motorist's service text (`booking:{id}:motorist:{step}`) still worth sending after a restore:
 * the one for the status its job is still in, while the job is open. It is sent again rather than
 * held: a motorist waiting at the roadside is better served by a second text than by none.
 */
export const MOTORIST_TEXT_FOR_STATUS: Readonly<Record<string, string>> = { requested: 'received', accepted: 'accepted', on_the_way: 'on_the_way' };

export interface RestoreOptions {
  /** A Litestream replica URL (file:///…, s3://…) or a backup file made by `npm run backup`. */
  from: string;
  /** The database file to create: it must not exist yet. */
  to: string;
  /** With a replica: restore the database as it was at this moment. */
  at?: Date;
  /** The clock (tests move it). */
  now?: Date;
  /** The Litestream binary (tests may point at another). */
  binary?: string;
}

export interface RestoreResult {
  source: 'replica' | 'backup';
  /** The newest row time found in the copy (ISO), or null for an empty database. */
  recoveredUpTo: string | null;
  /** How far every sequence was moved. */
  sequenceGap: number;
  /** Each AUTOINCREMENT table's sequence before and after. */
  sequences: { table: string; from: number; to: number }[];
  /** Each counter of COUNTER_COLUMNS: how many rows were moved on and how many made past the gap. */
  counters: { table: string; column: string; moved: number; added: number }[];
  /**
   * Set when the replica held nothing at `at` (Litestream was restarting then, and started a new
   * copy): the nearest earlier point was restored instead, the end of the copy before `at`.
   */
  nearestEarlier?: { asked: string; restoredUpTo: string };
  /** Outbox messages left unsent in the copy and now marked so (they are not sent again). */
  outboxHeld: number;
  /** Motorists' texts about jobs still open, left unsent in the copy and queued again. */
  outboxRequeued: number;
  integrity: 'ok';
}

export class RestoreError extends Error {}

const REPLICA_SCHEMES = /^(file|s3|gcs|abs|sftp):\/\//;

export function isReplicaSource(from: string): boolean {
  return REPLICA_SCHEMES.test(from);
}

export async function restoreDatabase(options: RestoreOptions): Promise<RestoreResult> {
  const to = path.resolve(options.to);
  for (const file of [to, `${to}-wal`, `${to}-shm`]) {
    if (existsSync(file)) throw new RestoreError(`${file} already exists: move it aside first, so nothing is overwritten by mistake`);
  }
  mkdirSync(path.dirname(to), { recursive: true });
  const partial = `${to}.restoring-${process.pid}`;
  rmSync(partial, { force: true });
  const source = isReplicaSource(options.from) ? 'replica' : 'backup';
  try {
    let nearestEarlier: RestoreResult['nearestEarlier'];
    if (source === 'replica') {
      const binary = options.binary ?? litestreamBinary();
      const restore = (args: string[]) => spawnSync(binary, ['restore', '-o', partial, ...args, options.from], { encoding: 'utf8', env: process.env });
      let run = restore(options.at ? ['-timestamp', options.at.toISOString()] : []);
      // A moment in the gap a Litestream restart leaves (it stopped, then began a new copy, a
      // "generation"): no copy holds it, so the newest copy that ended before it is restored whole.
      if (options.at && run.status !== 0 && /no matching backups found/.test(run.stderr)) {
        const earlier = generationEndedBefore(binary, options.from, options.at);
        if (!earlier) throw new RestoreError(`The replica holds nothing from before ${options.at.toISOString()}`);
        rmSync(partial, { force: true });
        run = restore(['-generation', earlier.generation]);
        nearestEarlier = { asked: options.at.toISOString(), restoredUpTo: earlier.end.toISOString() };
      }
      if (run.status !== 0 || !existsSync(partial)) {
        throw new RestoreError(
          `Litestream could not restore from ${options.from}: ${(run.stderr || run.error?.message || '').trim().split('\n').slice(-3).join(' ')}`,
        );
      }
    } else {
      if (options.at) throw new RestoreError('--at needs a replica URL: a backup file holds one moment only');
      if (!existsSync(options.from)) throw new RestoreError(`No backup file at ${path.resolve(options.from)}`);
      // A file `npm run backup` made is whole on its own: copied byte for byte, never written to
      // (makeSafeToServe's integrity_check then reads every page). A file with a journal beside it
      // (a database that was live, or left mid-transaction) is not: its committed state is read
      // through the journal, with VACUUM INTO, as SQLite opens any database.
      if (hasJournal(options.from)) await backupDatabase(options.from, partial, { check: 'quick_check' });
      else copyFileSync(options.from, partial);
    }
    const result = makeSafeToServe(partial, options.now ?? new Date());
    renameSync(partial, to);
    return { source, ...(nearestEarlier ? { nearestEarlier } : {}), ...result };
  } finally {
    for (const file of [partial, `${partial}-wal`, `${partial}-shm`, `${partial}.tmp-wal`, `${partial}.tmp-shm`]) rmSync(file, { force: true });
  }
}

/**
 * The replica's copy (generation) that ended last before `at`, from `litestream generations`
 * (its times are whole seconds, rounded down: a copy that ended in the second of `at` but after it
 * would have held `at`, so it is never one of these).
 */
function generationEndedBefore(binary: string, from: string, at: Date): { generation: string; end: Date } | null {
  const run = spawnSync(binary, ['generations', from], { encoding: 'utf8', env: process.env });
  if (run.status !== 0) throw new RestoreError(`Litestream could not list the copies in ${from}: ${run.stderr.trim().split('\n').at(-1) ?? ''}`);
  const copies = run.stdout
    .split('\n')
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .filter((columns) => columns.length >= 5)
    .map(([, generation, , start, end]) => ({ generation, start: new Date(start), end: new Date(end) }))
    .filter((c) => Number.isFinite(c.start.getTime()) && Number.isFinite(c.end.getTime()) && c.start <= at && c.end <= at)
    .sort((a, b) => b.end.getTime() - a.end.getTime());
  return copies[0] ?? null;
}

/** The motorist's text for each open status, as JSON for the SQL below. */
const OPEN_JOB_STEPS = JSON.stringify(MOTORIST_TEXT_FOR_STATUS);
/** A mail_outbox row that is the motorist's text for the status its job is in now (`@open`: OPEN_JOB_STEPS). */
const OPEN_JOB_TEXT = `exists (select 1 from bookings b, json_each(@open) s
  where b.id = mail_outbox.booking_id and b.status = s.key and mail_outbox.dedupe_key = 'booking:' || b.id || ':motorist:' || s.value)`;

/** Every table whose INTEGER PRIMARY KEY is AUTOINCREMENT (its ids come from sqlite_sequence). */
export function autoincrementTables(db: Database.Database): string[] {
  return (db.prepare("select name, sql from sqlite_master where type = 'table' and name not like 'sqlite_%'").all() as { name: string; sql: string | null }[])
    .filter((t) => /\bautoincrement\b/i.test(t.sql ?? ''))
    .map((t) => t.name);
}

/** A write-ahead log or rollback journal with something in it beside the database file. */
const hasJournal = (file: string) => [`${file}-wal`, `${file}-journal`].some((journal) => existsSync(journal) && statSync(journal).size > 0);

/** Moves the sequences, holds the outbox, moves the id markers, checks integrity (see the file's head). */
export function makeSafeToServe(file: string, now: Date): Omit<RestoreResult, 'source'> {
  const db = new Database(file, { fileMustExist: true });
  try {
    // The scans for the newest row and the integrity_check below read the whole file.
    cacheWholeFile(db);
    const tables = (db.prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%'").all() as { name: string }[]).map(
      (t) => t.name,
    );
    const columnsOf = (table: string) => new Set((db.prepare(`select name from pragma_table_info(?)`).all(table) as { name: string }[]).map((c) => c.name));
    const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;

    let newest: string | null = null;
    for (const table of tables) {
      if (!columnsOf(table).has('created_at')) continue;
      const row = db.prepare(`select max(created_at) as t from ${quoted(table)}`).get() as { t: unknown };
      // Rows' times are ISO text; drizzle's own migrations table keeps a number, and is no row of ours.
      if (typeof row.t === 'string' && Number.isFinite(Date.parse(row.t)) && (newest === null || row.t > newest)) newest = row.t;
    }
    const lostSeconds = newest === null ? 0 : Math.max(0, (now.getTime() - Date.parse(newest)) / 1000);
    const sequenceGap = Math.max(MIN_SEQUENCE_GAP, Math.ceil(lostSeconds * MAX_IDS_PER_SECOND));

    const sequences: RestoreResult['sequences'] = [];
    const counters: RestoreResult['counters'] = [];
    let outboxHeld = 0;
    let outboxRequeued = 0;
    db.transaction(() => {
      const hasSequence = tables.length > 0 && db.prepare("select 1 from sqlite_master where name = 'sqlite_sequence'").get() !== undefined;
      if (hasSequence) {
        // A table that has never had a row has no sqlite_sequence row, yet the lost window may have
        // given out its first ids: it gets one too, so every AUTOINCREMENT table moves.
        for (const table of autoincrementTables(db)) {
          const seq = db.prepare('select seq from sqlite_sequence where name = ?').pluck().get(table);
          if (seq === undefined) db.prepare('insert into sqlite_sequence (name, seq) values (?, 0)').run(table);
        }
        for (const { name, seq } of db.prepare('select name, seq from sqlite_sequence').all() as { name: string; seq: number }[]) {
          const to = seq + sequenceGap;
          // As a BigInt: better-sqlite3 binds every JS number as a REAL, and SQLite keeps seq integral.
          db.prepare('update sqlite_sequence set seq = ? where name = ?').run(BigInt(to), name);
          sequences.push({ table: name, from: seq, to });
        }
      }
      for (const counter of COUNTER_COLUMNS) {
        if (!tables.includes(counter.table) || (counter.owner && !tables.includes(counter.owner.table))) continue;
        const [table, column] = [quoted(counter.table), quoted(counter.column)];
        const moved = db.prepare(`update ${table} set ${column} = ${column} + ?`).run(BigInt(sequenceGap)).changes;
        const added = counter.owner
          ? db
              .prepare(
                `insert into ${table} (${quoted(counter.owner.key)}, ${column}) select id, ? from ${quoted(counter.owner.table)} where id not in (select ${quoted(counter.owner.key)} from ${table})`,
              )
              .run(BigInt(sequenceGap)).changes
          : 0;
        counters.push({ table: counter.table, column: counter.column, moved, added });
      }
      // Operators' alerts (and account mail) left unsent are held; a motorist's text about a job
      // still open in the copy is kept pending and due now.
      const motoristTexts = tables.includes('mail_outbox') && tables.includes('bookings');
      for (const table of tables.filter((t) => t.endsWith('_outbox'))) {
        const columns = columnsOf(table);
        if (!columns.has('status') || !columns.has('last_error')) continue;
        const keep = table === 'mail_outbox' && motoristTexts ? ` and not ${OPEN_JOB_TEXT}` : '';
        outboxHeld += db
          .prepare(`update ${quoted(table)} set status = 'failed', last_error = @held, next_attempt_at = null where status = 'pending'${keep}`)
          .run({ held: RESTORED_UNSENT, ...(keep ? { open: OPEN_JOB_STEPS } : {}) }).changes;
      }
      if (motoristTexts) {
        outboxRequeued = db
          .prepare(`update mail_outbox set next_attempt_at = @now where status = 'pending' and ${OPEN_JOB_TEXT}`)
          .run({ now: now.toISOString(), open: OPEN_JOB_STEPS }).changes;
      }
      if (tables.includes('job_state')) {
        for (const { marker, table } of ID_MARKERS) {
          if (!tables.includes(table)) continue;
          const { id } = db.prepare(`select coalesce(max(id), 0) as id from ${quoted(table)}`).get() as { id: number };
          db.prepare('insert into job_state (name, value) values (?, ?) on conflict(name) do update set value = excluded.value').run(marker, String(id));
        }
      }
    })();
    const report = db.pragma('integrity_check', { simple: false }) as { integrity_check: string }[];
    const lines = report.map((r) => r.integrity_check);
    if (lines.length !== 1 || lines[0] !== 'ok') throw new RestoreError(`The restored copy failed integrity_check: ${lines.slice(0, 5).join('; ')}`);
    // One file to rename into place: the WAL folded in and switched off for the move.
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.pragma('journal_mode = DELETE');
    return { recoveredUpTo: newest, sequenceGap, sequences, counters, outboxHeld, outboxRequeued, integrity: 'ok' };
  } finally {
    db.close();
  }
}
