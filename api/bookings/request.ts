// Booking a quote (docs/product.md §20, §21, §25, §26): the motorist's booking at the quote's
// frozen price (with payment at booking, its checkout first), what it would pay now, the
// operator's booking of a caller's quote on the phone, and a job on account.
import { BOOKING_ORIGIN_REFUSED, isFinished, QUOTE_EXPIRED_FOR_BOOKING } from '#shared/bookings';
import { PAYMENT_LINK_FINISHED, PAYMENT_LINK_NO_PAYMENTS, PAYMENT_LINK_NOT_BOOKED, PAYMENT_LINK_ON_ACCOUNT, PAYMENT_LINK_PAID } from '#shared/phone-jobs';
import { penceToPounds } from '#shared/money';
import { QUOTE_ON_ACCOUNT } from '#shared/accounts';
import type { PaymentDue, PaymentPlan } from '#shared/payments';
import type { Booking, BookingCreated } from '#shared/booking-responses';
import type { LeadStatus } from '#shared/leads';
import { insertOutboxRows } from '../mail/store';
import { isTextable } from '../mail/textable';
import { write } from '../platform/db/write';
import { Conflict, Forbidden, NotFound, ValidationFailed } from '../platform/errors';
import { leadStatusAfter } from './alerts';
import { motoristMessages, type BookingFacts } from './messages';
import {
  bookingById,
  bookingByQuote,
  insertBooking,
  sealedJobToken,
  moveBooking,
  quoteForBooking,
  setDriverTokenHash,
  addLeadEvent,
  type BookingWithQuote,
  type QuoteToBook,
} from './store';
import { hashToken, newSalt } from './tokens';
import { JOB_LINK_PLACEHOLDER, jobUrl } from './job-link';
import { checkLaterSlot, laterSlot } from '../dispatch/later';
import { insertPayment, paymentByBooking } from '../payments/store';
import { JobLinkUnavailable } from './job-link';
import {
  type BookingContext,
  ACCOUNT_JOB_RESPOND_MS,
  ALREADY_BOOKED,
  type BookingOrigin,
  type BookingRequestBody,
  parseOrigins,
  type PhoneBookingBody,
  PHONE_NOT_TEXTABLE,
  PHONE_NOT_TEXTABLE_UK_IE,
  QUOTE_NOT_FOUND,
  BOOKING_NOT_OFFERED,
} from './context';

type PaymentRow = Parameters<typeof insertPayment>[1];

/** The payment row of a checkout opened for a booking: one shape, at booking or from a payment link later. */
function checkoutPayment(
  booking: { id: number; companyId: number },
  provider: PaymentRow['provider'],
  due: { plan: PaymentPlan; accountId: string },
  checkout: { id: string; url: string; expiresAt: PaymentRow['checkoutExpiresAt']; returnSeal: PaymentRow['returnSeal'] },
  at: string,
): PaymentRow {
  return {
    bookingId: booking.id,
    companyId: booking.companyId,
    provider,
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
  };
}

export function requestPart(ctx: BookingContext) {
  const { deps, db, config, payments, tokens, box, alerts, jobView, operatorView, changed, motoristText, senderOf } = ctx;
  const publicOrigin = new URL(config.publicUrl).origin;
  /**
   * A browser may book from our own pages (the hosted company page, the status pages) and from the
   * websites the company listed; any other origin, `null` included, is refused (decision 033).
   */
  const mayBookFrom = (origin: string, stored: string, ownOrigin?: string) =>
    origin === publicOrigin || origin === ownOrigin || parseOrigins(stored).includes(origin);

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
    gearboxType: quote.gearboxType,
    rollingStatus: quote.rollingStatus,
    passengerCount: quote.passengerCount,
    distance: quote.distance,
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

  /**
   * What a job booked with nothing paid (the operator's booking for a caller, docs/product.md §25)
   * may pay through its payment link now, on the operator's account by their rule; a reason it
   * cannot (thrown: 409) otherwise. Read by the operator's screen and the link's page alike.
   */
  function payableLater(
    companyId: number,
    reference: string,
  ): { booking: BookingWithQuote; quote: QuoteToBook; due: NonNullable<ReturnType<NonNullable<typeof payments>['planFor']>> } {
    const quote = quoteForBooking(db, reference);
    const booking = quote && quote.companyId === companyId ? bookingByQuote(db, quote.id) : undefined;
    if (!quote || !booking || booking.status === 'awaiting_payment') throw new Conflict(PAYMENT_LINK_NOT_BOOKED, 'PAYMENT_LINK_UNAVAILABLE');
    if (booking.onAccount === 1) throw new Conflict(PAYMENT_LINK_ON_ACCOUNT, 'PAYMENT_LINK_UNAVAILABLE');
    if (booking.paymentStatus !== null && booking.paymentStatus !== 'awaiting') throw new Conflict(PAYMENT_LINK_PAID, 'ALREADY_PAID');
    if (isFinished(booking.status)) throw new Conflict(PAYMENT_LINK_FINISHED, 'PAYMENT_LINK_UNAVAILABLE');
    const due = payments?.planFor(quote);
    if (!due) throw new Conflict(PAYMENT_LINK_NO_PAYMENTS, 'PAYMENT_LINK_UNAVAILABLE');
    return { booking, quote, due };
  }

  return {
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
      // An account's rates are booked only on the account, by the company (api/accounts/).
      if (quote.onAccount === 1) throw new Conflict(QUOTE_ON_ACCOUNT, 'QUOTE_ON_ACCOUNT');
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
          customerEmail: body.email ?? null,
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
          insertPayment(db, checkoutPayment({ id: inserted, companyId: quote.companyId }, payments?.mode ?? 'local', due, checkout, at));
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
      await changed(b, b.status);
      return { created: true, result: answer(b) };
    },

    payableLater,

    /**
     * The checkout of a job's payment link: its open one while it lasts, else a new one on the
     * operator's account returning to the job's status page. Paid meanwhile: 409 ALREADY_PAID.
     */
    async checkoutLater(companyId: number, reference: string): Promise<{ checkoutUrl: string }> {
      const { booking, quote, due } = payableLater(companyId, reference);
      if (!payments) throw new Conflict(PAYMENT_LINK_NO_PAYMENTS, 'PAYMENT_LINK_UNAVAILABLE');
      if (booking.paymentStatus === 'awaiting') {
        if (booking.paymentCheckoutUrl && !payments.lapsed(booking.id)) return { checkoutUrl: booking.paymentCheckoutUrl };
        // Lapsed: closed first (paid at the last moment: paid).
        if ((await payments.supersede(booking.id)) === 'settled') throw new Conflict(PAYMENT_LINK_PAID, 'ALREADY_PAID');
      }
      const sealed = sealedJobToken(db, booking.id);
      const token = sealed ? box.open(sealed) : undefined;
      if (!token) throw new JobLinkUnavailable();
      const checkout = await payments.openCheckout({ ...due, quote, jobUrl: jobUrl(config.publicUrl, token) });
      const at = deps.now().toISOString();
      const stored = await write(db, () => {
        if (paymentByBooking(db, booking.id)) return false;
        insertPayment(db, checkoutPayment(booking, payments.mode, due, checkout, at));
        return true;
      });
      if (stored) return { checkoutUrl: checkout.url };
      // Another tap opened one first: this one is closed, theirs answered.
      await payments.discardCheckout(due.accountId, checkout.id);
      const theirs = paymentByBooking(db, booking.id);
      if (theirs?.status !== 'awaiting') throw new Conflict(PAYMENT_LINK_PAID, 'ALREADY_PAID');
      return { checkoutUrl: theirs.checkoutUrl };
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
          customerEmail: body.email ?? null,
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
      await changed(b, 'accepted');
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
      return { booking: b, jobUrl: jobUrl(config.publicUrl, token) };
    },
  };
}
