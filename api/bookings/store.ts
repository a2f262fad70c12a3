// The bookings table's reads and writes (docs/product.md, "Bookings"). Plain SQL prepared once per
// database (api/platform/db/prepared.ts), as the lead inbox does. Writers run inside the caller's
// write() transaction, so a status, its history row and its messages commit together.
import type { Statement } from 'better-sqlite3';
import type { BookingStatus } from '#shared/bookings';
import { readReference, type LeadStatus } from '#shared/leads';
import type { PaymentKind, PaymentStatus } from '#shared/payments';
import type { JobSource } from '#shared/phone-jobs';
import type { Db } from '../platform/db/client';
import { prepared } from '../platform/db/prepared';

export interface BookingRow {
  id: number;
  quoteId: number;
  companyId: number;
  status: BookingStatus;
  customerName: string;
  customerPhone: string;
  /** The motorist's email address, lower case, if they gave one: for the review request by email alone. */
  customerEmail: string | null;
  registration: string;
  note: string | null;
  pickupLat: number | null;
  pickupLng: number | null;
  pricePence: number;
  jobTokenHash: string;
  driverTokenHash: string;
  driverSalt: string;
  respondBy: string;
  etaMinutes: number | null;
  etaAt: string | null;
  etaFromPosition: number;
  driverName: string | null;
  declineReason: string | null;
  driverLat: number | null;
  driverLng: number | null;
  driverPositionAt: string | null;
  acceptedAt: string | null;
  finishedAt: string | null;
  balanceMethod: string | null;
  balancePaidAt: string | null;
  /** The balance's pay link's salt (api/bookings/tokens.ts), once the link was asked for; null before. */
  paySalt: string | null;
  /** When the pay link was texted to the motorist, or null. */
  payLinkTextedAt: string | null;
  statusChangedAt: string;
  createdAt: string;
  /** A job for later: its slot (docs/product.md §23); null for a job for now. */
  scheduledFor: string | null;
  windowMinutes: number | null;
  /** The person of the company the job is assigned to. */
  assignedUserId: number | null;
}

/** A booking with what its pages show of the quote and the company. */
export interface BookingWithQuote extends BookingRow {
  reference: string;
  pickupPostcode: string;
  destinationPostcode: string;
  vehicleType: string;
  problemType: string;
  /** The quote's gearbox and rolling status as the form stored them (null when not asked), and its passengers. */
  gearboxType: string | null;
  rollingStatus: string | null;
  passengerCount: number;
  /** The quote's miles. */
  distance: number;
  companyName: string;
  companyPhone: string | null;
  /** The company's own page's address part (/company/{slug}), once it has one. */
  companySlug: string | null;
  /** JSON array of the motorist's texts the company turned off. */
  motoristTextsOff: string;
  /** The company's confirmed booking text number, or null (api/bookings/sms-verification.ts). */
  companySmsNumber: string | null;
  /** The quote's lead status (new, contacted, won, lost). */
  leadStatus: LeadStatus;
  /** The payment at booking, if one was due (docs/product.md §21). */
  paymentKind: PaymentKind | null;
  paymentStatus: PaymentStatus | null;
  paymentAmountPence: number | null;
  paymentRefundedPence: number | null;
  paymentCheckoutUrl: string | null;
  /** Where the job came from: phone for a quote the operator priced for a caller (api/phone/), else as booked. */
  source: JobSource | null;
  /** Who took the caller's quote; null for a web quote. */
  takenBy: string | null;
  /** 1 for a job on a trade account (docs/product.md §26): a delivery note, not a receipt. */
  onAccount: number;
}

const BOOKING_COLUMNS = `b.id, b.quote_id as quoteId, b.company_id as companyId, b.status, b.customer_name as customerName,
  b.customer_phone as customerPhone, b.customer_email as customerEmail, b.registration, b.note, b.pickup_lat as pickupLat, b.pickup_lng as pickupLng,
  b.price_pence as pricePence, b.job_token_hash as jobTokenHash, b.driver_token_hash as driverTokenHash,
  b.driver_salt as driverSalt, b.respond_by as respondBy, b.eta_minutes as etaMinutes, b.eta_at as etaAt,
  b.eta_from_position as etaFromPosition, b.driver_name as driverName, b.decline_reason as declineReason,
  b.driver_lat as driverLat, b.driver_lng as driverLng, b.driver_position_at as driverPositionAt,
  b.accepted_at as acceptedAt, b.finished_at as finishedAt, b.balance_method as balanceMethod, b.balance_paid_at as balancePaidAt, b.pay_salt as paySalt, b.pay_link_texted_at as payLinkTextedAt, b.status_changed_at as statusChangedAt, b.created_at as createdAt,
  b.scheduled_for as scheduledFor, b.window_minutes as windowMinutes, b.assigned_user_id as assignedUserId`;

const WITH_QUOTE = `select ${BOOKING_COLUMNS}, q.public_id as reference, q.pickup_postcode as pickupPostcode,
  q.destination_postcode as destinationPostcode, q.vehicle_type as vehicleType, q.problem_type as problemType,
  q.gearbox_type as gearboxType, q.rolling_status as rollingStatus, q.passenger_count as passengerCount, q.distance,
  q.status as leadStatus, c.name as companyName, c.phone as companyPhone, c.custom_slug as companySlug, c.motorist_texts_off as motoristTextsOff,
  case when c.booking_sms_verified_at is not null then c.booking_sms_number end as companySmsNumber,
  p.kind as paymentKind, p.status as paymentStatus, p.amount_pence as paymentAmountPence,
  p.refunded_pence as paymentRefundedPence, p.checkout_url as paymentCheckoutUrl,
  case when pq.quote_id is not null then 'phone' else b.source end as source, pq.taken_by_name as takenBy,
  exists (select 1 from account_jobs aj where aj.booking_id = b.id) as onAccount
  from bookings b join quotes q on q.id = b.quote_id join companies c on c.id = b.company_id
  left join payments p on p.booking_id = b.id left join phone_quotes pq on pq.quote_id = b.quote_id`;

const statement = (db: Db, key: string, sql: string): Statement => prepared(db, `bookings:${key}`, () => db.$client.prepare(sql));

export function bookingByQuote(db: Db, quoteId: number): BookingWithQuote | undefined {
  return statement(db, 'byQuote', `${WITH_QUOTE} where b.quote_id = ?`).get(quoteId) as BookingWithQuote | undefined;
}

/** The booking of the quote with this stored reference (one probe of the unique index on public_id). */
export function bookingByReference(db: Db, reference: string): BookingWithQuote | undefined {
  return statement(db, 'byReference', `${WITH_QUOTE} where q.public_id = ?`).get(reference) as BookingWithQuote | undefined;
}

export function bookingById(db: Db, id: number): BookingWithQuote | undefined {
  return statement(db, 'byId', `${WITH_QUOTE} where b.id = ?`).get(id) as BookingWithQuote | undefined;
}

/** The booking of a balance's pay link (docs/product.md §22), by its token's hash. */
export function bookingByPayToken(db: Db, hash: string): BookingWithQuote | undefined {
  return statement(db, 'byPay', `${WITH_QUOTE} where b.pay_token_hash = ?`).get(hash) as BookingWithQuote | undefined;
}

/** The salt of a booking's pay link, or null before it was asked for. */
export function paySaltOf(db: Db, id: number): string | null {
  const row = statement(db, 'paySalt', 'select pay_salt as salt from bookings where id = ?').get(id) as { salt: string | null } | undefined;
  return row?.salt ?? null;
}

/** Keeps a pay link's salt and its token's hash, once: false when the booking has one already. */
export function setPayLink(db: Db, id: number, salt: string, hash: string): boolean {
  return (
    statement(db, 'setPayLink', 'update bookings set pay_salt = ?, pay_token_hash = ? where id = ? and pay_salt is null').run(salt, hash, id).changes === 1
  );
}

/** Marks the pay link texted to the motorist; false when it was already (once per job). */
export function markPayLinkTexted(db: Db, id: number, at: string): boolean {
  return statement(db, 'payLinkTexted', 'update bookings set pay_link_texted_at = ? where id = ? and pay_link_texted_at is null').run(at, id).changes === 1;
}

export function bookingByJobToken(db: Db, hash: string): BookingWithQuote | undefined {
  return statement(db, 'byJob', `${WITH_QUOTE} where b.job_token_hash = ?`).get(hash) as BookingWithQuote | undefined;
}

export function bookingByDriverToken(db: Db, hash: string): BookingWithQuote | undefined {
  return statement(db, 'byDriver', `${WITH_QUOTE} where b.driver_token_hash = ?`).get(hash) as BookingWithQuote | undefined;
}

/** The company's bookings that are open (requested or under way), or finished since `since`; never one still awaiting payment. */
export function companyBookings(db: Db, companyId: number, since: string): BookingWithQuote[] {
  return statement(
    db,
    'company',
    `${WITH_QUOTE} where b.company_id = ? and b.status != 'awaiting_payment' and (b.finished_at is null or b.finished_at >= ?) order by b.created_at desc limit 200`,
  ).all(companyId, since) as BookingWithQuote[];
}

/** Requested bookings whose response time has passed at `nowIso`, oldest first. */
export function overdueBookings(db: Db, nowIso: string, limit: number): { id: number }[] {
  return statement(db, 'overdue', `select id from bookings where status = 'requested' and respond_by <= ? order by respond_by limit ?`).all(nowIso, limit) as {
    id: number;
  }[];
}

export type NewBooking = Pick<
  BookingRow,
  | 'quoteId'
  | 'companyId'
  | 'customerName'
  | 'customerPhone'
  | 'registration'
  | 'note'
  | 'pickupLat'
  | 'pickupLng'
  | 'pricePence'
  | 'jobTokenHash'
  | 'driverTokenHash'
  | 'driverSalt'
  | 'respondBy'
  | 'createdAt'
> & {
  status?: 'requested' | 'awaiting_payment';
  /** The motorist's email address, if they gave one (the booking form's optional field). */
  customerEmail?: string | null;
  /** The job token, encrypted (api/bookings/tokens.ts, jobTokenBox). */
  jobTokenSealed: string;
  source?: JobSource;
  /** A job for later: its slot (api/dispatch/later.ts). */
  scheduledFor?: string | null;
};

/** Inserts a booking; answers its id, or undefined when the quote already has one. */
export function insertBooking(db: Db, b: NewBooking): number | undefined {
  const result = statement(
    db,
    'insert',
    `insert into bookings (quote_id, company_id, status, customer_name, customer_phone, customer_email, registration, note, pickup_lat,
      pickup_lng, price_pence, job_token_hash, job_token_sealed, driver_token_hash, driver_salt, respond_by, status_changed_at, created_at, source, scheduled_for)
     values (@quoteId, @companyId, @status, @customerName, @customerPhone, @customerEmail, @registration, @note, @pickupLat, @pickupLng,
      @pricePence, @jobTokenHash, @jobTokenSealed, @driverTokenHash, @driverSalt, @respondBy, @createdAt, @createdAt, @source, @scheduledFor)
     on conflict (quote_id) do nothing`,
  ).run({ ...b, status: b.status ?? 'requested', customerEmail: b.customerEmail ?? null, source: b.source ?? null, scheduledFor: b.scheduledFor ?? null });
  return result.changes > 0 ? Number(result.lastInsertRowid) : undefined;
}

/** The booking's encrypted job token (null for a booking stored before it was kept), read only by the outbox as it sends. */
export function sealedJobToken(db: Db, id: number): string | null | undefined {
  const row = statement(db, 'sealedJobToken', 'select job_token_sealed as sealed from bookings where id = ?').get(id) as { sealed: string | null } | undefined;
  return row?.sealed;
}

/** Deletes a booking still awaiting payment (its checkout abandoned): it leaves no booking behind. */
export function deleteAwaitingBooking(db: Db, id: number): boolean {
  return statement(db, 'deleteAwaiting', "delete from bookings where id = ? and status = 'awaiting_payment'").run(id).changes > 0;
}

/** The fields a status change may set beside the status. */
export interface StatusPatch {
  etaMinutes?: number | null;
  etaAt?: string | null;
  etaFromPosition?: boolean;
  driverName?: string | null;
  declineReason?: string | null;
  acceptedAt?: string;
  finishedAt?: string;
  /** Payment received: the operator's response time runs from now. */
  respondBy?: string;
  /** A later job accepted with its time window (minutes from its slot). */
  windowMinutes?: number;
  /** Completed: the driver's and the motorist's positions are deleted. */
  forgetPositions?: boolean;
  /** How the balance was paid, recorded with completion. */
  balanceMethod?: string;
  balancePaidAt?: string;
}

/**
 * Moves a booking from `from` to `to` (compare-and-set: false when another change came first) and
 * records it in the quote's lead history with the lead status it leaves the quote in.
 */
export function moveBooking(
  db: Db,
  id: number,
  from: BookingStatus,
  to: BookingStatus,
  at: string,
  patch: StatusPatch,
  lead: { quoteId: number; status: LeadStatus; note: string | null },
): boolean {
  const sets = ['status = @to', 'status_changed_at = @at'];
  const params: Record<string, unknown> = { id, from, to, at };
  const columns: [keyof StatusPatch, string][] = [
    ['etaMinutes', 'eta_minutes'],
    ['etaAt', 'eta_at'],
    ['driverName', 'driver_name'],
    ['declineReason', 'decline_reason'],
    ['acceptedAt', 'accepted_at'],
    ['finishedAt', 'finished_at'],
    ['respondBy', 'respond_by'],
    ['balanceMethod', 'balance_method'],
    ['balancePaidAt', 'balance_paid_at'],
    ['windowMinutes', 'window_minutes'],
  ];
  for (const [field, column] of columns) {
    if (patch[field] === undefined) continue;
    sets.push(`${column} = @${field}`);
    params[field] = patch[field];
  }
  if (patch.etaFromPosition !== undefined) {
    sets.push('eta_from_position = @etaFromPosition');
    params.etaFromPosition = patch.etaFromPosition ? 1 : 0;
  }
  if (patch.forgetPositions) sets.push('driver_lat = null, driver_lng = null, driver_position_at = null, pickup_lat = null, pickup_lng = null');
  const sql = `update bookings set ${sets.join(', ')} where id = @id and status = @from`;
  const changed = statement(db, `move:${sets.join(',')}`, sql).run(params).changes > 0;
  if (changed) addLeadEvent(db, lead.quoteId, lead.status, to, lead.note, at);
  return changed;
}

/** The booking's line in the quote's history; the quote takes `status` as its lead status. */
export function addLeadEvent(db: Db, quoteId: number, status: LeadStatus, bookingStatus: BookingStatus, note: string | null, at: string): void {
  statement(db, 'leadStatus', 'update quotes set status = ?, status_changed_at = ? where id = ? and status != ?').run(status, at, quoteId, status);
  statement(db, 'leadEvent', 'insert into lead_events (quote_id, status, booking_status, note, created_at) values (?, ?, ?, ?, ?)').run(
    quoteId,
    status,
    bookingStatus,
    note,
    at,
  );
}

/** The booking statuses of a quote's history, oldest first. */
export function bookingHistory(db: Db, quoteId: number): { status: BookingStatus; at: string }[] {
  return statement(
    db,
    'history',
    'select booking_status as status, created_at as at from lead_events where quote_id = ? and booking_status is not null order by id',
  ).all(quoteId) as { status: BookingStatus; at: string }[];
}

/** The driver's position and the ETA recomputed from it, while on the way. */
export function setDriverPosition(db: Db, id: number, lat: number, lng: number, at: string, eta: { minutes: number; at: string } | null): boolean {
  return (
    statement(
      db,
      'position',
      `update bookings set driver_lat = ?, driver_lng = ?, driver_position_at = ?,
        eta_minutes = coalesce(?, eta_minutes), eta_at = coalesce(?, eta_at), eta_from_position = case when ? is null then eta_from_position else 1 end
       where id = ? and status = 'on_the_way'`,
    ).run(lat, lng, at, eta?.minutes ?? null, eta?.at ?? null, eta?.minutes ?? null, id).changes > 0
  );
}

/** What the numbers card counts: the company's bookings created since `since`. */
export function bookingsSince(db: Db, companyId: number, since: string): { status: BookingStatus; createdAt: string; acceptedAt: string | null }[] {
  return statement(
    db,
    'since',
    "select status, created_at as createdAt, accepted_at as acceptedAt from bookings where company_id = ? and created_at >= ? and status != 'awaiting_payment'",
  ).all(companyId, since) as { status: BookingStatus; createdAt: string; acceptedAt: string | null }[];
}

/** The bookings of these quotes, for the CSV's columns. */
export function bookingsOfQuotes(db: Db, quoteIds: readonly number[]): BookingRow[] {
  if (quoteIds.length === 0) return [];
  return statement(
    db,
    'ofQuotes',
    `select ${BOOKING_COLUMNS} from bookings b where b.quote_id in (select value from json_each(?)) and b.status != 'awaiting_payment'`,
  ).all(JSON.stringify(quoteIds)) as BookingRow[];
}

/** Records how a completed job's balance was paid, unless one paid is recorded already; answers whether it wrote. */
export function recordBalance(db: Db, id: number, method: string, at: string): boolean {
  return (
    statement(
      db,
      'recordBalance',
      `update bookings set balance_method = ?, balance_paid_at = ? where id = ? and status = 'completed' and (balance_method is null or balance_method = 'on_account')`,
    ).run(method, at, id).changes === 1
  );
}

/**
 * Completed jobs due their review request: finished between `from` and `to`, not asked yet, their
 * company asking by text (to a job with a mobile) or by email (to a job whose motorist gave an
 * address), and neither their number nor their address opted out of that company's requests.
 */
export function dueReviewRequests(db: Db, from: string, to: string, limit: number): { id: number; mode: 'sms' | 'email' }[] {
  return statement(
    db,
    'dueReviews',
    `select b.id, c.review_mode as mode from bookings b join companies c on c.id = b.company_id
     where b.status = 'completed' and b.review_requested_at is null and b.finished_at > ? and b.finished_at <= ? and c.review_url is not null
       and ((c.review_mode = 'sms' and b.customer_phone != '') or (c.review_mode = 'email' and b.customer_email is not null))
       and not exists (select 1 from review_opt_outs o where o.company_id = b.company_id and o.phone = b.customer_phone)
       and not exists (select 1 from review_email_opt_outs e where e.company_id = b.company_id and e.email = b.customer_email)
     order by b.finished_at limit ?`,
  ).all(from, to, limit) as { id: number; mode: 'sms' | 'email' }[];
}

/** Marks a job's review request written; false when it was already (never twice). */
export function markReviewRequested(db: Db, id: number, at: string): boolean {
  return statement(db, 'markReview', 'update bookings set review_requested_at = ? where id = ? and review_requested_at is null').run(at, id).changes === 1;
}

/** The motorist asks the company for no more review requests: to their number, and to their email address when they gave one. */
export function addReviewOptOut(db: Db, companyId: number, contact: { phone: string; email: string | null }, at: string): void {
  if (contact.phone !== '')
    statement(db, 'reviewOptOut', 'insert or ignore into review_opt_outs (company_id, phone, created_at) values (?, ?, ?)').run(companyId, contact.phone, at);
  if (contact.email !== null)
    statement(db, 'reviewEmailOptOut', 'insert or ignore into review_email_opt_outs (company_id, email, created_at) values (?, ?, ?)').run(
      companyId,
      contact.email,
      at,
    );
}

// The quote a booking names, with what booking it needs of its company: found by its reference
// through the unique index on public_id (docs/decisions/038-quote-references-measured-alternatives.md).
export interface QuoteToBook {
  id: number;
  publicId: string;
  companyId: number;
  pickupPostcode: string;
  destinationPostcode: string;
  vehicleType: string;
  problemType: string;
  /** The quote's gearbox and rolling status as the form stored them (null when not asked), its passengers and miles: the operator's booking email carries them. */
  gearboxType: string | null;
  rollingStatus: string | null;
  passengerCount: number;
  distance: number;
  totalPricePence: number;
  validUntil: string | null;
  createdAt: string;
  leadStatus: LeadStatus;
  companyName: string;
  companyPhone: string | null;
  offerBooking: number;
  /** JSON array of the origins the company's form is on (decision 033). */
  bookingOrigins: string;
  responseMinutes: number;
  smsNumber: string | null;
  /** 1 when the company texts Republic of Ireland mobiles too (api/mail/textable.ts). */
  textIrishMobiles: number;
  /** JSON `[{ label, amountPence }]` as frozen with the quote, or null for quotes from before lines were kept. */
  lines: string | null;
  urgency: string;
  preferredDate: string | null;
  preferredTime: string | null;
  /** Jobs for later (api/dispatch/later.ts): how many days ahead, and how many jobs an hour. */
  laterDaysAhead: number;
  laterJobsPerHour: number;
  /** 1 when the quote was priced for a trade account (its rate card): booked only on the account. */
  onAccount: number;
}

/** The quote of this reference (as typed: any case, with or without TQ-), or undefined; a malformed one has none. */
export function quoteForBooking(db: Db, typed: string): QuoteToBook | undefined {
  const reference = readReference(typed);
  if (reference === null) return undefined;
  return prepared(db, 'bookings:quote', () =>
    db.$client.prepare(
      `select q.id, q.public_id as publicId, q.company_id as companyId, q.pickup_postcode as pickupPostcode,
        q.destination_postcode as destinationPostcode, q.vehicle_type as vehicleType, q.problem_type as problemType,
        q.gearbox_type as gearboxType, q.rolling_status as rollingStatus, q.passenger_count as passengerCount, q.distance,
        q.total_price_pence as totalPricePence, q.valid_until as validUntil, q.created_at as createdAt, q.status as leadStatus,
        c.name as companyName, c.phone as companyPhone, c.offer_booking as offerBooking, c.booking_origins as bookingOrigins,
        c.booking_response_minutes as responseMinutes, case when c.booking_sms_verified_at is not null then c.booking_sms_number end as smsNumber, c.text_irish_mobiles as textIrishMobiles,
        q.lines, q.urgency, q.preferred_date as preferredDate, q.preferred_time as preferredTime,
        c.later_days_ahead as laterDaysAhead, c.later_jobs_per_hour as laterJobsPerHour,
        exists(select 1 from account_quotes aq where aq.quote_id = q.id) as onAccount
       from quotes q join companies c on c.id = q.company_id where q.public_id = ?`,
    ),
  ).get(reference) as QuoteToBook | undefined;
}

/** The company of the quote this reference names, or undefined: what the per-company booking limit counts by (api/rate-limits.ts). */
export function companyOfQuote(db: Db, typed: string): number | undefined {
  const reference = readReference(typed);
  if (reference === null) return undefined;
  const row = prepared(db, 'bookings:quoteCompany', () => db.$client.prepare('select company_id as companyId from quotes where public_id = ?')).get(
    reference,
  ) as { companyId: number } | undefined;
  return row?.companyId;
}

/** The driver token's hash, once the row id it is made from is known (in the booking's own transaction). */
export function setDriverTokenHash(db: Db, id: number, hash: string): void {
  prepared(db, 'bookings:driverTokenHash', () => db.$client.prepare('update bookings set driver_token_hash = ? where id = ?')).run(hash, id);
}
