// Bookings' rules (docs/product.md, "Bookings"): a quote booked at its frozen price, the
// operator's answer, the driver's steps, the motorist's cancel, expiry, and the alerts and
// service messages each change writes to the outbox in the same transaction. Every change moves
// the status compare-and-set (a change out of order is 409), adds its line to the quote's lead
// history, and is pushed to the job's open status pages.
import {
  BOOKING_ORIGIN_REFUSED,
  BOOKING_OUT_OF_ORDER,
  canMove,
  isFinished,
  JOB_NOT_FOUND,
  JOB_PAGE_CLOSED,
  JOB_PAGE_CLOSES_AFTER_MS,
  QUOTE_EXPIRED_FOR_BOOKING,
  REVIEW_AFTER_MS,
  type BookingActor,
  type BookingStatus,
  type DriverStep,
} from '#shared/bookings';
import type { BookingAccept, BookingDecline } from '#shared/booking-schemas';
import { penceToPounds, poundsToPence } from '#shared/money';
import type { Role } from '#shared/roles';
import type { PaymentRefund } from '#shared/payment-schemas';
import { balancePaidBy, jobPageDone, NOT_REFUNDABLE, type BalanceMethod, type PaymentDue } from '#shared/payments';
import type { Booking, BookingCreated, BookingList, BookingSettings, DriverView, JobView } from '#shared/booking-responses';
import type { phoneBookingSchema } from '#shared/phone-jobs';
import { readReference, type LeadStatus } from '#shared/leads';
import type { z } from 'zod';
import type { bookingRequestSchema, bookingSettingsUpdateSchema } from '#shared/booking-schemas';
import { findCompanyById, updateCompany, type CompanyPatch, type CompanyRow } from '../company/store';
import { lookupPostcode } from '../engine/distance/postcodes';
import { insertOutboxRows, type NewOutboxRow } from '../mail/store';
import { isTextable } from '../mail/textable';
import { write } from '../platform/db/write';
import type { AppDeps } from '../platform/deps';
import type { JobChangeKind } from '../platform/events';
import { Conflict, Forbidden, Gone, NotFound, ValidationFailed } from '../platform/errors';
import { etaFromPosition, inJobArea } from './eta';
import type { LiveHub } from './live';
import { bookingAlerts, leadStatusAfter, textsOff } from './alerts';
import { motoristMessages, type BookingFacts } from './messages';
import { smsVerification } from './sms-verification';
import {
  bookingByDriverToken,
  bookingById,
  bookingByJobToken,
  bookingByQuote,
  bookingByReference,
  bookingHistory,
  companyBookings,
  insertBooking,
  moveBooking,
  overdueBookings,
  recordBalance,
  dueReviewRequests,
  markReviewRequested,
  addReviewOptOut,
  quoteForBooking,
  setDriverTokenHash,
  setDriverPosition,
  addLeadEvent,
  type BookingWithQuote,
  type QuoteToBook,
  type StatusPatch,
} from './store';
import { bookingTokens, hashToken, jobTokenBox, newSalt, TOKEN_PATTERN } from './tokens';
import { JOB_LINK_PLACEHOLDER, jobUrl } from './job-link';
import { balanceBeforePence, toBooking, toDriverView, toJobView } from './views';
import { checkLaterSlot, laterSlot } from '../dispatch/later';
import { markReminded, remindersDue } from '../dispatch/store';
import type { PaymentService } from '../payments/service';
import { insertPayment } from '../payments/store';
import { ACTOR_LABELS, type Actor, type AuditEvent, recordAudit, SYSTEM } from '../team/audit';
import { assertWithinRefundLimit } from '../team/refund-limit';

export const QUOTE_NOT_FOUND = 'Quote not found';
export const ALREADY_BOOKED = 'This quote is already booked.';
export const BOOKING_NOT_OFFERED = 'This company does not take bookings online. Please call them.';
export const BOOKING_RATE_LIMITED = 'Too many bookings from here. Please call the company instead.';
export const COMPANY_BOOKINGS_RATE_LIMITED = 'This company has had too many bookings online in the last hour. Please call them instead.';
/** A mobile number the company's texts may not go to (api/mail/textable.ts), under `fields.phone`. */
export const PHONE_NOT_TEXTABLE = 'We can only text UK mobile numbers. Please enter a UK mobile number, such as 07700 900123.';
export const PHONE_NOT_TEXTABLE_UK_IE = 'We can only text UK and Irish mobile numbers. Please enter a UK or Irish mobile number.';
export const JOB_RATE_LIMITED = 'Too many requests. Please wait a minute and try again.';
export const POSITION_NOT_NOW = 'Your position is shared only while you are on the way.';
export const BALANCE_NOT_NOW = 'The balance is recorded once the job is completed.';
export const NOTHING_DUE = 'Nothing is left to pay on this job.';
export const BALANCE_ALREADY_RECORDED = 'The balance of this job is recorded as paid already.';
export { NO_SMS_PROVIDER } from './alerts';
/** A job on account was made by the operator: it waits a day for its acceptance, not the motorist's few minutes. */
export const ACCOUNT_JOB_RESPOND_MS = 24 * 3_600_000;

export const NOT_A_LATER_JOB = 'This job is for now: accept it with an ETA.';
/** A later job's motorist is reminded this long before its slot. */
export const LATER_REMINDER_MS = 60 * 60_000;

export type BookingRequestBody = z.output<typeof bookingRequestSchema>;
export type BookingSettingsBody = z.output<typeof bookingSettingsUpdateSchema>;
export type PhoneBookingBody = z.output<typeof phoneBookingSchema>;

export interface BookingServiceDeps extends Pick<AppDeps, 'db' | 'config' | 'now' | 'events'> {
  live: LiveHub;
  /** Payment at booking (docs/product.md §21); without it every booking is requested at once. */
  payments?: PaymentService;
}

const finishedAtOf = (status: BookingStatus) => isFinished(status);
const driverUrl = (publicUrl: string, token: string) => `${publicUrl}/driver/${token}`;

/** Where a booking was posted from: the browser's Origin header (none from a program), and the origin the request reached us at. */
export interface BookingOrigin {
  origin?: string;
  ownOrigin?: string;
}

function parseOrigins(stored: string): string[] {
  try {
    const list: unknown = JSON.parse(stored);
    return Array.isArray(list) ? list.filter((entry): entry is string => typeof entry === 'string') : [];
  } catch {
    return [];
  }
}

export function bookingService(deps: BookingServiceDeps) {
  const { db, config, live, payments } = deps;
  const tokens = bookingTokens(config.sessionSecret);
  const box = jobTokenBox(config.sessionSecret);
  const smsReady = config.sms !== undefined;
  const smsCodes = smsVerification(deps);
  const alerts = bookingAlerts(deps);

  const notFound = () => new NotFound(JOB_NOT_FOUND);
  const publicOrigin = new URL(config.publicUrl).origin;
  /**
   * A browser may book from our own pages (the hosted company page, the status pages) and from the
   * websites the company listed; any other origin, `null` included, is refused (decision 033).
   */
  const mayBookFrom = (origin: string, stored: string, ownOrigin?: string) =>
    origin === publicOrigin || origin === ownOrigin || parseOrigins(stored).includes(origin);
  const toSettings = (company: CompanyRow): BookingSettings => ({
    responseMinutes: company.bookingResponseMinutes,
    smsNumber: company.bookingSmsNumber,
    smsNumberConfirmed: company.bookingSmsNumber !== null && company.bookingSmsVerifiedAt !== null,
    offerBooking: company.offerBooking,
    offerWhatsapp: company.offerWhatsapp,
    offerCall: company.offerCall,
    textIrishMobiles: company.textIrishMobiles,
    bookingOrigins: parseOrigins(company.bookingOrigins),
    smsConfigured: smsReady,
    motoristTextsOff: textsOff(company.motoristTextsOff),
    reviewMode: company.reviewMode === 'sms' ? 'sms' : 'off',
    reviewUrl: company.reviewUrl,
  });

  function historyOf(b: BookingWithQuote) {
    return bookingHistory(db, b.quoteId);
  }
  const jobView = (b: BookingWithQuote): JobView => toJobView(b, historyOf(b), config.map);
  /** The operator's view: the driver's page while the job is accepted and under way. */
  const operatorView = (b: BookingWithQuote) =>
    toBooking(b, historyOf(b), isFinished(b.status) || b.status === 'requested' ? null : driverUrl(config.publicUrl, tokens.driverToken(b.id, b.driverSalt)));

  /**
   * Pushes the job's new state to its open pages, the motorist's and the driver's; a finished
   * job's motorist streams end after it once nothing more will change, so not while its money is
   * still to follow or its balance to be recorded (the refund of a declined job shows on the open
   * page, docs/product.md §21); the driver's end with the job.
   */
  function publish(id: number) {
    const motorist = live.watched(id);
    const driver = live.watched(id, 'driver');
    if (!motorist && !driver) return;
    const b = bookingById(db, id);
    if (!b) return;
    if (motorist) {
      const view = jobView(b);
      live.publish(id, 'job', JSON.stringify(view));
      if (jobPageDone(view)) live.closeJob(id);
    }
    // The driver's open page hears of a cancellation as the motorist's does (docs/product.md §20).
    if (driver) {
      live.publish(id, 'job', JSON.stringify(toDriverView(b)), 'driver');
      if (isFinished(b.status)) live.closeJob(id, 'driver');
    }
  }
  // Whatever changed a job (a move, a position, a refund, a payment settled or followed late, a
  // balance recorded), its open pages see it, after the money and the documents followed.
  deps.events.on('job.changed', (change) => publish(change.bookingId));

  /** Tells the app a job changed (api/platform/events.ts): the money, the documents, the live pages and the outbox follow. */
  const changed = (b: { id: number; companyId: number }, kind: JobChangeKind, messages = false) =>
    deps.events.emit('job.changed', { companyId: b.companyId, bookingId: b.id, kind, messages });

  /** A token from a path: one of ours by shape, else the same 404 as an unknown one. */
  function byToken(token: string, find: (hash: string) => BookingWithQuote | undefined): BookingWithQuote {
    if (!TOKEN_PATTERN.test(token)) throw notFound();
    const b = find(hashToken(token));
    if (!b) throw notFound();
    if (b.finishedAt && deps.now().getTime() - Date.parse(b.finishedAt) > JOB_PAGE_CLOSES_AFTER_MS) throw new Gone(JOB_PAGE_CLOSED, 'JOB_CLOSED');
    return b;
  }

  /** The operator's booking by its quote's reference, of their company only. */
  function ownBooking(companyId: number, typed: string): BookingWithQuote {
    const reference = readReference(typed);
    const b = reference === null ? undefined : bookingByReference(db, reference);
    if (!b || b.companyId !== companyId) throw new NotFound('Booking not found');
    return b;
  }

  /**
   * Moves `b` to `to` if `actor` may, with the status's side effects: the history line, the
   * motorist's service text and the push to open pages. 409 when out of order or overtaken.
   */
  async function move(
    b: BookingWithQuote,
    to: BookingStatus,
    actor: BookingActor,
    patch: StatusPatch = {},
    note: string | null = null,
    texts: NewOutboxRow[] = [],
    /** Who moved it, for the audit log (docs/product.md, "The team"): the signed-in person, else the driver's link, the motorist or the system. */
    who: Actor = { ...SYSTEM, label: ACTOR_LABELS[actor] },
    /** The audit log's line when not a plain status change (an accept with its ETA, a decline with its reason). */
    event?: Omit<AuditEvent, 'companyId' | 'subject'>,
  ) {
    if (!canMove(b.status, to, actor)) throw new Conflict(BOOKING_OUT_OF_ORDER, 'BOOKING_OUT_OF_ORDER');
    const now = deps.now();
    const at = now.toISOString();
    const full: StatusPatch = { ...patch, ...(finishedAtOf(to) ? { finishedAt: at } : {}), ...(to === 'completed' ? { forgetPositions: true } : {}) };
    const moved = await write(db, () => {
      const ok = moveBooking(db, b.id, b.status, to, at, full, { quoteId: b.quoteId, status: leadStatusAfter(to, b.leadStatus), note });
      if (ok && texts.length > 0) insertOutboxRows(db, texts);
      if (ok) {
        recordAudit(
          db,
          who,
          { companyId: b.companyId, subject: b.reference, ...(event ?? { kind: 'booking-status', before: { status: b.status }, after: { status: to } }) },
          now,
        );
      }
      return ok;
    });
    if (!moved) throw new Conflict(BOOKING_OUT_OF_ORDER, 'BOOKING_OUT_OF_ORDER');
    // The money follows (a refund or a released hold when the job will not happen, a hold taken
    // when it is done), then a completed job's receipt, the open pages and the texts.
    await changed(b, to, texts.length > 0);
    const after = bookingById(db, b.id);
    if (!after) throw notFound();
    return after;
  }

  /**
   * Records how a completed job's balance was paid: 409 before completion, when nothing is left
   * to pay, or when it is recorded as paid already (the same method again answers the job as it
   * is). A balance on account may later be recorded as paid. The updated receipt follows (the
   * `balance` change, heard by the documents), then the open pages.
   */
  async function recordBalanceOf(b: BookingWithQuote, method: BalanceMethod, who: Actor): Promise<BookingWithQuote> {
    if (b.status !== 'completed') throw new Conflict(BALANCE_NOT_NOW, 'BOOKING_OUT_OF_ORDER');
    if (balanceBeforePence(b) === 0) throw new Conflict(NOTHING_DUE, 'NOTHING_DUE');
    if (b.balanceMethod === method) return b;
    if (balancePaidBy(b.balanceMethod)) throw new Conflict(BALANCE_ALREADY_RECORDED, 'BALANCE_RECORDED');
    const now = deps.now();
    const written = await write(db, () => {
      if (!recordBalance(db, b.id, method, now.toISOString())) return false;
      // Who recorded it, in the same write (docs/product.md, "The team").
      const event = { kind: 'balance-recorded', subject: b.reference, before: { balance: b.balanceMethod }, after: { balance: method } } as const;
      recordAudit(db, who, { companyId: b.companyId, ...event }, now);
      return true;
    });
    if (!written) throw new Conflict(BALANCE_ALREADY_RECORDED, 'BALANCE_RECORDED');
    await changed(b, 'balance');
    const after = bookingById(db, b.id);
    if (!after) throw notFound();
    return after;
  }

  /** The facts a booking's alerts and texts are made of. */
  const factsOf = (quote: QuoteToBook, body: BookingRequestBody): Omit<BookingFacts, 'respondBy'> => ({
    reference: quote.publicId,
    companyName: quote.companyName,
    companyPhone: quote.companyPhone,
    customerName: body.name,
    customerPhone: body.phone,
    registration: body.registration,
    note: body.note || null,
    position: body.position ?? null,
    pickupPostcode: quote.pickupPostcode,
    destinationPostcode: quote.destinationPostcode,
    vehicleType: quote.vehicleType,
    problemType: quote.problemType,
    pricePence: quote.totalPricePence,
  });

  /** A booking requested at once (nothing to pay): its history line and alerts. */
  function requested(
    ref: { id: number; companyId: number; quoteId: number; leadStatus: LeadStatus },
    facts: BookingFacts,
    smsNumber: string | null,
    at: string,
  ) {
    addLeadEvent(db, ref.quoteId, leadStatusAfter('requested', ref.leadStatus), 'requested', null, at);
    alerts.requested(ref, facts, smsNumber, at);
  }

  const { motoristText, senderOf } = alerts;

  /** A driver's token from a path: its job, else 404 (410 once its page closed). */
  const driverBooking = (token: string) => byToken(token, (hash) => bookingByDriverToken(db, hash));

  return {
    /** Confirming the booking text number by a texted code (api/bookings/sms-verification.ts). */
    smsCodes,

    /**
     * Books a quote; a repeat from the same form answers the booking it made. When the operator
     * takes payment at booking, the booking awaits payment (no alert yet) and the answer carries
     * the checkout to pay at: it becomes requested once paid (docs/product.md §21).
     */
    async book(body: BookingRequestBody, from: BookingOrigin = {}): Promise<{ created: boolean; result: BookingCreated }> {
      // The client's and the company's rate limits were met before this runs (the contract's
      // `x-rate-limit`, api/rate-limits.ts): a refused booking reads, supersedes and stores nothing.
      const quote = quoteForBooking(db, body.quoteId);
      if (!quote) throw new NotFound(QUOTE_NOT_FOUND);
      // Then, whatever the booking's state: a foreign page learns nothing more.
      if (from.origin !== undefined && !mayBookFrom(from.origin, quote.bookingOrigins, from.ownOrigin)) {
        throw new Forbidden(BOOKING_ORIGIN_REFUSED, 'BOOKING_ORIGIN_REFUSED');
      }
      // Texts cost money: only a number this company's texts may go to (docs/decisions/030-text-budgets.md).
      const irishMobiles = quote.textIrishMobiles === 1;
      if (!isTextable(body.phone, { irishMobiles })) {
        const message = irishMobiles ? PHONE_NOT_TEXTABLE_UK_IE : PHONE_NOT_TEXTABLE;
        throw new ValidationFailed(message, { phone: message }, 'PHONE_NOT_TEXTABLE');
      }
      const token = tokens.jobToken(quote.id, body.bookingKey);
      const hash = hashToken(token);
      const answer = (b: BookingWithQuote) => ({
        job: jobView(b),
        jobToken: token,
        jobUrl: jobUrl(config.publicUrl, token),
        checkoutUrl: b.status === 'awaiting_payment' ? b.paymentCheckoutUrl : null,
      });

      const existing = bookingByQuote(db, quote.id);
      if (existing) {
        if (existing.status !== 'awaiting_payment') {
          if (existing.jobTokenHash === hash) return { created: false, result: answer(existing) };
          throw new Conflict(ALREADY_BOOKED, 'ALREADY_BOOKED');
        }
        // Awaiting payment: the same form is answered with its checkout while that is open; a
        // lapsed checkout, or another form's booking, closes it first (paid meanwhile: booked).
        if (existing.jobTokenHash === hash && !payments?.lapsed(existing.id)) return { created: false, result: answer(existing) };
        if (payments && (await payments.supersede(existing.id)) === 'settled') {
          const settled = bookingById(db, existing.id);
          if (settled && settled.jobTokenHash === hash) return { created: false, result: answer(settled) };
          throw new Conflict(ALREADY_BOOKED, 'ALREADY_BOOKED');
        }
      }
      if (!quote.offerBooking) throw new Conflict(BOOKING_NOT_OFFERED, 'BOOKING_NOT_OFFERED');
      const now = deps.now();
      const validUntil = quote.validUntil ? Date.parse(quote.validUntil) : Date.parse(quote.createdAt) + 24 * 3_600_000;
      if (now.getTime() > validUntil) throw new Conflict(QUOTE_EXPIRED_FOR_BOOKING, 'QUOTE_EXPIRED');
      // A quote for later books its slot, if the company has room then (api/dispatch/later.ts).
      const slot = quote.urgency === 'later' ? laterSlot(quote.preferredDate, quote.preferredTime) : null;
      const laterCompany = { id: quote.companyId, daysAhead: quote.laterDaysAhead, jobsPerHour: quote.laterJobsPerHour };
      if (slot) checkLaterSlot(db, laterCompany, slot, now);

      // Payment at booking: the checkout is opened on the operator's account before anything is
      // stored, so a provider that is down (503) leaves nothing behind and the form can retry.
      const due = payments?.planFor(quote);
      const checkout = due && payments ? await payments.openCheckout({ ...due, quote, jobUrl: jobUrl(config.publicUrl, token) }) : undefined;

      const at = now.toISOString();
      const respondBy = new Date(now.getTime() + quote.responseMinutes * 60_000).toISOString();
      const salt = newSalt();
      const id = await write(db, () => {
        // Checked again in the transaction: another booking may have taken the hour meanwhile.
        const scheduledFor = slot ? checkLaterSlot(db, laterCompany, slot, now) : null;
        // The driver token's hash needs the row id: a placeholder first, replaced in the same transaction.
        const inserted = insertBooking(db, {
          scheduledFor,
          quoteId: quote.id,
          companyId: quote.companyId,
          status: checkout ? 'awaiting_payment' : 'requested',
          customerName: body.name,
          customerPhone: body.phone,
          registration: body.registration,
          note: body.note || null,
          pickupLat: body.position?.lat ?? null,
          pickupLng: body.position?.lng ?? null,
          pricePence: quote.totalPricePence,
          jobTokenHash: hash,
          jobTokenSealed: box.seal(token),
          driverTokenHash: `pending:${hash}`,
          driverSalt: salt,
          respondBy,
          createdAt: at,
          // From a browser on our own pages (the hosted company page, a quote link), else the company's website.
          source: from.origin !== undefined && (from.origin === publicOrigin || from.origin === from.ownOrigin) ? 'hosted' : 'website',
        });
        if (inserted === undefined) return undefined;
        setDriverTokenHash(db, inserted, hashToken(tokens.driverToken(inserted, salt)));
        if (checkout && due) {
          insertPayment(db, {
            bookingId: inserted,
            companyId: quote.companyId,
            provider: payments?.mode ?? 'local',
            accountId: due.accountId,
            kind: due.plan.kind,
            amountPence: due.plan.amountPence,
            lines: JSON.stringify(due.plan.lines),
            checkoutSessionId: checkout.id,
            checkoutUrl: checkout.url,
            checkoutExpiresAt: checkout.expiresAt,
            returnSeal: checkout.returnSeal,
            createdAt: at,
            updatedAt: at,
          });
          return inserted;
        }
        requested(
          { id: inserted, companyId: quote.companyId, quoteId: quote.id, leadStatus: quote.leadStatus },
          { ...factsOf(quote, body), respondBy },
          quote.smsNumber,
          at,
        );
        return inserted;
      });
      const b = bookingById(db, id ?? -1) ?? bookingByQuote(db, quote.id);
      // Two first bookings of one quote at once: the other one won.
      if (id === undefined || !b) {
        if (checkout && due && payments) await payments.discardCheckout(due.accountId, checkout.id);
        if (b && b.jobTokenHash === hash) return { created: false, result: answer(b) };
        if (!b) throw new NotFound(QUOTE_NOT_FOUND);
        throw new Conflict(ALREADY_BOOKED, 'ALREADY_BOOKED');
      }
      await changed(b, b.status, !checkout);
      return { created: true, result: answer(b) };
    },

    /** What a booking of this quote would pay now and leave for later: the booking form says it before sending. */
    due(quoteId: string): PaymentDue {
      const quote = quoteForBooking(db, quoteId);
      if (!quote) throw new NotFound(QUOTE_NOT_FOUND);
      const total = quote.totalPricePence;
      const due = payments?.planFor(quote);
      if (!due) return { kind: 'none', now: 0, later: penceToPounds(total), percent: null };
      const { kind, amountPence } = due.plan;
      const percent = kind === 'deposit' ? (payments?.settings(quote.companyId).depositPercent ?? null) : null;
      return { kind, now: penceToPounds(amountPence), later: penceToPounds(kind === 'hold' ? 0 : total - amountPence), percent };
    },

    /**
     * The operator books a caller's quote for them on the phone (docs/product.md §25): the job is
     * accepted at once with its ETA, nothing is paid at booking, and the caller is texted the
     * status page's link (put in by the outbox as it sends, decision 034). Only the company's own
     * quote (404 otherwise), at its stored price, before it expires, and once.
     */
    async bookForCaller(companyId: number, reference: string, body: PhoneBookingBody): Promise<Booking> {
      const quote = quoteForBooking(db, reference);
      if (!quote || quote.companyId !== companyId) throw new NotFound(QUOTE_NOT_FOUND);
      const irishMobiles = quote.textIrishMobiles === 1;
      if (!isTextable(body.phone, { irishMobiles })) {
        const message = irishMobiles ? PHONE_NOT_TEXTABLE_UK_IE : PHONE_NOT_TEXTABLE;
        throw new ValidationFailed(message, { phone: message }, 'PHONE_NOT_TEXTABLE');
      }
      if (bookingByQuote(db, quote.id)) throw new Conflict(ALREADY_BOOKED, 'ALREADY_BOOKED');
      const now = deps.now();
      const validUntil = quote.validUntil ? Date.parse(quote.validUntil) : Date.parse(quote.createdAt) + 24 * 3_600_000;
      if (now.getTime() > validUntil) throw new Conflict(QUOTE_EXPIRED_FOR_BOOKING, 'QUOTE_EXPIRED');
      const at = now.toISOString();
      // The job token's input is a random key nobody keeps: the token lives on only sealed with the booking.
      const token = tokens.jobToken(quote.id, newSalt());
      const hash = hashToken(token);
      const salt = newSalt();
      const eta = { minutes: body.etaMinutes, at: new Date(now.getTime() + body.etaMinutes * 60_000).toISOString() };
      const driverName = body.driverName || null;
      const id = await write(db, () => {
        const inserted = insertBooking(db, {
          quoteId: quote.id,
          companyId,
          customerName: body.name,
          customerPhone: body.phone,
          registration: body.registration,
          note: body.note || null,
          pickupLat: null,
          pickupLng: null,
          pricePence: quote.totalPricePence,
          jobTokenHash: hash,
          jobTokenSealed: box.seal(token),
          driverTokenHash: `pending:${hash}`,
          driverSalt: salt,
          respondBy: at,
          createdAt: at,
          source: 'phone',
        });
        if (inserted === undefined) return undefined;
        setDriverTokenHash(db, inserted, hashToken(tokens.driverToken(inserted, salt)));
        addLeadEvent(db, quote.id, 'contacted', 'requested', null, at);
        moveBooking(
          db,
          inserted,
          'requested',
          'accepted',
          at,
          { etaMinutes: eta.minutes, etaAt: eta.at, etaFromPosition: false, driverName, acceptedAt: at },
          { quoteId: quote.id, status: 'won', note: `Booked by phone. ETA ${eta.minutes} min${driverName ? `, driver ${driverName}` : ''}` },
        );
        const sender = senderOf({ companyId, companyName: quote.companyName });
        insertOutboxRows(
          db,
          motoristText(
            { id: inserted, companyId, customerPhone: body.phone },
            'accepted',
            motoristMessages.bookedByPhone(sender, quote.publicId, eta, driverName, JOB_LINK_PLACEHOLDER),
          ),
        );
        return inserted;
      });
      if (id === undefined) throw new Conflict(ALREADY_BOOKED, 'ALREADY_BOOKED');
      const b = bookingById(db, id);
      if (!b) throw new NotFound(QUOTE_NOT_FOUND);
      await changed(b, 'accepted', true);
      return operatorView(b);
    },

    /**
     * A job on account (docs/product.md §26), booked by the operator: requested with no payment, a
     * day to accept it, the contact at the vehicle (if any) texted its status page as a motorist
     * is, and no alert to the operator who made it. `within` records the account's side in the
     * same transaction; it may throw to refuse the job (nothing is then stored).
     */
    async bookOnAccount(
      quote: QuoteToBook,
      contact: { name: string; phone?: string; registration: string; note?: string },
      within: (bookingId: number) => void,
    ): Promise<{ booking: BookingWithQuote; jobUrl: string }> {
      if (bookingByQuote(db, quote.id)) throw new Conflict(ALREADY_BOOKED, 'ALREADY_BOOKED');
      const now = deps.now();
      const validUntil = quote.validUntil ? Date.parse(quote.validUntil) : Date.parse(quote.createdAt) + 24 * 3_600_000;
      if (now.getTime() > validUntil) throw new Conflict(QUOTE_EXPIRED_FOR_BOOKING, 'QUOTE_EXPIRED');
      const token = tokens.jobToken(quote.id, newSalt());
      const hash = hashToken(token);
      const at = now.toISOString();
      const respondBy = new Date(now.getTime() + ACCOUNT_JOB_RESPOND_MS).toISOString();
      const salt = newSalt();
      const phone = contact.phone ?? '';
      const id = await write(db, () => {
        const inserted = insertBooking(db, {
          quoteId: quote.id,
          companyId: quote.companyId,
          status: 'requested',
          customerName: contact.name,
          customerPhone: phone,
          registration: contact.registration,
          note: contact.note || null,
          pickupLat: null,
          pickupLng: null,
          pricePence: quote.totalPricePence,
          jobTokenHash: hash,
          jobTokenSealed: box.seal(token),
          driverTokenHash: `pending:${hash}`,
          driverSalt: salt,
          respondBy,
          createdAt: at,
        });
        if (inserted === undefined) return undefined;
        setDriverTokenHash(db, inserted, hashToken(tokens.driverToken(inserted, salt)));
        within(inserted);
        addLeadEvent(db, quote.id, leadStatusAfter('requested', quote.leadStatus), 'requested', null, at);
        if (phone !== '') {
          alerts.accountJobReceived(
            { id: inserted, companyId: quote.companyId },
            { ...factsOf(quote, { ...contact, phone, quoteId: quote.publicId, bookingKey: '' }), respondBy },
            at,
          );
        }
        return inserted;
      });
      const b = id === undefined ? undefined : bookingById(db, id);
      if (!b) throw new Conflict(ALREADY_BOOKED, 'ALREADY_BOOKED');
      if (phone !== '') await deps.events.emit('messages.written', { companyId: quote.companyId });
      return { booking: b, jobUrl: jobUrl(config.publicUrl, token) };
    },

    /** The motorist's page. */
    job(token: string): { id: number; view: JobView } {
      const b = byToken(token, (hash) => bookingByJobToken(db, hash));
      return { id: b.id, view: jobView(b) };
    },

    /** The id of the operator's booking by its quote's reference (404 for another company's or an unknown one). */
    operatorBookingId(companyId: number, reference: string): number {
      return ownBooking(companyId, reference).id;
    },

    /** The motorist's page of a booking already found (after its payment was confirmed). */
    jobById(id: number): JobView | undefined {
      const b = bookingById(db, id);
      return b && jobView(b);
    },

    async cancel(token: string): Promise<JobView> {
      const b = byToken(token, (hash) => bookingByJobToken(db, hash));
      const messages = [...motoristText(b, 'cancelled', motoristMessages.cancelled(senderOf(b), b.reference, b.companyPhone)), ...alerts.cancelled(b)];
      return jobView(await move(b, 'cancelled', 'motorist', {}, null, messages));
    },

    /** The id of the booking behind a driver's token, with the driver's page's 404 and 410 (its rate limit is the route's). */
    driverBookingId(token: string): number {
      return byToken(token, (hash) => bookingByDriverToken(db, hash)).id;
    },

    driver(token: string): DriverView {
      return toDriverView(driverBooking(token));
    },

    /** The driver's page with its job's id, for its live stream. */
    driverJob(token: string): { id: number; view: DriverView } {
      const b = driverBooking(token);
      return { id: b.id, view: toDriverView(b) };
    },

    async driverStep(token: string, step: DriverStep, balanceMethod?: BalanceMethod): Promise<DriverView> {
      return this.driverStepOf(driverBooking(token), step, balanceMethod);
    },

    /** The driver's page of a job found another way (the signed-in driver's own job, api/dispatch/service.ts). */
    driverViewOf: (b: BookingWithQuote): DriverView => toDriverView(b),

    /** The driver's next step on a job already found: by its token, or as the signed-in driver it is assigned to. */
    async driverStepOf(b: BookingWithQuote, step: DriverStep, balanceMethod?: BalanceMethod): Promise<DriverView> {
      // How the balance was paid goes with completion, in the same write, so the receipt issued then says it; with nothing left to pay there is nothing to record.
      const balance = step === 'completed' && balanceMethod && balanceBeforePence(b) > 0 ? { balanceMethod, balancePaidAt: deps.now().toISOString() } : {};
      const texts =
        step === 'on_the_way'
          ? motoristText(b, 'on_the_way', motoristMessages.onTheWay(senderOf(b), b.reference))
          : step === 'arrived'
            ? motoristText(b, 'arrived', motoristMessages.arrived(senderOf(b), b.reference))
            : step === 'completed'
              ? motoristText(b, 'completed', motoristMessages.completed(senderOf(b), b.reference, JOB_LINK_PLACEHOLDER))
              : [];
      return toDriverView(await move(b, step, 'driver', balance, null, texts));
    },

    /** The driver records how the balance of a completed job was paid. */
    async driverBalance(token: string, method: BalanceMethod): Promise<DriverView> {
      return toDriverView(await recordBalanceOf(driverBooking(token), method, { ...SYSTEM, label: ACTOR_LABELS.driver }));
    },

    /** The operator records how the balance of a completed job was paid. */
    async operatorBalance(companyId: number, reference: string, method: BalanceMethod, who: Actor = SYSTEM) {
      return operatorView(await recordBalanceOf(ownBooking(companyId, reference), method, who));
    },

    /** The driver's position while on the way: the motorist's ETA is recomputed from it. */
    async driverPosition(token: string, position: { lat: number; lng: number }): Promise<DriverView> {
      return this.driverPositionOf(
        byToken(token, (hash) => bookingByDriverToken(db, hash)),
        position,
      );
    },

    async driverPositionOf(b: BookingWithQuote, position: { lat: number; lng: number }): Promise<DriverView> {
      if (b.status !== 'on_the_way') throw new Conflict(POSITION_NOT_NOW, 'BOOKING_OUT_OF_ORDER');
      const now = deps.now();
      const pickup =
        b.pickupLat !== null && b.pickupLng !== null ? { lat: b.pickupLat, lng: b.pickupLng } : lookupPostcode(b.pickupPostcode.replace(/\s+/g, ''));
      const destination = lookupPostcode(b.destinationPostcode.replace(/\s+/g, ''));
      // Stored whatever it is (the driver's page shows it), used for the ETA only in the job's area.
      const eta = pickup && inJobArea(position, [pickup, destination ?? undefined]) ? etaFromPosition(position, pickup, now) : null;
      const stored = await write(db, () => setDriverPosition(db, b.id, position.lat, position.lng, now.toISOString(), eta));
      if (!stored) throw new Conflict(POSITION_NOT_NOW, 'BOOKING_OUT_OF_ORDER');
      await changed(b, 'position');
      const after = bookingById(db, b.id);
      if (!after) throw notFound();
      return toDriverView(after);
    },

    list(companyId: number): BookingList {
      const since = new Date(deps.now().getTime() - JOB_PAGE_CLOSES_AFTER_MS).toISOString();
      const rows = companyBookings(db, companyId, since).map(operatorView);
      const requested = rows.filter((b) => b.status === 'requested').sort((a, b) => a.respondBy.localeCompare(b.respondBy));
      const active = rows.filter((b) => b.status !== 'requested' && !isFinished(b.status));
      return { open: [...requested, ...active], recent: rows.filter((b) => isFinished(b.status)) };
    },

    async accept(companyId: number, reference: string, body: BookingAccept, who?: Actor) {
      const b = ownBooking(companyId, reference);
      const now = deps.now();
      const eta = { minutes: body.etaMinutes, at: new Date(now.getTime() + body.etaMinutes * 60_000).toISOString() };
      const driverName = body.driverName || null;
      const after = await move(
        b,
        'accepted',
        'operator',
        { etaMinutes: eta.minutes, etaAt: eta.at, etaFromPosition: false, driverName, acceptedAt: now.toISOString() },
        `ETA ${eta.minutes} min${driverName ? `, driver ${driverName}` : ''}`,
        motoristText(b, 'accepted', motoristMessages.accepted(senderOf(b), b.reference, eta, driverName)),
        who,
        { kind: 'booking-accepted', before: { status: b.status }, after: { status: 'accepted', etaMinutes: eta.minutes, driverName } },
      );
      return operatorView(after);
    },

    /**
     * Accepts a job for later with its time window (docs/product.md §23): the driver is expected
     * from its slot to `windowMinutes` after; the motorist is texted the window, and reminded an
     * hour before (remindDue).
     */
    async acceptLater(companyId: number, reference: string, windowMinutes: number) {
      const b = ownBooking(companyId, reference);
      if (!b.scheduledFor) throw new Conflict(NOT_A_LATER_JOB, 'NOT_A_LATER_JOB');
      const now = deps.now();
      const after = await move(
        b,
        'accepted',
        'operator',
        { windowMinutes, acceptedAt: now.toISOString() },
        `For ${b.scheduledFor}, window ${windowMinutes} min`,
        motoristText(b, 'accepted', motoristMessages.acceptedLater(senderOf(b), b.reference, b.scheduledFor, windowMinutes)),
      );
      return operatorView(after);
    },

    /** Texts the reminder of every accepted later job whose slot is within the hour, once each, with its status link; answers how many. */
    async remindDue(): Promise<number> {
      const now = deps.now();
      let sent = 0;
      for (const { id } of remindersDue(db, now.toISOString(), new Date(now.getTime() + LATER_REMINDER_MS).toISOString(), 100)) {
        const b = bookingById(db, id);
        if (!b?.scheduledFor) continue;
        const texts = motoristText(
          b,
          'reminder',
          motoristMessages.reminder(senderOf(b), b.reference, b.scheduledFor, b.windowMinutes ?? 60, JOB_LINK_PLACEHOLDER),
        );
        const written = await write(db, () => {
          if (!markReminded(db, id, now.toISOString())) return false;
          insertOutboxRows(db, texts);
          return true;
        });
        if (!written) continue;
        sent += 1;
        // The outbox's lanes send it now rather than at their next tick.
        await deps.events.emit('messages.written', { companyId: b.companyId });
      }
      return sent;
    },

    async decline(companyId: number, reference: string, body: BookingDecline, who?: Actor) {
      const b = ownBooking(companyId, reference);
      const after = await move(
        b,
        'declined',
        'operator',
        { declineReason: body.reason },
        body.reason,
        motoristText(b, 'declined', motoristMessages.declined(senderOf(b), b.reference, b.companyPhone)),
        who,
        { kind: 'booking-declined', before: { status: b.status }, after: { status: 'declined', reason: body.reason } },
      );
      return operatorView(after);
    },

    /** The operator refunds part or all of the job's payment (docs/product.md §21); the motorist's open page shows it. */
    async refund(companyId: number, reference: string, body: PaymentRefund, by?: { who: Actor; role: Role }) {
      const b = ownBooking(companyId, reference);
      if (!payments) throw new Conflict(NOT_REFUNDABLE.none, 'PAYMENT_NOT_REFUNDABLE');
      await payments.refund(b.id, body.amount === undefined ? undefined : poundsToPence(body.amount), {
        // A dispatcher refunds up to the owner's limit; the owner has none (docs/product.md, "The team").
        limit: (amount) => {
          if (by && by.role !== 'owner') assertWithinRefundLimit(db, companyId, amount);
        },
        inWrite: (amount) =>
          recordAudit(db, by?.who ?? SYSTEM, { companyId, kind: 'refund', subject: b.reference, after: { amount: penceToPounds(amount) } }, deps.now()),
      });
      // Its credit note, and the motorist's open page shows it.
      await changed(b, 'refunded');
      const after = bookingById(db, b.id);
      if (!after) throw notFound();
      return operatorView(after);
    },

    /**
     * Writes the review request of each job completed an hour ago or more (and less than the
     * status page's day, so its one-tap opt-out still opens), once: only from a checked company
     * (the link is the company's own), never to a number that opted out. Answers how many were written.
     */
    async requestReviews(limit = 50): Promise<number> {
      const now = deps.now();
      const at = now.toISOString();
      let written = 0;
      const companies = new Set<number>();
      const due = dueReviewRequests(
        db,
        new Date(now.getTime() - JOB_PAGE_CLOSES_AFTER_MS + REVIEW_AFTER_MS).toISOString(),
        new Date(now.getTime() - REVIEW_AFTER_MS).toISOString(),
        limit,
      );
      for (const { id } of due) {
        const b = bookingById(db, id);
        const url = b && findCompanyById(db, b.companyId)?.reviewUrl;
        if (!b || !url) continue;
        const sender = senderOf(b);
        const wrote = await write(db, () => {
          if (!markReviewRequested(db, b.id, at)) return false;
          // A company whose name is not checked gets none: the platform never sends a company's own link.
          if (sender === null) return false;
          insertOutboxRows(db, [alerts.review(b, sender, url, at)]);
          return true;
        });
        if (!wrote) continue;
        written += 1;
        companies.add(b.companyId);
      }
      // The outbox's lanes send them now rather than at their next tick (the job is not changed by them).
      for (const companyId of companies) await deps.events.emit('messages.written', { companyId });
      return written;
    },

    /** The motorist's one tap: no more review requests from this company to this number. */
    async reviewOptOut(token: string): Promise<JobView> {
      const b = byToken(token, (hash) => bookingByJobToken(db, hash));
      await write(db, () => addReviewOptOut(db, b.companyId, b.customerPhone, deps.now().toISOString()));
      return jobView(b);
    },

    /** Expires every requested booking whose response time has passed; answers how many. */
    async expireDue(): Promise<number> {
      let expired = 0;
      for (const { id } of overdueBookings(db, deps.now().toISOString(), 100)) {
        const b = bookingById(db, id);
        if (b?.status !== 'requested') continue;
        try {
          await move(b, 'expired', 'system', {}, null, motoristText(b, 'expired', motoristMessages.expired(senderOf(b), b.reference, b.companyPhone)));
          expired += 1;
        } catch (error) {
          // Accepted or cancelled in the meantime: nothing to expire.
          if (!(error instanceof Conflict)) throw error;
        }
      }
      return expired;
    },

    settings(companyId: number): BookingSettings {
      const company = findCompanyById(db, companyId);
      if (!company) throw new NotFound('Company not found');
      return toSettings(company);
    },

    async updateSettings(companyId: number, body: BookingSettingsBody): Promise<BookingSettings> {
      const patch: CompanyPatch = {};
      if (body.responseMinutes !== undefined) patch.bookingResponseMinutes = body.responseMinutes;
      if (body.smsNumber !== undefined && body.smsNumber !== findCompanyById(db, companyId)?.bookingSmsNumber) {
        // A new number is not confirmed: no alert text goes to it until its code is typed.
        patch.bookingSmsNumber = body.smsNumber;
        patch.bookingSmsVerifiedAt = null;
        patch.bookingSmsCodeHash = null;
        patch.bookingSmsCodeTo = null;
        patch.bookingSmsCodeExpiresAt = null;
        patch.bookingSmsCodeTries = 0;
      }
      if (body.offerBooking !== undefined) patch.offerBooking = body.offerBooking;
      if (body.offerWhatsapp !== undefined) patch.offerWhatsapp = body.offerWhatsapp;
      if (body.offerCall !== undefined) patch.offerCall = body.offerCall;
      if (body.textIrishMobiles !== undefined) patch.textIrishMobiles = body.textIrishMobiles;
      if (body.bookingOrigins !== undefined) patch.bookingOrigins = JSON.stringify(body.bookingOrigins);
      if (body.motoristTextsOff !== undefined) patch.motoristTextsOff = JSON.stringify(body.motoristTextsOff);
      if (body.reviewMode !== undefined) patch.reviewMode = body.reviewMode;
      if (body.reviewUrl !== undefined) patch.reviewUrl = body.reviewUrl;
      if (Object.keys(patch).length === 0) return this.settings(companyId);
      return toSettings(await write(db, () => updateCompany(db, companyId, patch)));
    },
  };
}

export type BookingService = ReturnType<typeof bookingService>;
