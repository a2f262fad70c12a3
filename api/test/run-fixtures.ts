// What the API tests share across a run (made once by api/test/global-setup.ts, used by
// api/test/harness.ts): the template database every test app is copied from, and the operator
// factory's password.
import path from 'node:path';
import { openDatabase } from '../platform/db/client';

/** The password of every operator the harness's factory signs up. */
export const FACTORY_PASSWORD = 'correct-horse';

/**
 * Migrates and seeds `dir`/template.db and answers its path: its WAL folded into the file
 * (journal_mode DELETE), so one copied file is the whole database.
 */
export function migratedTemplate(dir: string): string {
  const file = path.join(dir, 'template.db');
  const db = openDatabase(file);
  db.$client.pragma('wal_checkpoint(TRUNCATE)');
  db.$client.pragma('journal_mode = DELETE');
  db.$client.close();
  return file;
}
