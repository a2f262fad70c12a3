// Document numbers (docs/product.md §22): one sequence per company, taken in the transaction that
// stores the document, so a rolled-back issue leaves no gap and two issues at once never share one.
import { describe, expect, it } from 'vitest';
import { write } from '../platform/db/write';
import { createTestApp } from '../test/harness';
import { insertDocument, takeDocumentNumber, type NewDocument } from './store';

const doc = (companyId: number): NewDocument => ({
  companyId,
  bookingId: null,
  kind: 'credit_note',
  originalId: null,
  issuedAt: new Date().toISOString(),
  totalPence: 100,
  lines: '[]',
  totals: '{}',
  details: '{}',
});

describe('document numbers', () => {
  it('count 1, 2, 3 … per company, each company on its own', async () => {
    const t = createTestApp();
    const a = await t.operator();
    const b = await t.operator();
    const { db } = t.deps;
    const numbers = [];
    for (const companyId of [a.companyId, a.companyId, b.companyId, a.companyId, b.companyId])
      numbers.push((await write(db, () => insertDocument(db, doc(companyId)))).number);
    expect(numbers).toEqual([1, 2, 1, 3, 2]);
  });

  it('leave no gap when the issuing transaction rolls back, and never repeat under issues at once', async () => {
    const t = createTestApp();
    const { companyId } = await t.operator();
    const { db } = t.deps;
    await write(db, () => insertDocument(db, doc(companyId)));
    await expect(
      write(db, () => {
        takeDocumentNumber(db, companyId);
        throw new Error('the document could not be stored');
      }),
    ).rejects.toThrow('could not be stored');
    const issued = await Promise.all(Array.from({ length: 20 }, () => write(db, () => insertDocument(db, doc(companyId)))));
    expect(issued.map((d) => d.number).sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i + 2));
    // The unique (company, number) index backs the sequence: a number cannot be stored twice.
    expect(() =>
      db.$client
        .prepare(
          `insert into documents (company_id, kind, number, issued_at, total_pence, lines, totals, details) values (?, 'credit_note', 2, '', 0, '[]', '{}', '{}')`,
        )
        .run(companyId),
    ).toThrow(/UNIQUE/);
  });
});
