// The phone jobs' SQL (docs/product.md §25): a caller's quote stored as a web quote is, with its
// phone row beside it in the same transaction; its link looked up by the token's hash; the quote
// link texts a number had today; missed calls. Writers run inside the caller's write().
import type { Statement } from 'better-sqlite3';
import type { Db } from '../platform/db/client';
import { prepared } from '../platform/db/prepared';
import { quotes } from '../platform/db/schema';
import { randomReferences } from '../quotes/reference';
import { REFERENCE_TRIES, type NewQuote } from '../quotes/store';

const statement = (db: Db, key: string, sql: string): Statement => prepared(db, `phone:${key}`, () => db.$client.prepare(sql));

export interface PhoneQuoteExtras {
  takenByUserId: number;
  takenByName: string;
  adjustmentPence: number | null;
  adjustmentReason: string | null;
  linkSalt: string;
  linkTokenHash: string;
}

/** A clash of the drawn reference with a stored one, which another draw resolves. */
const referenceTaken = (error: unknown) =>
  error instanceof Error && (error as { code?: unknown }).code === 'SQLITE_CONSTRAINT_UNIQUE' && error.message.includes('quotes.public_id');

/**
 * Stores a caller's quote and its phone row in one transaction (the caller's write()): the quote
 * takes its reference from the same source as every quote (api/quotes/reference.ts, held unique
 * by the quotes' index, a clash drawn again), so it reads, books and retains as a web quote does.
 */
export function insertPhoneQuote(db: Db, quote: NewQuote, extras: PhoneQuoteExtras): { id: number; publicId: string } {
  const nextReference = prepared(db, 'phone:references', () => randomReferences());
  const at = Date.parse(quote.createdAt);
  let inserted: { id: number; publicId: string } | undefined;
  for (let tries = 1; inserted === undefined; tries++) {
    const publicId = nextReference(at);
    try {
      const { id } = db
        .insert(quotes)
        .values({ ...quote, publicId })
        .returning({ id: quotes.id })
        .get();
      inserted = { id, publicId };
    } catch (error) {
      if (!referenceTaken(error) || tries >= REFERENCE_TRIES) throw error;
    }
  }
  const { id } = inserted;
  statement(
    db,
    'insert',
    `insert into phone_quotes (quote_id, company_id, taken_by_user_id, taken_by_name, adjustment_pence, adjustment_reason, link_salt, link_token_hash, created_at)
     values (@quoteId, @companyId, @takenByUserId, @takenByName, @adjustmentPence, @adjustmentReason, @linkSalt, @linkTokenHash, @createdAt)`,
  ).run({ ...extras, quoteId: id, companyId: quote.companyId, createdAt: quote.createdAt });
  return inserted;
}

/** A caller's quote with what its screens and its link's page show. */
export interface PhoneQuoteRow {
  quoteId: number;
  publicId: string;
  companyId: number;
  takenByName: string;
  linkSalt: string;
  pickupPostcode: string;
  destinationPostcode: string;
  vehicleType: string;
  problemType: string;
  distance: number;
  totalPricePence: number;
  vatPence: number;
  vatRatePercent: number;
  lines: string | null;
  validUntil: string | null;
  createdAt: string;
  companyName: string;
  companyPhone: string | null;
  primaryColour: string;
  logo: string | null;
  customSlug: string | null;
  offerBooking: number;
  booked: number;
}

const PHONE_QUOTE = `select pq.quote_id as quoteId, q.public_id as publicId, pq.company_id as companyId, pq.taken_by_name as takenByName,
    pq.link_salt as linkSalt, q.pickup_postcode as pickupPostcode, q.destination_postcode as destinationPostcode,
    q.vehicle_type as vehicleType, q.problem_type as problemType, q.distance, q.total_price_pence as totalPricePence,
    q.vat_pence as vatPence, q.vat_rate_percent as vatRatePercent, q.lines, q.valid_until as validUntil, q.created_at as createdAt,
    c.name as companyName, c.phone as companyPhone, c.primary_colour as primaryColour, c.logo, c.custom_slug as customSlug,
    c.offer_booking as offerBooking,
    exists (select 1 from bookings b where b.quote_id = pq.quote_id and b.status != 'awaiting_payment') as booked
  from phone_quotes pq join quotes q on q.id = pq.quote_id join companies c on c.id = pq.company_id`;

export function phoneQuoteById(db: Db, quoteId: number): PhoneQuoteRow | undefined {
  return statement(db, 'byId', `${PHONE_QUOTE} where pq.quote_id = ?`).get(quoteId) as PhoneQuoteRow | undefined;
}

/** The phone quote of a reference as stored (public_id's unique index). */
export function phoneQuoteByReference(db: Db, reference: string): PhoneQuoteRow | undefined {
  return statement(db, 'byReference', `${PHONE_QUOTE} where q.public_id = ?`).get(reference) as PhoneQuoteRow | undefined;
}

export function phoneQuoteByLink(db: Db, tokenHash: string): PhoneQuoteRow | undefined {
  return statement(db, 'byLink', `${PHONE_QUOTE} where pq.link_token_hash = ?`).get(tokenHash) as PhoneQuoteRow | undefined;
}

/** The salt of a quote's link, for the outbox to make the link as it sends the text. */
export function linkSaltOf(db: Db, quoteId: number): string | undefined {
  return statement(db, 'salt', 'select link_salt from phone_quotes where quote_id = ?').pluck().get(quoteId) as string | undefined;
}

/**
 * The outbox keys of the quote links this company texted to `to` on one UK day: each key begins
 * `quote-link:{companyId}:{to}:{day}:`, so the count is a range of the outbox's unique key index.
 */
export function quoteLinkTextsToday(db: Db, prefix: string): number {
  return statement(db, 'linkTexts', `select count(*) from mail_outbox where dedupe_key >= ? and dedupe_key < ?`)
    .pluck()
    .get(prefix, `${prefix}\uffff`) as number;
}

/** Phone quotes of the company stored from `since` to `until`: the numbers card counts them apart. */
export function phoneQuotesBetween(db: Db, companyId: number, since: string, until: string): number {
  return statement(db, 'countBetween', 'select count(*) from phone_quotes where company_id = ? and created_at >= ? and created_at < ?')
    .pluck()
    .get(companyId, since, until) as number;
}

export interface MissedCallRow {
  caller: string;
  callStatus: string;
  texted: number;
  createdAt: string;
}

/** Records a missed call; the company's calls older than `forgetBefore` go in the same step. */
export function insertMissedCall(
  db: Db,
  call: { companyId: number; caller: string; callStatus: string; texted: boolean; createdAt: string },
  forgetBefore: string,
) {
  statement(db, 'forgetCalls', 'delete from missed_calls where company_id = ? and created_at < ?').run(call.companyId, forgetBefore);
  statement(db, 'insertCall', 'insert into missed_calls (company_id, caller, call_status, texted, created_at) values (?, ?, ?, ?, ?)').run(
    call.companyId,
    call.caller,
    call.callStatus,
    call.texted ? 1 : 0,
    call.createdAt,
  );
}

/** Deletes every company's missed calls older than `before` (the nightly retention); answers how many went. */
export function forgetMissedCalls(db: Db, before: string): number {
  return statement(db, 'forgetAllCalls', 'delete from missed_calls where created_at < ?').run(before).changes;
}

export function missedCallsSince(db: Db, companyId: number, since: string): MissedCallRow[] {
  return statement(
    db,
    'calls',
    `select caller, call_status as callStatus, texted, created_at as createdAt from missed_calls
     where company_id = ? and created_at >= ? order by created_at desc, id desc limit 200`,
  ).all(companyId, since) as MissedCallRow[];
}

/** The one company whose phone number (E.164) is `number`; none when no company, or more than one, has it. */
export function companyByPhone(db: Db, number: string): { id: number; name: string; phone: string; customSlug: string | null } | undefined {
  const rows = statement(db, 'companyByPhone', 'select id, name, phone, custom_slug as customSlug from companies where phone = ? limit 2').all(number) as {
    id: number;
    name: string;
    phone: string;
    customSlug: string | null;
  }[];
  return rows.length === 1 ? rows[0] : undefined;
}
