// Migration 0025 on a database written before it: outbox rows get their lane priority, and the
// job tokens that messages stored before it held (the motorist's first text) are blanked, in the
// text, the subject and the HTML alike (decision 034).
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR } from '../paths';

const TOKEN = 'AbCdEfGhIjKlMnOpQrStUvWxYz012345';

describe('migration 0025 (outbox lanes)', () => {
  it('sets each stored row’s priority and blanks the job tokens of messages stored before it', () => {
    const folder = path.join(mkdtempSync(path.join(tmpdir(), 'recovery-0025-')), 'migrations');
    cpSync(MIGRATIONS_DIR, folder, { recursive: true });
    const journalFile = path.join(folder, 'meta', '_journal.json');
    const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { idx: number; tag: string }[] };
    const ours = journal.entries.findIndex((e) => e.tag === '0025_outbox_lanes');
    expect(ours).toBeGreaterThan(0);
    writeFileSync(journalFile, JSON.stringify({ ...journal, entries: journal.entries.slice(0, ours) }));

    const sqlite = new Database(':memory:');
    migrate(drizzle(sqlite), { migrationsFolder: folder });
    const company = sqlite
      .prepare("insert into companies (name, created_at, updated_at) values ('Before', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z') returning id")
      .pluck()
      .get();
    const statement = sqlite.prepare(
      `insert into mail_outbox (company_id, kind, channel, dedupe_key, "to", subject, text, html, status, attempts, created_at)
       values (?, ?, ?, ?, '+447700900123', ?, ?, ?, 'sent', 0, '2026-06-10T12:00:00.000Z')`,
    );
    const insert = (...values: string[]) => statement.run(company, ...values);
    const body = `Company: we have your booking TQ-ABC and will answer by 12:10. Follow it here: https://quotes.example/job/${TOKEN}`;
    insert('booking', 'sms', 'booking:1:motorist:received', body.slice(0, 120), body, '');
    insert('booking', 'email', 'booking:1:operator:email', 'New booking', 'text', '<p>html</p>');
    insert('quote', 'email', 'quote:1', 'New quote', 'text', `<a href="https://quotes.example/job/${TOKEN}">x</a>`);
    insert('quote', 'email', 'quote-digest:1:2026-06-10T11:00:00.000Z', 'And 3 more', 'text', '');
    insert('daily', 'email', 'daily:1:2026-06-09', 'Your quotes', 'text', '');
    insert('reset-password', 'email', 'reset-password:1:x', 'Reset', '{{link}}', '');

    writeFileSync(journalFile, JSON.stringify(journal));
    migrate(drizzle(sqlite), { migrationsFolder: folder });
    const rows = sqlite.prepare('select kind, dedupe_key as key, priority, subject, text, html from mail_outbox order by id').all() as Record<
      string,
      string | number
    >[];
    expect(rows.map((r) => [r.key, r.priority])).toEqual([
      ['booking:1:motorist:received', 0],
      ['booking:1:operator:email', 0],
      ['quote:1', 1],
      ['quote-digest:1:2026-06-10T11:00:00.000Z', 2],
      ['daily:1:2026-06-09', 2],
      ['reset-password:1:x', 0],
    ]);
    expect(JSON.stringify(rows)).not.toContain(TOKEN.slice(0, 8));
    expect(rows[0].text).toBe(`${body.slice(0, body.indexOf('/job/') + 5)}…`);
    expect(rows[2].html).toBe('<a href="https://quotes.example/job/…">x</a>');
    sqlite.close();
  });
});
