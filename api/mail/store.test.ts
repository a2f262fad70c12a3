// The outbox's writers on a real SQLite file: a digest row is written once per key and takes the
// newest count while it is still to be sent, never once a send was tried.
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { mailOutbox } from '../platform/db/schema';
import { createTestApp } from '../test/harness';
import { type NewOutboxRow, upsertDigestRow } from './store';

it('a digest row takes the newer count while unsent, and keeps what was tried', async () => {
  const t = createTestApp();
  const op = await t.operator();
  const digest = (n: number): NewOutboxRow => ({
    companyId: op.companyId,
    kind: 'quote',
    dedupeKey: `quote-digest:${op.companyId}:2026-06-10T13`,
    to: op.email,
    subject: `And ${n} more quotes`,
    text: `…and ${n} more quotes`,
    html: `<p>…and ${n} more quotes</p>`,
    status: 'pending',
    attempts: 0,
    nextAttemptAt: '2026-06-10T14:00:00.000Z',
    createdAt: '2026-06-10T13:05:00.000Z',
  });
  const key = digest(0).dedupeKey;
  const rows = () => t.deps.db.select().from(mailOutbox).where(eq(mailOutbox.dedupeKey, key)).all();

  upsertDigestRow(t.deps.db, digest(3));
  upsertDigestRow(t.deps.db, digest(5));
  expect(rows()).toMatchObject([
    { channel: 'email', subject: 'And 5 more quotes', text: '…and 5 more quotes', html: '<p>…and 5 more quotes</p>', userId: null, bookingId: null },
  ]);

  // A send was tried: the message it tried stays as it was.
  t.deps.db.update(mailOutbox).set({ attempts: 1 }).where(eq(mailOutbox.dedupeKey, key)).run();
  upsertDigestRow(t.deps.db, digest(8));
  expect(rows()).toMatchObject([{ subject: 'And 5 more quotes', attempts: 1 }]);
});
