// Phone jobs (docs/product.md §25): a caller priced by the company's own engine, with an optional
// one-off adjustment shown as its own line; the quote stored as a web quote is, marked as taken by
// phone by whom; its link texted through the outbox (UK mobiles only, 3 a number a day per
// company, inside the company's text budget), sent by WhatsApp or copied; the link's page for the
// caller; booking it for them (api/bookings/request.ts, bookForCaller); and missed calls reported
// by the voice webhook, each caller texted the company's quote page once a UK day.
import { PRODUCT_NAME } from '#shared/constants';
import type { Booking } from '#shared/booking-responses';
import { QUOTE_EXPIRED_FOR_BOOKING } from '#shared/bookings';
import { readReference } from '#shared/leads';
import { formatPence, penceToPounds, poundsToPence } from '#shared/money';
import { formatPhoneNational, toE164 } from '#shared/phone-number';
import {
  ADJUSTMENT_TOTAL_NEGATIVE,
  MISSED_CALL_DAYS,
  MISSED_CALL_STATUSES,
  PHONE_QUOTE_NOT_FOUND,
  QUOTE_LINK_NOT_FOUND,
  QUOTE_LINK_NEEDS_SUBSCRIPTION,
  QUOTE_LINK_NO_SMS,
  QUOTE_LINK_NOT_UK_MOBILE,
  QUOTE_LINK_TEXTS_PER_NUMBER,
  QUOTE_LINK_TEXTS_USED,
  quoteLinkMessage,
  paymentLinkMessage,
  type MissedCall,
  type PaymentLink,
  type PhoneQuote,
  type QuoteLinkView,
  type phoneBookingSchema,
  type phoneQuoteRequestSchema,
} from '#shared/phone-jobs';
import { publicLink } from '#shared/share';
import type { z } from 'zod';
import type { BookingService } from '../bookings/service';
import { bookingByQuote, quoteForBooking } from '../bookings/store';
import { motoristSender } from '../bookings/sender';
import { hashToken, TOKEN_PATTERN } from '../bookings/tokens';
import { addDays, londonDate, londonMidnight } from '../engine/calendar/uk-calendar';
import { insertOutboxRows } from '../mail/store';
import { isTextable } from '../mail/textable';
import { write } from '../platform/db/write';
import type { AppDeps } from '../platform/deps';
import { Conflict, Forbidden, NotFound, PaymentRequired, TooManyRequests, ValidationFailed } from '../platform/errors';
import { QUOTE_ON_ACCOUNT } from '#shared/accounts';
import { findUserByCompanyId } from '../auth/store';
import { statusGivesAccess } from '../billing/status';
import type { PaymentService } from '../payments/service';
import type { AccountService } from '../accounts/service';
import { createQuoteService } from '../quotes/quote-service';
import type { NewQuote } from '../quotes/store';
import { QUOTE_LINK_PLACEHOLDER, QUOTE_LINK_SHOWN } from './link-fill';
import { newLinkSalt, quoteLinkTokens, quoteLinkUrl } from './link-token';
import {
  companyByPhone,
  insertMissedCall,
  insertPhoneQuote,
  missedCallsSince,
  phoneQuoteById,
  phoneQuoteByLink,
  phoneQuoteByReference,
  quoteLinkTextsToday,
  type PhoneQuoteRow,
} from './store';
import { twilioSignatureValid } from './twilio-signature';

export type PhoneQuoteBody = z.output<typeof phoneQuoteRequestSchema>;
export type PhoneBookingBody = z.output<typeof phoneBookingSchema>;

export const VOICE_WEBHOOK_OFF = 'Missed-call texts are off: no SMS provider is configured';
export const VOICE_SIGNATURE_INVALID = 'The request is not signed by the SMS provider';

export interface PhoneServiceDeps extends Pick<AppDeps, 'db' | 'config' | 'now' | 'companyCache' | 'distance' | 'events'> {
  bookings: Pick<BookingService, 'bookForCaller' | 'accept' | 'payableLater' | 'checkoutLater'>;
  payments?: Pick<PaymentService, 'planFor'>;
  /** Trade accounts (docs/product.md §26): a caller's quote may be priced on an account's card and booked on it. */
  accounts: Pick<AccountService, 'rateCardOf' | 'tieQuote' | 'accountOfQuote' | 'book'>;
}

/** The staff member taking the call: the session's user. */
export interface Taker {
  userId: number;
  companyId: number;
  name: string;
}

/** The VAT inside an amount that includes it at `ratePercent`, half up. */
const vatInside = (pence: number, ratePercent: number) => pence - Math.round((pence * 100) / (100 + ratePercent));

type Line = { label: string; amountPence: number };
const parseLines = (json: string | null): Line[] => (json ? (JSON.parse(json) as Line[]) : []);
const poundsLines = (lines: Line[]) => lines.map((line) => ({ label: line.label, amount: penceToPounds(line.amountPence) }));

export function phoneService(deps: PhoneServiceDeps) {
  const { db, config } = deps;
  const tokens = quoteLinkTokens(config.sessionSecret);
  const smsReady = config.sms !== undefined;

  /**
   * Prices the caller's quote with the quote path's own service and the company's cached prices,
   * storing nothing: the service's store step is handed a function that keeps the row it would
   * have written. The public quote route is untouched (its own service, its own writer).
   */
  async function price(companyId: number, body: PhoneQuoteBody): Promise<{ row: NewQuote; includedInPrices: boolean }> {
    let priced: NewQuote | undefined;
    const quote = createQuoteService({
      ...deps,
      storeQuote: async (row) => {
        priced = row;
        return '';
      },
    });
    // The session's company, never one named in the body; on a trade account, its card laid over the company's prices (one engine).
    const rateCard = body.accountId === undefined ? undefined : deps.accounts.rateCardOf(companyId, body.accountId);
    const answer = await quote({ ...body, companyId: undefined, companySlug: undefined }, { signedInCompanyId: companyId, rateCard });
    if (!priced) throw new Error('phone quote: the quote service stored nothing');
    return { row: withAdjustment(priced, body.adjustment), includedInPrices: answer.vat?.includedInPrices ?? true };
  }

  /** The adjustment as the last line, in the total and in the VAT the total holds (an amount the caller pays, VAT included). */
  function withAdjustment(row: NewQuote, adjustment: PhoneQuoteBody['adjustment']): NewQuote {
    if (!adjustment || adjustment.amount === 0) return row;
    const pence = poundsToPence(adjustment.amount);
    const total = row.totalPricePence + pence;
    if (total < 0) throw new ValidationFailed(ADJUSTMENT_TOTAL_NEGATIVE, { 'adjustment.amount': ADJUSTMENT_TOTAL_NEGATIVE });
    const lines = [...parseLines(row.lines ?? null), { label: adjustment.reason, amountPence: pence }];
    const vatRate = row.vatRatePercent ?? 0;
    return {
      ...row,
      totalPricePence: total,
      extraFeesPence: row.extraFeesPence + pence,
      vatPence: (row.vatPence ?? 0) + (vatRate > 0 ? vatInside(pence, vatRate) : 0),
      lines: JSON.stringify(lines),
    };
  }

  const priceView = (row: NewQuote, includedInPrices: boolean) => ({
    lines: poundsLines(parseLines(row.lines ?? null)),
    totalPrice: penceToPounds(row.totalPricePence),
    vat: (row.vatRatePercent ?? 0) > 0 ? { rate: row.vatRatePercent ?? 0, amount: penceToPounds(row.vatPence ?? 0), includedInPrices } : null,
    distance: row.distance,
    validUntil: row.validUntil ?? row.createdAt,
  });

  function phoneQuoteView(pq: PhoneQuoteRow): PhoneQuote {
    const link = quoteLinkUrl(config.publicUrl, tokens.token(pq.linkSalt));
    return {
      reference: pq.publicId,
      lines: poundsLines(parseLines(pq.lines)),
      totalPrice: penceToPounds(pq.totalPricePence),
      vat: pq.vatRatePercent > 0 ? { rate: pq.vatRatePercent, amount: penceToPounds(pq.vatPence), includedInPrices: true } : null,
      distance: pq.distance,
      validUntil: pq.validUntil ?? pq.createdAt,
      linkUrl: link,
      message: quoteLinkMessage(pq.companyName, pq.publicId, formatPence(pq.totalPricePence), link),
      takenBy: pq.takenByName,
      createdAt: pq.createdAt,
    };
  }

  /** The company's own phone quote by its reference as typed; 404 for any other. */
  function ownPhoneQuote(companyId: number, typed: string): PhoneQuoteRow {
    const reference = readReference(typed);
    const pq = reference === null ? undefined : phoneQuoteByReference(db, reference);
    if (!pq || pq.companyId !== companyId) throw new NotFound(PHONE_QUOTE_NOT_FOUND);
    return pq;
  }

  const expired = (pq: Pick<PhoneQuoteRow, 'validUntil' | 'createdAt'>, now: Date) =>
    now.getTime() > (pq.validUntil ? Date.parse(pq.validUntil) : Date.parse(pq.createdAt) + 24 * 3_600_000);

  /** The company's owner's subscription or trial gives access now (the demo company, with no owner, always). */
  function companyLive(companyId: number, now: Date): boolean {
    const owner = findUserByCompanyId(db, companyId);
    return !owner || statusGivesAccess(owner, now, config.billing.mode);
  }

  /**
   * Texts a link of the quote (its page, or the booked job's payment on it) to a UK mobile through
   * the outbox. The text holds a placeholder where the link goes (api/phone/link-fill.ts); its key
   * counts the number's quote links of the UK day, whichever link each was.
   */
  async function sendLink(pq: PhoneQuoteRow, phone: string, what: 'quote' | 'payment', message: (sender: string) => string) {
    const { companyId } = pq;
    if (!isTextable(phone, { irishMobiles: false })) {
      throw new ValidationFailed(QUOTE_LINK_NOT_UK_MOBILE, { phone: QUOTE_LINK_NOT_UK_MOBILE }, 'PHONE_NOT_TEXTABLE');
    }
    // Without an SMS provider the text would only wait in the outbox: the operator is told now, while the caller is on the line.
    if (!smsReady) throw new Conflict(QUOTE_LINK_NO_SMS, 'SMS_NOT_CONFIGURED');
    const now = deps.now();
    // A booked job's payment link outlives its quote's validity: the price was fixed at booking.
    if (what === 'quote' && expired(pq, now)) throw new Conflict(QUOTE_EXPIRED_FOR_BOOKING, 'QUOTE_EXPIRED');
    // Texts to strangers cost money: only a company whose subscription or trial gives access sends them.
    if (!companyLive(companyId, now)) throw new PaymentRequired(QUOTE_LINK_NEEDS_SUBSCRIPTION);
    const at = now.toISOString();
    const day = londonDate(now);
    const prefix = `quote-link:${companyId}:${phone}:${day}:`;
    const sender = motoristSender(db, { id: companyId, name: pq.companyName }, now, config.billing.mode);
    const body = message(sender ?? PRODUCT_NAME);
    const sent = await write(db, () => {
      const before = quoteLinkTextsToday(db, prefix);
      if (before >= QUOTE_LINK_TEXTS_PER_NUMBER) return undefined;
      insertOutboxRows(db, [
        {
          companyId,
          kind: 'quote-link',
          channel: 'sms',
          dedupeKey: `${prefix}${before + 1}:q${pq.quoteId}`,
          to: phone,
          subject: body.replaceAll(QUOTE_LINK_PLACEHOLDER, QUOTE_LINK_SHOWN).slice(0, 120),
          text: body,
          html: '',
          status: 'pending',
          attempts: 0,
          nextAttemptAt: at,
          createdAt: at,
        },
      ]);
      return before + 1;
    });
    if (sent === undefined) {
      const retryAfter = Math.ceil((londonMidnight(addDays(day, 1)).getTime() - now.getTime()) / 1000);
      throw new TooManyRequests(QUOTE_LINK_TEXTS_USED, retryAfter);
    }
    // The outbox's lanes send it now rather than at their next tick (api/platform/events.ts).
    return { sentTo: phone, textsLeftToday: QUOTE_LINK_TEXTS_PER_NUMBER - sent };
  }

  const pageUrl = (slug: string | null) => (slug ? publicLink(config.publicUrl, slug) : null);

  return {
    /** The caller's price as the operator types: nothing stored. */
    async price(companyId: number, body: PhoneQuoteBody) {
      const { row, includedInPrices } = await price(companyId, body);
      return priceView(row, includedInPrices);
    },

    /** Prices and stores the caller's quote, marked as taken by phone by `taker`. */
    async create(taker: Taker, body: PhoneQuoteBody): Promise<PhoneQuote> {
      const { row } = await price(taker.companyId, body);
      const salt = newLinkSalt();
      const { id } = await write(db, () => {
        const inserted = insertPhoneQuote(db, row, {
          takenByUserId: taker.userId,
          takenByName: taker.name,
          adjustmentPence: body.adjustment && body.adjustment.amount !== 0 ? poundsToPence(body.adjustment.amount) : null,
          adjustmentReason: body.adjustment && body.adjustment.amount !== 0 ? body.adjustment.reason : null,
          linkSalt: salt,
          linkTokenHash: hashToken(tokens.token(salt)),
        });
        // Priced on an account's card: tied to it in the same transaction, so only that account books it.
        if (body.accountId !== undefined) deps.accounts.tieQuote(taker.companyId, body.accountId, inserted.id);
        return inserted;
      });
      const stored = phoneQuoteById(db, id);
      if (!stored) throw new NotFound(PHONE_QUOTE_NOT_FOUND);
      return phoneQuoteView(stored);
    },

    /**
     * Texts the quote's link to a UK mobile through the outbox. The text holds a placeholder where
     * the link goes (api/phone/link-fill.ts); its key counts the number's quote links of the UK day.
     */
    async text(companyId: number, reference: string, phone: string): Promise<{ sentTo: string; textsLeftToday: number }> {
      const pq = ownPhoneQuote(companyId, reference);
      // Its link books as anyone's quote: an account's is booked for the caller on the account instead.
      if (deps.accounts.accountOfQuote(pq.quoteId) !== undefined) throw new Conflict(QUOTE_ON_ACCOUNT, 'QUOTE_ON_ACCOUNT');
      return sendLink(pq, phone, 'quote', (sender) => quoteLinkMessage(sender, pq.publicId, formatPence(pq.totalPricePence), QUOTE_LINK_PLACEHOLDER));
    },

    /** The payment link of a job booked for the caller (the quote's own link), and its message for WhatsApp. */
    paymentLink(companyId: number, reference: string): PaymentLink {
      const pq = ownPhoneQuote(companyId, reference);
      const { due } = deps.bookings.payableLater(companyId, pq.publicId);
      const linkUrl = quoteLinkUrl(config.publicUrl, tokens.token(pq.linkSalt));
      return {
        linkUrl,
        message: paymentLinkMessage(pq.companyName, pq.publicId, formatPence(due.plan.amountPence), linkUrl),
        amount: penceToPounds(due.plan.amountPence),
        kind: due.plan.kind,
      };
    },

    /** Texts the payment link, within the quote links' limits: the same 3 a number a day, the company's daily texts. */
    async textPaymentLink(companyId: number, reference: string, phone: string): Promise<{ sentTo: string; textsLeftToday: number }> {
      const pq = ownPhoneQuote(companyId, reference);
      const { due } = deps.bookings.payableLater(companyId, pq.publicId);
      return sendLink(pq, phone, 'payment', (sender) => paymentLinkMessage(sender, pq.publicId, formatPence(due.plan.amountPence), QUOTE_LINK_PLACEHOLDER));
    },

    /** The caller taps Pay on the link's page: the booked job's checkout on the company's account. */
    async pay(token: string): Promise<{ checkoutUrl: string }> {
      if (!TOKEN_PATTERN.test(token)) throw new NotFound(QUOTE_LINK_NOT_FOUND);
      const pq = phoneQuoteByLink(db, hashToken(token));
      if (!pq) throw new NotFound(QUOTE_LINK_NOT_FOUND);
      return deps.bookings.checkoutLater(pq.companyId, pq.publicId);
    },

    /**
     * Books the caller's phone quote for them, accepted at once (api/bookings/request.ts). A quote
     * priced on a trade account goes on the account through the accounts' own booking (its PO and
     * credit limit, no card), then is accepted with the ETA as any phone booking is.
     */
    async book(companyId: number, reference: string, body: PhoneBookingBody): Promise<Booking> {
      const pq = ownPhoneQuote(companyId, reference);
      const accountId = deps.accounts.accountOfQuote(pq.quoteId);
      if (accountId === undefined) return deps.bookings.bookForCaller(companyId, pq.publicId, body);
      await deps.accounts.book(companyId, String(accountId), {
        quoteId: pq.publicId,
        poNumber: body.poNumber,
        name: body.name,
        phone: body.phone,
        registration: body.registration,
        note: body.note,
        confirmOverLimit: body.confirmOverLimit,
      });
      return deps.bookings.accept(companyId, pq.publicId, { etaMinutes: body.etaMinutes, driverName: body.driverName });
    },

    /** The caller's page of a link: 404 for a malformed, unknown or deleted link alike. */
    link(token: string): QuoteLinkView {
      if (!TOKEN_PATTERN.test(token)) throw new NotFound(QUOTE_LINK_NOT_FOUND);
      const pq = phoneQuoteByLink(db, hashToken(token));
      if (!pq) throw new NotFound(QUOTE_LINK_NOT_FOUND);
      const now = deps.now();
      const toBook = deps.payments ? quoteForBooking(db, pq.publicId) : undefined;
      const due = toBook ? deps.payments?.planFor(toBook) : null;
      // A booked job: what its payment link may pay now, or that it is paid.
      const booking = pq.booked === 1 ? bookingByQuote(db, pq.quoteId) : undefined;
      const paid = booking !== undefined && booking.paymentStatus !== null && booking.paymentStatus !== 'awaiting';
      let payNow: QuoteLinkView['payNow'] = null;
      if (booking && !paid) {
        try {
          const later = deps.bookings.payableLater(pq.companyId, pq.publicId).due.plan;
          payNow = { amount: penceToPounds(later.amountPence), kind: later.kind };
        } catch (error) {
          // Nothing to pay by link (on account, no payment set up, finished): the page offers no Pay.
          if (!(error instanceof Conflict)) throw error;
        }
      }
      return {
        reference: pq.publicId,
        company: {
          name: pq.companyName,
          phone: pq.companyPhone,
          primaryColour: pq.primaryColour,
          logoUrl: pq.logo ? `${config.publicUrl}/api/company/${pq.companyId}/logo?v=${pq.logo.slice(0, 16)}` : null,
          pageUrl: pageUrl(pq.customSlug),
        },
        pickupPostcode: pq.pickupPostcode,
        destinationPostcode: pq.destinationPostcode,
        vehicleType: pq.vehicleType,
        problemType: pq.problemType,
        lines: poundsLines(parseLines(pq.lines)),
        totalPrice: penceToPounds(pq.totalPricePence),
        validUntil: pq.validUntil ?? pq.createdAt,
        expired: expired(pq, now),
        offerBooking: pq.offerBooking === 1,
        payAtBooking: due ? { amount: penceToPounds(due.plan.amountPence), kind: due.plan.kind } : null,
        booked: pq.booked === 1,
        payNow,
        paid,
      };
    },

    missedCalls(companyId: number): MissedCall[] {
      const since = new Date(deps.now().getTime() - MISSED_CALL_DAYS * 86_400_000).toISOString();
      return missedCallsSince(db, companyId, since).map((call) => ({ ...call, texted: call.texted === 1 }));
    },

    /**
     * The voice webhook (Twilio's shape): verified by its signature under the SMS provider's auth
     * token; a call nobody answered to the number of exactly one company is listed, and its caller,
     * on a UK mobile, texted the company's quote page and number once a UK day.
     */
    async voice(url: string, params: Record<string, string>, signature: string | undefined): Promise<'recorded' | 'ignored'> {
      if (!config.sms) throw new NotFound(VOICE_WEBHOOK_OFF);
      if (!twilioSignatureValid(config.sms.authToken, url, params, signature)) throw new Forbidden(VOICE_SIGNATURE_INVALID, 'WEBHOOK_SIGNATURE_INVALID');
      if (!(MISSED_CALL_STATUSES as readonly string[]).includes(params.CallStatus ?? '')) return 'ignored';
      const to = toE164(params.To ?? '');
      const caller = toE164(params.From ?? '');
      const company = to ? companyByPhone(db, to) : undefined;
      if (!company || !caller) return 'ignored';
      const now = deps.now();
      const at = now.toISOString();
      const day = londonDate(now);
      const key = `missed-call:${company.id}:${caller}:${day}`;
      const textable = isTextable(caller, { irishMobiles: false });
      const sender = motoristSender(db, { id: company.id, name: company.name }, now, config.billing.mode);
      const page = pageUrl(company.customSlug);
      const body = missedCallText(sender, formatPhoneNational(company.phone), page);
      const forgetBefore = new Date(now.getTime() - MISSED_CALL_DAYS * 86_400_000).toISOString();
      // A company whose page is not live (its subscription lapsed) has its missed calls listed, not texted.
      const mayText = textable && companyLive(company.id, now);
      await write(db, () => {
        const first = mayText && quoteLinkTextsToday(db, key) === 0;
        insertMissedCall(db, { companyId: company.id, caller, callStatus: params.CallStatus ?? '', texted: first, createdAt: at }, forgetBefore);
        if (first) {
          insertOutboxRows(db, [
            {
              companyId: company.id,
              kind: 'missed-call',
              channel: 'sms',
              dedupeKey: key,
              to: caller,
              subject: body.slice(0, 120),
              text: body,
              html: '',
              status: 'pending',
              attempts: 0,
              nextAttemptAt: at,
              createdAt: at,
            },
          ]);
        }
      });
      return 'recorded';
    },
  };
}

/** The text to a caller the firm missed: its quote page when it has one, and its number. */
export function missedCallText(sender: string | null, phone: string, page: string | null): string {
  const price = page ? ` Get an instant price here: ${page}` : '';
  return sender !== null
    ? `${sender}: sorry we missed your call.${price} Or call us back on ${phone}.`
    : `${PRODUCT_NAME}: sorry, the recovery company you rang missed your call.${price} Or call them back on ${phone}.`;
}

export type PhoneService = ReturnType<typeof phoneService>;
