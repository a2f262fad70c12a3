// The lead inbox's rules (docs/decisions/016-lead-inbox.md): the operator's pages of
// quotes, one quote by reference, its status and notes, the numbers, the export, and the
// motorist's contact marker. Every operator read is scoped to the operator's company; a
// reference that is malformed, unknown or another company's is one and the same 404.
import { LEAD_PAGE_SIZE, readReference, type ContactChannel, type LeadStatus } from '#shared/leads';
import type { z } from 'zod';
import type { leadFilterSchema } from '#shared/schemas';
import type { LeadDetail, LeadNumbers, LeadPage } from '#shared/types';
import {
  findLeadByReference,
  isVatRegistered,
  leadHistory,
  leadsSince,
  bookingsSince,
  bookingsOfQuotes,
  listLeads,
  setLeadContact,
  setLeadStatus,
  withExportDetails,
  type LeadDetailRow,
  type LeadQuery,
  type LeadExportRow,
  type LeadRow,
} from './store';
import { write } from '../platform/db/write';
import type { AppDeps } from '../platform/deps';
import { NotFound, ValidationFailed } from '../platform/errors';
import { addDays, londonDate, londonMidnight } from '../engine/calendar/uk-calendar';
import { csvStream, type ExportRow } from './csv';
import { leadNumbers, numbersWindow } from './numbers';
import { toLead, toLeadDetail } from './view';

export const QUOTE_NOT_FOUND = 'Quote not found';
export const CURSOR_INVALID = 'Cursor is not valid';
export const CONTACT_RATE_LIMITED = 'Too many requests. Please wait a minute and try again.';
/** Filter dates outside these years are typing mistakes, and beyond what ISO text compares right. */
const FIRST_DATE = '2000-01-01';
const LAST_DATE = '2099-12-31';
/** Rows read per step of the export: memory holds one chunk, however long the list. */
const EXPORT_CHUNK = 500;

export type LeadFilter = z.output<typeof leadFilterSchema>;

/** The page cursor: the last row's (created_at, id), opaque to clients. */
export const encodeCursor = (row: Pick<LeadRow, 'createdAt' | 'id'>) => Buffer.from(`${row.createdAt}|${row.id}`).toString('base64url');

export function decodeCursor(cursor: string): { createdAt: string; id: number } {
  // Any timestamp text a row may hold (ISO 8601 as the app writes it, or SQLite's own), only ever a bound parameter.
  const match = /^(\d{4}-\d{2}-\d{2}[T ][\d:.]{2,15}(?:Z|[+-]\d{2}:?\d{2})?)\|([1-9]\d{0,15})$/.exec(
    /^[A-Za-z0-9_-]+$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '',
  );
  if (!match || !Number.isSafeInteger(Number(match[2]))) throw new ValidationFailed(CURSOR_INVALID, { cursor: CURSOR_INVALID });
  return { createdAt: match[1], id: Number(match[2]) };
}

export function leadService(deps: Pick<AppDeps, 'db' | 'config' | 'now'>) {
  const { db } = deps;
  const notFound = () => new NotFound(QUOTE_NOT_FOUND);

  /** The quote a typed reference names, of this company only. */
  function find(companyId: number, typed: string): LeadDetailRow {
    const reference = readReference(typed);
    if (reference === null) throw notFound();
    const row = findLeadByReference(db, companyId, reference);
    if (!row) throw notFound();
    return row;
  }

  const detailOf = (row: LeadDetailRow) => toLeadDetail(row, leadHistory(db, row.id));

  /** A chunk of the export with each booked quote's booking, in one read for the chunk. */
  function withBookings(rows: LeadExportRow[]): ExportRow[] {
    if (rows.length === 0) return rows;
    const bookings = bookingsOfQuotes(
      db,
      rows.map((row) => row.id),
    );
    return rows.map((row) => ({ ...row, booking: bookings.get(row.id) }));
  }

  /** The filters as a query on created_at instants: `to` is inclusive, so the range ends when the day after begins. */
  function toQuery(companyId: number, filter: LeadFilter, limit: number): LeadQuery {
    for (const field of ['from', 'to'] as const) {
      const date = filter[field];
      if (date !== undefined && (date < FIRST_DATE || date > LAST_DATE)) {
        const message = `${field === 'from' ? 'From' : 'To'} must be between ${FIRST_DATE} and ${LAST_DATE}`;
        throw new ValidationFailed(message, { [field]: message });
      }
    }
    return {
      companyId,
      from: filter.from === undefined ? undefined : londonMidnight(filter.from).toISOString(),
      to: filter.to === undefined ? undefined : londonMidnight(addDays(filter.to, 1)).toISOString(),
      status: filter.status,
      urgency: filter.urgency,
      after: filter.cursor === undefined ? undefined : decodeCursor(filter.cursor),
      limit,
    };
  }

  return {
    page(companyId: number, filter: LeadFilter): LeadPage {
      const limit = filter.limit ?? LEAD_PAGE_SIZE.default;
      // One row more than the page shows whether another page follows.
      const rows = listLeads(db, toQuery(companyId, filter, limit + 1));
      const more = rows.length > limit;
      const page = more ? rows.slice(0, limit) : rows;
      return { quotes: page.map(toLead), nextCursor: more ? encodeCursor(page[page.length - 1]) : null };
    },

    /** The filtered list as CSV, read in keyset chunks as the client takes it; checked before the first byte. */
    exportCsv(companyId: number, filter: LeadFilter): { filename: string; body: ReadableStream<Uint8Array> } {
      const query = toQuery(companyId, { ...filter, cursor: undefined }, EXPORT_CHUNK);
      const vatRegistered = isVatRegistered(db, companyId);
      const body = csvStream(
        (last) => withBookings(withExportDetails(db, listLeads(db, last ? { ...query, after: { createdAt: last.createdAt, id: last.id } } : query))),
        { vatRegistered },
      );
      const span = filter.from || filter.to ? `-${filter.from ?? 'start'}-to-${filter.to ?? londonDate(deps.now())}` : `-${londonDate(deps.now())}`;
      return { filename: `quotes${span}.csv`, body };
    },

    numbers(companyId: number): LeadNumbers {
      const window = numbersWindow(deps.now());
      return leadNumbers(leadsSince(db, companyId, window.starts[0]), window, bookingsSince(db, companyId, window.starts[0]));
    },

    detail: (companyId: number, reference: string): LeadDetail => detailOf(find(companyId, reference)),

    async setStatus(companyId: number, reference: string, update: { status: LeadStatus; note?: string }): Promise<LeadDetail> {
      const row = find(companyId, reference);
      const at = deps.now().toISOString();
      await write(db, () => setLeadStatus(db, row.id, update.status, update.note || null, at));
      return detailOf(find(companyId, reference));
    },

    /**
     * The motorist tapped WhatsApp or Call on this quote: public, so it sets the marker and nothing
     * else. Any stored reference is found through the unique index on public_id.
     */
    async contact(reference: string, channel: ContactChannel): Promise<void> {
      const stored = readReference(reference);
      if (stored === null) throw notFound();
      const at = deps.now().toISOString();
      const found = await write(db, () => setLeadContact(db, stored, channel, at));
      if (!found) throw notFound();
    },
  };
}
