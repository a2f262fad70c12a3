// Migrations SQL alone cannot write (parsing phone numbers needs libphonenumber): a SQL migration
// schedules such a step by inserting its row into job_state as 'pending', and openDatabase runs
// each pending step after the SQL migrations, in one transaction with marking it 'done'. A step
// therefore runs once per database, when the migration that schedules it is applied: never on
// every boot, and a database created later gets it (doing nothing) with the rest of its schema.
import type { Db } from './client';
import { normalisePhoneNumbers } from './phone-numbers';

/** Each step by its job_state row, as its migration names it. */
const STEPS: Record<string, (db: Db) => unknown> = {
  // 0012_phone_numbers_e164.sql: numbers saved before the portal stored E.164.
  'migration:0012_phone_numbers_e164': normalisePhoneNumbers,
};

export function runDataMigrations(db: Db): void {
  const sqlite = db.$client;
  const pending = sqlite.prepare("select name from job_state where name like 'migration:%' and value = 'pending' order by name").pluck().all() as string[];
  for (const name of pending) {
    const step = STEPS[name];
    if (!step) throw new Error(`No data migration step is known for ${name}`);
    sqlite.transaction(() => {
      step(db);
      sqlite.prepare("update job_state set value = 'done' where name = ?").run(name);
    })();
  }
}
