import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from './client';
import { normalisePhoneNumbers } from './phone-numbers';

function legacyCompanies(file: string) {
  const db = openDatabase(file);
  const insert = db.$client.prepare(
    "insert into companies (name, phone, whatsapp, created_at, updated_at) values (?, ?, ?, '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z') returning id",
  );
  const ids = [
    insert.get('Bracketed', '+44 (0)7700 900456', '07700 900456') as { id: number },
    insert.get('Already E.164', '+447700900456', null) as { id: number },
    insert.get('Not a number', 'ring the office', '0113 496 0000') as { id: number },
    insert.get('None', null, null) as { id: number },
  ].map((row) => row.id);
  return { db, ids };
}

const PHONE_STEP = 'migration:0012_phone_numbers_e164';
const stepState = (db: ReturnType<typeof openDatabase>) => db.$client.prepare('select value from job_state where name = ?').pluck().get(PHONE_STEP);

const numbers = (db: ReturnType<typeof openDatabase>, id: number) =>
  db.$client.prepare('select phone, whatsapp from companies where id = ?').get(id) as { phone: string | null; whatsapp: string | null };

describe('normalisePhoneNumbers', () => {
  it('rewrites saved numbers in E.164, leaves what is no number as it was, and changes nothing the second time', () => {
    const { db, ids } = legacyCompanies(path.join(mkdtempSync(path.join(tmpdir(), 'phones-')), 'test.db'));
    expect(normalisePhoneNumbers(db)).toBe(2);
    expect(numbers(db, ids[0])).toEqual({ phone: '+447700900456', whatsapp: '+447700900456' });
    expect(numbers(db, ids[1])).toEqual({ phone: '+447700900456', whatsapp: null });
    expect(numbers(db, ids[2])).toEqual({ phone: 'ring the office', whatsapp: '+441134960000' });
    expect(numbers(db, ids[3])).toEqual({ phone: null, whatsapp: null });
    expect(normalisePhoneNumbers(db)).toBe(0);
    db.$client.close();
  });

  it('runs when the database opens, so a database from before E.164 is migrated at boot', () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'phones-')), 'test.db');
    const { db, ids } = legacyCompanies(file);
    // As a database from before migration 0012: its step not yet run.
    db.$client.prepare("update job_state set value = 'pending' where name = ?").run(PHONE_STEP);
    db.$client.close();
    const reopened = openDatabase(file);
    expect(numbers(reopened, ids[0])).toEqual({ phone: '+447700900456', whatsapp: '+447700900456' });
    expect(numbers(reopened, 1)).toEqual({ phone: '+447700900123', whatsapp: '+447700900123' });
    reopened.$client.close();
  });

  it('runs once, with its migration, not on every boot: a number saved later is left as it is', () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'phones-')), 'test.db');
    const { db, ids } = legacyCompanies(file);
    expect(stepState(db)).toBe('done');
    db.$client.close();
    const reopened = openDatabase(file);
    expect(numbers(reopened, ids[0])).toEqual({ phone: '+44 (0)7700 900456', whatsapp: '07700 900456' });
    expect(stepState(reopened)).toBe('done');
    reopened.$client.close();
  });
});
