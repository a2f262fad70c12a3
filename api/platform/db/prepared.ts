// Prepared statements, built once per database. Drizzle's builder costs 100–400 µs a call
// (query building and SQL generation), far more than the SQLite read itself; the reads that run
// on every request (session user, public company, charge lists) are prepared here instead.
import type { Db } from './client';

const cache = new WeakMap<Db, Map<string, unknown>>();

export function prepared<T>(db: Db, key: string, build: () => T): T {
  let statements = cache.get(db);
  if (!statements) {
    statements = new Map();
    cache.set(db, statements);
  }
  let statement = statements.get(key) as T | undefined;
  if (statement === undefined) {
    statement = build();
    statements.set(key, statement);
  }
  return statement;
}
