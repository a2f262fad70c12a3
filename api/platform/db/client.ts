// Opens the SQLite file, applies the committed migrations and seeds the demo company.
// Every database access goes through the functions in the feature stores (api/*/store.ts).
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { MIGRATIONS_DIR } from '../paths';
import { WAL_SIZE_LIMIT_BYTES } from './checkpointer';
import { runDataMigrations } from './data-migrations';
import * as schema from './schema';
import { seedDemoCompany } from './seed';
import { createStore, type Store } from './store';

/**
 * The database handle every feature store takes: drizzle over the connection, the connection
 * itself, and the store object (api/platform/db/store.ts) this process keeps for the database.
 */
export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database; $store: Store };

const migrationsFolder = MIGRATIONS_DIR;

/**
 * SQLite's own wait for a lock, on the event loop: a few milliseconds ride out a lock about to be
 * released; anything longer is waited for off the event loop by api/platform/db/write.ts.
 */
export const BUSY_TIMEOUT_MS = 10;

export interface OpenOptions {
  /** How long a write waits for another process's lock before it answers 503 (api/platform/db/write.ts). */
  writeDeadlineMs?: number;
}

export function openDatabase(file: string, options: OpenOptions = {}): Db {
  if (file !== ':memory:') mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const sqlite = new Database(file);
  // Nothing is served while the database opens, so migrating may wait for another process's lock.
  sqlite.pragma('busy_timeout = 5000');
  // WAL lets readers run during a write, another process's included.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  // A commit that starts the WAL over cuts the file back to this: without it the WAL keeps the
  // size of its longest run between checkpoints (41 MB under load) for good. The server's
  // checkpoint worker takes this over while it runs, and cuts the file only once writes pause
  // (api/platform/db/checkpointer.ts).
  sqlite.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
  // The store object is made here, once per opened database, and lives as long as the handle.
  const db = Object.assign(drizzle(sqlite, { schema }), { $store: createStore({ writeDeadlineMs: options.writeDeadlineMs }) }) as Db;
  migrate(db, { migrationsFolder });
  seedDemoCompany(db);
  runDataMigrations(db);
  sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  return db;
}
