// The lead inbox's reads and writes on stored quotes (docs/decisions/016-lead-inbox.md).
// Every read is scoped by company_id and walks the (company_id, created_at) index: a page is a
// keyset range on it, never OFFSET; one quote is found by its row id, never by a scan.
// Statements are plain SQL prepared once per database and per filter shape: the drizzle builder
// would cost more than these reads themselves (api/platform/db/prepared.ts).
import type { Statement } from 'better-sqlite3';
import type { BookingStatus } from '#shared/bookings';
import type { JobSource } from '#shared/phone-jobs';
import type { ContactChannel, LeadStatus } from '#shared/leads';
import type { Db } from '../platform/db/client';
import { prepared } from '../platform/db/prepared';
import { PAYMENT_AMOUNT_COLUMNS, type PaymentAmountColumns } from '../payments/store';

/** A quote as the inbox lists it. */
export interface LeadRow {
  id: number;
  publicId: string;
  createdAt: string;
  pickupPostcode: string;
  destinationPostcode: string;
  distance: number;
  vehicleType: string;
  gearboxType: string | null;
  rollingStatus: string | null;
  passengerCount: number;
  problemType: string;
  urgency: string;
  preferredDate: string | null;
  preferredTime: string | null;
  totalPricePence: number;
  status: LeadStatus;
  statusChangedAt: string | null;
  contactChannel: ContactChannel | null;
  contactedAt: string | null;
  whatsappTappedAt: string | null;
  phoneTappedAt: string | null;
  /** Who took the quote on the phone; null for a web quote (docs/product.md §25). */
  takenBy: string | null;
}

/** One quote opened: its priced columns too. */
export interface LeadDetailRow extends LeadRow {
  callOutFeePence: number;
  distanceFeePence: number;
  labourFeePence: number;
  extraFeesPence: number;
  vatPence: number;
  vatRatePercent: number;
  validUntil: string | null;
  lines: string | null;
}

export interface LeadEventRow {
  status: LeadStatus;
  note: string | null;
  createdAt: string;
}

const LEAD_COLUMNS = `id, public_id as publicId, created_at as createdAt, pickup_postcode as pickupPostcode,
  destination_postcode as destinationPostcode, distance, vehicle_type as vehicleType, gearbox_type as gearboxType,
  rolling_status as rollingStatus, passenger_count as passengerCount, problem_type as problemType, urgency,
  preferred_date as preferredDate, preferred_time as preferredTime, total_price_pence as totalPricePence, status,
  status_changed_at as statusChangedAt, contact_channel as contactChannel, contacted_at as contactedAt,
  whatsapp_tapped_at as whatsappTappedAt, phone_tapped_at as phoneTappedAt,
  (select taken_by_name from phone_quotes where phone_quotes.quote_id = quotes.id) as takenBy`;

const DETAIL_COLUMNS = `${LEAD_COLUMNS}, call_out_fee_pence as callOutFeePence, distance_fee_pence as distanceFeePence,
  labour_fee_pence as labourFeePence, extra_fees_pence as extraFeesPence, vat_pence as vatPence,
  vat_rate_percent as vatRatePercent, valid_until as validUntil, lines`;

const statement = (db: Db, key: string, sql: string): Statement => prepared(db, `leads:${key}`, () => db.$client.prepare(sql));

/**
 * A quote of this company by its reference, whichever scheme gave it (8, 9 or 10 characters): one
 * probe of the unique index on public_id, then the row by id.
 */
export function findLeadByReference(db: Db, companyId: number, publicId: string): LeadDetailRow | undefined {
  return statement(db, 'byReference', `select ${DETAIL_COLUMNS} from quotes where public_id = ? and company_id = ?`).get(publicId, companyId) as
    | LeadDetailRow
    | undefined;
}

export function leadHistory(db: Db, quoteId: number): LeadEventRow[] {
  return statement(db, 'history', 'select status, note, created_at as createdAt from lead_events where quote_id = ? order by id').all(
    quoteId,
  ) as LeadEventRow[];
}

export interface LeadQuery {
  companyId: number;
  /** ISO instants: created_at >= from and < to. */
  from?: string;
  to?: string;
  status?: LeadStatus;
  urgency?: string;
  /** The last row of the page before: rows strictly older in (created_at, id) order. */
  after?: { createdAt: string; id: number };
  limit: number;
}

/**
 * Newest first. The cursor is a range on the index's created_at (`<=`) with the id tie-break as a
 * filter, since SQLite uses a row-value comparison as a range only on its first column anyway.
 */
export function listLeads(db: Db, query: LeadQuery): LeadRow[] {
  const where = ['company_id = ?'];
  const params: (string | number)[] = [query.companyId];
  let shape = '';
  const filters: [string, string | undefined, string][] = [
    ['f', query.from, 'created_at >= ?'],
    ['t', query.to, 'created_at < ?'],
    ['s', query.status, 'status = ?'],
    ['u', query.urgency, 'urgency = ?'],
  ];
  for (const [key, value, condition] of filters) {
    if (value === undefined) continue;
    where.push(condition);
    params.push(value);
    shape += key;
  }
  if (query.after) {
    where.push('created_at <= ? and (created_at < ? or id < ?)');
    params.push(query.after.createdAt, query.after.createdAt, query.after.id);
    shape += 'a';
  }
  params.push(query.limit);
  const sql = `select ${LEAD_COLUMNS} from quotes indexed by quotes_company_created where ${where.join(' and ')}
    order by created_at desc, id desc limit ?`;
  return statement(db, `list:${shape}`, sql).all(...params) as LeadRow[];
}

/** A quote as the export writes it: its VAT, and its status history's last change and latest note. */
export interface LeadExportRow extends LeadRow {
  vatPence: number;
  lastChangeStatus: LeadStatus | null;
  lastChangeAt: string | null;
  note: string | null;
}

/** The export's extra columns for one chunk of rows, read by row id in one statement. */
export function withExportDetails(db: Db, rows: readonly LeadRow[]): LeadExportRow[] {
  if (rows.length === 0) return [];
  const details = statement(
    db,
    'exportDetails',
    `select q.id, q.vat_pence as vatPence, last.status as lastChangeStatus, last.created_at as lastChangeAt,
      (select note from lead_events where quote_id = q.id and note is not null and trim(note) <> '' order by id desc limit 1) as note
    from quotes q left join lead_events last on last.id = (select max(id) from lead_events where quote_id = q.id)
    where q.id in (select value from json_each(?))`,
  ).all(JSON.stringify(rows.map((row) => row.id))) as ({ id: number } & Omit<LeadExportRow, keyof LeadRow>)[];
  const byId = new Map(details.map((detail) => [detail.id, detail]));
  return rows.map((row) => ({ vatPence: 0, lastChangeStatus: null, lastChangeAt: null, note: null, ...byId.get(row.id), ...row }));
}

/** Whether the company is VAT-registered now: its export then splits each total into net, VAT and gross. */
export function isVatRegistered(db: Db, companyId: number): boolean {
  return statement(db, 'vatRegistered', 'select vat_registered from pricing_rates where company_id = ?').pluck().get(companyId) === 1;
}

/**
 * What the numbers are made of: the company's quotes since `since`, oldest first, with only the
 * columns they need, all in the covering index (migration 0007).
 */
export interface NumbersRow {
  createdAt: string;
  totalPricePence: number;
  status: LeadStatus;
  pickupPostcode: string;
}

export function leadsSince(db: Db, companyId: number, since: string): NumbersRow[] {
  return statement(
    db,
    'since',
    `select created_at as createdAt, total_price_pence as totalPricePence, status, pickup_postcode as pickupPostcode
     from quotes indexed by quotes_company_created where company_id = ? and created_at >= ? order by created_at`,
  ).all(companyId, since) as NumbersRow[];
}

/** A booking as the numbers count it: the funnel's later steps and the time to accept. */
export interface BookingNumbersRow extends PaymentAmountColumns {
  createdAt: string;
  status: BookingStatus;
  acceptedAt: string | null;
  /** 1 for a booking of a quote taken by phone (docs/product.md §25). */
  phone: number;
  /** 1 when its review request was written to the outbox (docs/product.md §20), by text or by email. */
  reviewRequested: number;
}

/**
 * The company's bookings made since `since`, by the (company_id, created_at) index, with their
 * payment at booking. One still awaiting its payment is not a booking yet (the operator never sees it).
 */
export function bookingsSince(db: Db, companyId: number, since: string): BookingNumbersRow[] {
  return statement(
    db,
    'bookingsSince',
    `select b.created_at as createdAt, b.status, b.accepted_at as acceptedAt, ${PAYMENT_AMOUNT_COLUMNS},
       exists (select 1 from phone_quotes pq where pq.quote_id = b.quote_id) as phone,
       -- The message, not the job's mark: a company whose name is not checked has its jobs marked asked, and sends none.
       exists (select 1 from mail_outbox m where m.booking_id = b.id
         and m.dedupe_key in ('booking:' || b.id || ':motorist:review', 'booking:' || b.id || ':motorist:review-email')) as reviewRequested
     from bookings b indexed by bookings_company_created left join payments p on p.booking_id = b.id
     where b.company_id = ? and b.created_at >= ? and b.status != 'awaiting_payment'`,
  ).all(companyId, since) as BookingNumbersRow[];
}

/** A quote's booking as the export lists it, with its payment at booking. */
export interface BookingExportRow extends PaymentAmountColumns {
  quoteId: number;
  /** Where the booking came from, when it was kept (bookings.source). */
  source: JobSource | null;
  status: BookingStatus;
  createdAt: string;
  customerName: string;
  customerPhone: string;
  registration: string;
  note: string | null;
  acceptedAt: string | null;
  etaMinutes: number | null;
  driverName: string | null;
  declineReason: string | null;
}

/** The bookings of these quotes (one each at most), each by the quote's unique index. */
export function bookingsOfQuotes(db: Db, quoteIds: readonly number[]): Map<number, BookingExportRow> {
  const rows = statement(
    db,
    'bookingsOf',
    `select b.quote_id as quoteId, b.status, b.created_at as createdAt, b.customer_name as customerName, b.customer_phone as customerPhone,
       b.registration, b.note, b.accepted_at as acceptedAt, b.eta_minutes as etaMinutes, b.driver_name as driverName, b.decline_reason as declineReason,
       b.source, ${PAYMENT_AMOUNT_COLUMNS}
     from bookings b left join payments p on p.booking_id = b.id where b.quote_id in (select value from json_each(?))`,
  ).all(JSON.stringify(quoteIds)) as BookingExportRow[];
  return new Map(rows.map((row) => [row.quoteId, row]));
}

/** The status and its event, for the caller's write() transaction. */
export function setLeadStatus(db: Db, quoteId: number, status: LeadStatus, note: string | null, at: string): void {
  statement(db, 'setStatus', 'update quotes set status = ?, status_changed_at = ? where id = ?').run(status, at, quoteId);
  statement(db, 'addEvent', 'insert into lead_events (quote_id, status, note, created_at) values (?, ?, ?, ?)').run(quoteId, status, note, at);
}

/**
 * The motorist's tap: only the marker changes, and only the first time. The first tap of either
 * button stays the quote's marker, and each button keeps its own first tap; tapping again (or a
 * stranger posting to the public route) changes nothing. False when no quote has this reference.
 */
export function setLeadContact(db: Db, publicId: string, channel: ContactChannel, at: string): boolean {
  const column = channel === 'whatsapp' ? 'whatsapp_tapped_at' : 'phone_tapped_at';
  return (
    statement(
      db,
      `setContact:${channel}`,
      `update quotes set contact_channel = coalesce(contact_channel, @channel), contacted_at = coalesce(contacted_at, @at),
        ${column} = coalesce(${column}, case when contact_channel = @channel then contacted_at end, @at)
       where public_id = @publicId`,
    ).run({ channel, at, publicId }).changes > 0
  );
}

// ---------------------------------------------------------------- retention

export function companyRetentions(db: Db): { id: number; retentionMonths: number }[] {
  return statement(db, 'retentions', 'select id, retention_months as retentionMonths from companies order by id').all() as {
    id: number;
    retentionMonths: number;
  }[];
}

/** Up to `batch` ids of the company's quotes created before `before`: a read, so a night with nothing to delete takes no lock. */
export function expiredLeadIds(db: Db, companyId: number, before: string, batch: number): number[] {
  return statement(db, 'expired', 'select id from quotes indexed by quotes_company_created where company_id = ? and created_at < ? limit ?')
    .pluck()
    .all(companyId, before, batch) as number[];
}

/**
 * Deletes these quotes with their lead events and bookings (the motorist's name, number,
 * registration and note, and the booking's messages in the outbox), for the caller's write()
 * transaction; answers how many quotes went. The rest goes by the foreign keys' cascade, or
 * explicitly on a connection where foreign keys are off (a cascade would silently not happen there).
 */
export function deleteLeads(db: Db, ids: readonly number[]): number {
  const list = JSON.stringify(ids);
  if (!foreignKeysOn(db)) {
    const bookingsOf = 'select id from bookings where quote_id in (select value from json_each(?))';
    statement(db, 'deleteEvents', 'delete from lead_events where quote_id in (select value from json_each(?))').run(list);
    statement(db, 'deleteBookingMail', `delete from mail_outbox where booking_id in (${bookingsOf})`).run(list);
    statement(db, 'deleteBookings', 'delete from bookings where quote_id in (select value from json_each(?))').run(list);
    statement(db, 'deletePhoneQuotes', 'delete from phone_quotes where quote_id in (select value from json_each(?))').run(list);
  }
  return statement(db, 'deleteQuotes', 'delete from quotes where id in (select value from json_each(?))').run(list).changes;
}

const foreignKeysOn = (db: Db) => db.$client.pragma('foreign_keys', { simple: true }) === 1;
