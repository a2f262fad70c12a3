// Opens the SQLite file, applies the committed migrations and seeds the demo company.
// Every database access goes through the functions in api/db/ (DESIGN.md §10).
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { MIGRATIONS_DIR } from '../paths';
import { WAL_SIZE_LIMIT_BYTES } from './checkpointer';
import * as schema from './schema';
import { seedDemoCompany } from './seed';

export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

const migrationsFolder = MIGRATIONS_DIR;

export function openDatabase(file: string): Db {
  if (file !== ':memory:') mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const sqlite = new Database(file);
  // WAL lets readers run during a write; the busy timeout rides out a backup's brief lock.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  // A commit that starts the WAL over cuts the file back to this: without it the WAL keeps the
  // size of its longest run between checkpoints (41 MB under load) for good.
  sqlite.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
  const db = drizzle(sqlite, { schema }) as Db;
  migrate(db, { migrationsFolder });
  seedDemoCompany(db);
  return db;
}
