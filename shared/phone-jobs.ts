// Jobs that start with a phone call (docs/product.md §25): the operator prices a caller with the
// company's own engine, sends the quote as a link or books it for them; a missed call may become
// a text with the company's quote page. The request schemas the server validates with and the
// portal's form uses, the answers, and the words both sides show.
import { z } from 'zod';
import { accountJobSchema } from './accounts';
import { bookingAcceptSchema, bookingRequestSchema } from './booking-schemas';
import { forbiddenCharacterMessage, isCleanText, quoteRequestSchema } from './schemas';

/** Where a job came from, as the Jobs list and the CSV say it. */
export const JOB_SOURCES = ['website', 'hosted', 'phone'] as const;
export type JobSource = (typeof JOB_SOURCES)[number];
/** The Jobs list's words for each source (docs/product.md §25). */
export const JOB_SOURCE_LABELS: Record<JobSource, string> = { website: 'website', hosted: 'hosted page', phone: 'phone' };

/** Quote links texted to one number per UK day by one company (docs/product.md §25). */
export const QUOTE_LINK_TEXTS_PER_NUMBER = 3;
/** The one-off adjustment, in pounds either way. */
export const ADJUSTMENT_MAX_POUNDS = 1000;
export const ADJUSTMENT_REASON_MAX = 60;
/** How long a missed call stays listed in the portal. */
export const MISSED_CALL_DAYS = 30;
/** The call statuses of a call nobody answered (Twilio's words): only these are texted. */
export const MISSED_CALL_STATUSES = ['no-answer', 'busy', 'failed'] as const;

// The words of docs/product.md §25, written once.
export const ADJUSTMENT_REASON_REQUIRED = 'Give a reason for the adjustment';
export const ADJUSTMENT_TOTAL_NEGATIVE = 'The adjustment cannot take the price below £0';
export const ADJUSTMENT_INVALID = `The adjustment must be between -£${ADJUSTMENT_MAX_POUNDS} and £${ADJUSTMENT_MAX_POUNDS}, in pounds and pence`;
export const QUOTE_LINK_NOT_UK_MOBILE = 'We can only text quote links to UK mobile numbers, such as 07700 900123.';
export const QUOTE_LINK_TEXTS_USED = `This number has had ${QUOTE_LINK_TEXTS_PER_NUMBER} quote links from you today. Send it by WhatsApp or read the price out instead.`;
export const QUOTE_LINK_NEEDS_SUBSCRIPTION = 'Texting quote links needs an active subscription or trial. Send it by WhatsApp or copy the link instead.';
export const QUOTE_LINK_NO_SMS = 'Texts are not set up on this server. Send it by WhatsApp or copy the link instead.';
export const PHONE_QUOTE_NOT_FOUND = 'No phone quote of this company has this reference';
export const QUOTE_LINK_NOT_FOUND = 'This quote link is not valid. Please ask the company for a new one.';
export const QUOTE_LINK_EXPIRED = 'This quote has expired.';
export const ACCOUNT_CHOICE_INVALID = 'Choose one of your trade accounts';
// A payment link for a job booked for the caller: the quote's own link, which then offers to pay.
export const PAYMENT_LINK_NOT_BOOKED = 'Book the quote for the caller first: the payment link pays for the booked job.';
export const PAYMENT_LINK_NO_PAYMENTS = 'Payment links need payment at booking set up in Payments, on your connected account.';
export const PAYMENT_LINK_ON_ACCOUNT = 'A job on account is not paid by card: it is invoiced with the account’s monthly invoice.';
export const PAYMENT_LINK_FINISHED = 'This job has finished: there is nothing to pay by link.';
export const PAYMENT_LINK_PAID = 'This job is paid.';
/** The text (and WhatsApp message) of a payment link. */
export const paymentLinkMessage = (sender: string, reference: string, amount: string, link: string) =>
  `${sender}: pay ${amount} for your recovery TQ-${reference} here: ${link}`;

/** The text a caller is sent, and the WhatsApp message the operator's phone opens: the same words. */
export const quoteLinkMessage = (companyName: string, reference: string, total: string, link: string) =>
  `${companyName}: your recovery quote TQ-${reference} is ${total}. See it and book here: ${link}`;

const adjustmentAmount = z
  .number({ error: ADJUSTMENT_INVALID })
  .finite(ADJUSTMENT_INVALID)
  .min(-ADJUSTMENT_MAX_POUNDS, ADJUSTMENT_INVALID)
  .max(ADJUSTMENT_MAX_POUNDS, ADJUSTMENT_INVALID)
  .refine((n) => Math.abs(n * 100 - Math.round(n * 100)) < 1e-6, ADJUSTMENT_INVALID);

export const adjustmentSchema = z.object({
  amount: adjustmentAmount,
  reason: z
    .string({ error: ADJUSTMENT_REASON_REQUIRED })
    .trim()
    .min(1, ADJUSTMENT_REASON_REQUIRED)
    .max(ADJUSTMENT_REASON_MAX, `The reason must be at most ${ADJUSTMENT_REASON_MAX} characters`)
    .refine((v) => isCleanText(v), forbiddenCharacterMessage('Reason')),
});

/**
 * A caller's quote: the public form's fields (the company is the session's, never the body's)
 * and an optional one-off adjustment with its reason, shown as its own line.
 */
export const phoneQuoteRequestSchema = quoteRequestSchema.safeExtend({
  adjustment: adjustmentSchema.optional(),
  /** A trade account of the company's (docs/product.md §26): its rate card prices the quote, and booking it puts the job on the account. */
  accountId: z.number({ error: ACCOUNT_CHOICE_INVALID }).int(ACCOUNT_CHOICE_INVALID).positive(ACCOUNT_CHOICE_INVALID).optional(),
});
export type PhoneQuoteRequest = z.input<typeof phoneQuoteRequestSchema>;

/** The number to text the quote link to: any way a person types it; the server keeps UK mobiles only. */
export const quoteLinkTextSchema = bookingRequestSchema.pick({ phone: true });
export type QuoteLinkText = z.input<typeof quoteLinkTextSchema>;

/** Booking a caller's quote for them: their name, mobile, registration and optional email (for a review request by email), accepted at once with an ETA. */
export const phoneBookingSchema = bookingRequestSchema
  .pick({ name: true, phone: true, registration: true, note: true, email: true })
  .extend(bookingAcceptSchema.shape)
  // A quote priced on a trade account: the job goes on the account, with its PO and the credit-limit confirmation (docs/product.md §26).
  .extend({ poNumber: accountJobSchema.shape.poNumber, confirmOverLimit: accountJobSchema.shape.confirmOverLimit });
export type PhoneBooking = z.input<typeof phoneBookingSchema>;

const money = z.number().meta({ description: 'Pounds, at most two decimals' });
const priceLine = z.object({ label: z.string(), amount: money });

/** The price of a caller's quote: priced, not stored (the screen shows it as the operator types). */
export const phoneQuotePriceSchema = z
  .object({
    lines: z.array(priceLine).meta({ description: 'Every line, in order, the adjustment last as its own line; adding up to totalPrice' }),
    totalPrice: money,
    vat: z
      .object({ rate: z.number(), amount: money, includedInPrices: z.boolean() })
      .nullable()
      .meta({ description: 'The VAT inside totalPrice; null when the company is not VAT-registered' }),
    distance: z.number().meta({ description: 'Estimated road miles' }),
    validUntil: z.string().meta({ description: 'ISO 8601: the price holds until then' }),
  })
  .meta({ id: 'PhoneQuotePrice' });
export type PhoneQuotePrice = z.infer<typeof phoneQuotePriceSchema>;

/** A caller's quote once stored: its reference, its link (to copy or send by WhatsApp) and who took it. */
export const phoneQuoteSchema = phoneQuotePriceSchema
  .extend({
    reference: z.string().meta({ description: 'Shown as TQ-{reference}' }),
    linkUrl: z.string().meta({ description: 'The quote’s page for the caller: the only place its token is given' }),
    message: z.string().meta({ description: 'The text the caller is sent, with the link: the WhatsApp message too' }),
    takenBy: z.string(),
    createdAt: z.string(),
  })
  .meta({ id: 'PhoneQuote' });
export type PhoneQuote = z.infer<typeof phoneQuoteSchema>;

export const quoteLinkSentSchema = z
  .object({
    sentTo: z.string().meta({ description: 'E.164: the number the text goes to' }),
    textsLeftToday: z
      .number()
      .int()
      .meta({ description: `Quote links this number may still get from this company today (${QUOTE_LINK_TEXTS_PER_NUMBER} a day)` }),
  })
  .meta({ id: 'QuoteLinkSent' });

/** The caller's page of a quote link: the company's brand, the quote's lines and validity, and how to book it. */
export const quoteLinkViewSchema = z
  .object({
    reference: z.string(),
    company: z.object({
      name: z.string(),
      phone: z.string().nullable(),
      primaryColour: z.string(),
      logoUrl: z.string().nullable(),
      pageUrl: z.string().nullable().meta({ description: 'The company’s quote page, for a new quote after this one expired' }),
    }),
    pickupPostcode: z.string(),
    destinationPostcode: z.string(),
    vehicleType: z.string(),
    problemType: z.string(),
    lines: z.array(priceLine),
    totalPrice: money,
    validUntil: z.string(),
    expired: z.boolean(),
    offerBooking: z.boolean().meta({ description: 'The company takes bookings online: **Book this recovery** is shown' }),
    payAtBooking: z
      .object({ amount: money, kind: z.string() })
      .nullable()
      .meta({ description: 'What the caller pays as they book (a deposit or the full price), or null' }),
    booked: z.boolean().meta({ description: 'The quote is booked already' }),
    payNow: z.object({ amount: money, kind: z.string() }).nullable().meta({
      description:
        'A booked job with nothing paid yet that the caller may pay through this link now (a deposit or the full price, on the company’s rule: `POST /api/quote-links/{token}/pay`), or null',
    }),
    paid: z.boolean().meta({ description: 'The booked job’s payment was taken (at booking or through this link)' }),
  })
  .meta({ id: 'QuoteLinkView' });

/** A payment link for a job booked for the caller: the quote's own link, which then offers to pay what is due. */
export const paymentLinkSchema = z
  .object({
    linkUrl: z.string().meta({ description: 'The quote’s link (`/q/{token}`): its page offers **Pay** for the booked job' }),
    message: z.string().meta({ description: 'The text the caller is sent with the link: the WhatsApp message too' }),
    amount: money.meta({ description: 'What the link pays now, by the company’s rule' }),
    kind: z.string().meta({ description: 'deposit, full or hold' }),
  })
  .meta({ id: 'PaymentLink' });
export type PaymentLink = z.infer<typeof paymentLinkSchema>;

export const paymentCheckoutSchema = z
  .object({ checkoutUrl: z.string().meta({ description: 'The checkout on the company’s own payment account: open it in the browser' }) })
  .meta({ id: 'PaymentCheckout' });
export type QuoteLinkView = z.infer<typeof quoteLinkViewSchema>;

export const missedCallSchema = z
  .object({
    caller: z.string().meta({ description: 'E.164' }),
    callStatus: z.string(),
    texted: z.boolean().meta({ description: 'The caller was texted the quote page (once a number a UK day)' }),
    createdAt: z.string(),
  })
  .meta({ id: 'MissedCall' });
export const missedCallListSchema = z.array(missedCallSchema);
export type MissedCall = z.infer<typeof missedCallSchema>;
