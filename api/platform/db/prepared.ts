// Prepared statements, built once per database. Drizzle's builder costs 100–400 µs a call
// (query building and SQL generation), far more than the SQLite read itself; the reads that run
// on every request (session user, public company, charge lists) are prepared here instead.
// They are kept in the database's store object (api/platform/db/store.ts).
import type { Db } from './client';

export function prepared<T>(db: Pick<Db, '$store'>, key: string, build: () => T): T {
  const statements = db.$store.statements;
  let statement = statements.get(key) as T | undefined;
  if (statement === undefined) {
    statement = build();
    statements.set(key, statement);
  }
  return statement;
}
