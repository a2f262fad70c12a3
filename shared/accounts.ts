// Trade accounts (docs/product.md §26): the account, its rate card, a job on account, the monthly
// invoice, its payments and credit notes, and the answers the portal reads. Written once for the
// server's validation and the portal's forms; every message here is the product's own.
import { z } from 'zod';
import { normaliseRegistration, REGISTRATION_INVALID, mobileE164, MOBILE_INVALID } from './booking-schemas';
import { VAT_NUMBER_INVALID } from './documents';
import { emailField, isCleanText, forbiddenCharacterMessage } from './schemas';

export const ACCOUNT_NOT_FOUND = 'No account of yours has this id';
export const INVOICE_NOT_FOUND = 'No account invoice of yours has this number';
export const PO_REQUIRED = 'This account needs a purchase-order number on every job';
export const creditLimitMessage = (account: string, limit: string, owed: string) =>
  `This job takes ${account} over its credit limit of ${limit} (${owed} owed with it). Confirm to book it anyway.`;
export const QUOTE_NOT_FOR_ACCOUNT = 'This quote was not priced for this account. Price it on the account first.';
/** A quote priced for a trade account, booked or texted as anyone's: the account's rates go only on the account. */
export const QUOTE_ON_ACCOUNT = 'This price is a trade account’s: it is booked on the account by the company. Call them to book.';
export const OVER_BALANCE = 'More than is left to pay on this invoice';
export const CREDIT_OVER_BALANCE = 'More than is left to credit on this invoice';
export const NOTHING_TO_INVOICE = 'No completed jobs left to invoice for this month';
export const XERO_NOT_CONFIGURED = 'Xero is not set up on this server: set XERO_CLIENT_ID and XERO_CLIENT_SECRET';
export const XERO_NOT_CONNECTED = 'Xero is not connected: connect your Xero organisation under The books first';
export const XERO_STATE_INVALID = 'This Xero connection was started elsewhere, has expired or was used already. Connect Xero again.';
export const XERO_CALLBACK_INCOMPLETE = 'Xero sent back no state or no code. Connect Xero again.';
export const XERO_REFUSED = 'Xero refused the connection. Connect Xero again.';
export const XERO_NO_ORGANISATION = 'Xero gave access to no organisation. Connect Xero again and choose your organisation.';
export const XERO_RECONNECT = 'Xero no longer accepts this connection: connect Xero again.';
/** The contact a company's card jobs are invoiced to in its Xero organisation. */
export const XERO_CARD_CONTACT = 'Card customers';
export const DELIVERY_NOTE_TITLE = 'Delivery note';

/** An account's code for the books: what its sales are coded to in Xero or QuickBooks (200, 4000, SALES-TRADE). */
const ACCOUNT_CODE = /^[A-Za-z0-9][A-Za-z0-9 ._-]{0,29}$/;
const VAT_NUMBER = /^GB(?:\d{9}|\d{12}|GD\d{3}|HA\d{3})$/;
const hasAtMost2dp = (n: number) => Math.abs(n * 100 - Math.round(n * 100)) < 1e-6;

const text = (label: string, max: number, multiline = false) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .refine((v) => isCleanText(v, multiline), forbiddenCharacterMessage(label));

const pounds = (label: string) =>
  z
    .number({ error: `${label} must be an amount in pounds` })
    .finite(`${label} must be an amount in pounds`)
    .min(0, `${label} must not be negative`)
    .max(100_000, `${label} must be at most £100,000`)
    .refine(hasAtMost2dp, `${label}: use at most 2 decimal places`);

const positivePounds = (label: string) => pounds(label).refine((v) => v > 0, `${label} must be more than £0`);

const cardRows = (label: string) =>
  z
    .array(z.object({ name: text(`${label} name`, 60).min(1, `${label} name is required`), price: pounds(`${label} price`) }), {
      error: `${label} prices must be a list`,
    })
    .max(50, `At most 50 ${label.toLowerCase()} prices`);

/** What the account pays differently from the company's prices; absent fields are the company's own. */
export const rateCardSchema = z.object({
  callOutFee: pounds('Call-out fee').optional(),
  mileRate: pounds('Per-mile rate').optional(),
  labourRate: pounds('Labour rate').optional(),
  vehicleTypes: cardRows('Vehicle type').optional(),
  gearboxTypes: cardRows('Gearbox type').optional(),
  rollingStatusTypes: cardRows('Rolling status').optional(),
  surcharges: cardRows('Surcharge').optional(),
  percentOff: z
    .number({ error: 'Percentage off must be a number' })
    .min(0, 'Percentage off must be at least 0')
    .max(100, 'Percentage off must be at most 100')
    .refine(hasAtMost2dp, 'Percentage off: use at most 2 decimal places')
    .optional(),
});
export type RateCardInput = z.input<typeof rateCardSchema>;

const accountFields = {
  name: text('Account name', 120).min(1, 'Account name is required'),
  billingAddress: text('Billing address', 300, true)
    .transform((v) => v || null)
    .nullable()
    .optional(),
  email: emailField,
  vatNumber: z
    .string({ error: VAT_NUMBER_INVALID })
    .transform((v) => v.replace(/\s+/g, '').toUpperCase())
    .refine((v) => v === '' || VAT_NUMBER.test(v), VAT_NUMBER_INVALID)
    .transform((v) => v || null)
    .nullable()
    .optional(),
  paymentTermsDays: z
    .number({ error: 'Payment terms must be a number of days' })
    .int('Payment terms must be a whole number of days')
    .min(0, 'Payment terms must be at least 0 days')
    .max(120, 'Payment terms cannot exceed 120 days'),
  /** Pounds; null: no limit. */
  creditLimit: pounds('Credit limit').nullable(),
  poRequired: z.boolean({ error: 'PO required must be true or false' }),
  accountCode: z
    .string({ error: 'Account code is required' })
    .trim()
    .min(1, 'Account code is required')
    .regex(ACCOUNT_CODE, 'Account code: up to 30 letters, digits, spaces, dots, dashes or underscores'),
  deliveryNotePrices: z.boolean({ error: 'Prices on delivery notes must be true or false' }),
  rateCard: rateCardSchema.nullable(),
};

export const accountCreateSchema = z.object({
  ...accountFields,
  paymentTermsDays: accountFields.paymentTermsDays.default(30),
  creditLimit: accountFields.creditLimit.optional(),
  poRequired: accountFields.poRequired.default(false),
  deliveryNotePrices: accountFields.deliveryNotePrices.default(true),
  rateCard: accountFields.rateCard.optional(),
});
export type AccountCreate = z.input<typeof accountCreateSchema>;
export const accountUpdateSchema = z.object(accountFields).partial();
export type AccountUpdate = z.input<typeof accountUpdateSchema>;

export const accountJobSchema = z.object({
  quoteId: z.string({ error: 'Quote is required' }).max(20, 'Quote not found'),
  poNumber: text('PO number', 40)
    .transform((v) => v || undefined)
    .optional(),
  name: text('Contact name', 80).min(1, 'Contact name is required'),
  /** The contact at the vehicle, if any: texted the job's updates as a motorist is. */
  phone: z
    .string({ error: MOBILE_INVALID })
    .trim()
    .max(30, MOBILE_INVALID)
    .refine((v) => v === '' || mobileE164(v) !== undefined, MOBILE_INVALID)
    .transform((v) => (v === '' ? undefined : (mobileE164(v) ?? v)))
    .optional(),
  registration: z
    .string({ error: 'Registration is required' })
    .trim()
    .min(1, 'Registration is required')
    .max(12, REGISTRATION_INVALID)
    .refine((v) => normaliseRegistration(v) !== undefined, REGISTRATION_INVALID)
    .transform((v) => normaliseRegistration(v) ?? v),
  note: text('Note', 500, true).optional(),
  /** The operator saw the credit-limit warning and books it anyway. */
  confirmOverLimit: z.boolean({ error: 'Confirm must be true or false' }).optional(),
});
export type AccountJobRequest = z.input<typeof accountJobSchema>;

export const invoiceRunSchema = z.object({
  /** YYYY-MM; absent: last month (UK time). */
  month: z
    .string({ error: 'Month must be YYYY-MM' })
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'Month must be YYYY-MM')
    .optional(),
  /** Only this account; absent: every account with jobs to invoice. */
  accountId: z.number({ error: 'Account must be a number' }).int().positive().optional(),
});

export const accountPaymentSchema = z.object({
  amount: positivePounds('Amount'),
  paidOn: z
    .string({ error: 'Paid on must be a date' })
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'Paid on must be YYYY-MM-DD')
    .optional(),
  reference: text('Reference', 60).optional(),
});

export const accountCreditSchema = z.object({
  amount: positivePounds('Amount'),
  reason: text('Reason', 120).min(1, 'Reason is required'),
});

// ---------------------------------------------------------------------------- answers

const rateCardOut = z.object({
  callOutFee: z.number().optional(),
  mileRate: z.number().optional(),
  labourRate: z.number().optional(),
  vehicleTypes: z.array(z.object({ name: z.string(), price: z.number() })).optional(),
  gearboxTypes: z.array(z.object({ name: z.string(), price: z.number() })).optional(),
  rollingStatusTypes: z.array(z.object({ name: z.string(), price: z.number() })).optional(),
  surcharges: z.array(z.object({ name: z.string(), price: z.number() })).optional(),
  percentOff: z.number().optional(),
});

export const accountSchema = z
  .object({
    id: z.number(),
    name: z.string(),
    billingAddress: z.string().nullable(),
    email: z.string(),
    vatNumber: z.string().nullable(),
    paymentTermsDays: z.number(),
    creditLimit: z.number().nullable().meta({ description: 'Pounds; null: no limit' }),
    poRequired: z.boolean(),
    accountCode: z.string(),
    deliveryNotePrices: z.boolean(),
    rateCard: rateCardOut.nullable(),
    owed: z.number().meta({ description: 'Pounds: jobs not yet invoiced plus what its invoices have left to pay' }),
  })
  .meta({ id: 'TradeAccount' });
export type Account = z.infer<typeof accountSchema>;
export const accountListSchema = z.array(accountSchema);

export const accountJobCreatedSchema = z
  .object({
    reference: z.string(),
    status: z.string(),
    poNumber: z.string().nullable(),
    overLimit: z.boolean(),
    price: z.number(),
    jobUrl: z.string().meta({ description: 'The status page (its token is not stored; give it to the contact now)' }),
  })
  .meta({ id: 'AccountJob' });

export const accountInvoiceSchema = z
  .object({
    number: z.string(),
    title: z.string(),
    account: z.string(),
    accountId: z.number(),
    period: z.string(),
    issuedAt: z.string(),
    dueDate: z.string(),
    total: z.number(),
    vat: z.number(),
    credited: z.number(),
    paid: z.number(),
    balance: z.number(),
    overdue: z.boolean(),
    jobs: z.number(),
  })
  .meta({ id: 'AccountInvoice' });
export type AccountInvoice = z.infer<typeof accountInvoiceSchema>;
export const accountInvoiceListSchema = z.array(accountInvoiceSchema);

export const statementSchema = z
  .object({
    account: z.string(),
    asOf: z.string(),
    invoices: accountInvoiceListSchema,
    open: z.number().meta({ description: 'Pounds left to pay on issued invoices' }),
    overdue: z.number().meta({ description: 'Of which past their due date' }),
    uninvoiced: z.number().meta({ description: 'Pounds of jobs on account not yet invoiced' }),
  })
  .meta({ id: 'AccountStatement' });
export type Statement = z.infer<typeof statementSchema>;

export const xeroSyncSchema = z
  .object({
    contacts: z.number(),
    invoices: z.number(),
    creditNotes: z.number(),
    payments: z.number(),
    cardJobs: z.number().meta({ description: 'Jobs paid by card sent as invoices' }),
    cardPayments: z.number().meta({ description: 'Card payments (at booking, and balances by card) sent as payments' }),
    refunds: z.number().meta({ description: 'Refunds of card payments sent as credit notes paid out' }),
  })
  .meta({ id: 'XeroSync' });
export type XeroSync = z.infer<typeof xeroSyncSchema>;

const bankAccountCode = z
  .string({ error: 'Bank account code is required' })
  .trim()
  .regex(ACCOUNT_CODE, 'Enter the code of a bank account in Xero, like 090')
  .optional();

/** Connecting Xero: optionally the bank account (its code in Xero) payments are recorded into. */
export const xeroConnectSchema = z.object({ bankAccountCode }).meta({ id: 'XeroConnect' });
export const xeroConnectUrlSchema = z
  .object({ url: z.string().meta({ description: 'Xero’s consent page: the browser goes there' }) })
  .meta({ id: 'XeroConnectUrl' });

export const xeroStatusSchema = z
  .object({
    configured: z.boolean().meta({ description: 'XERO_CLIENT_ID and XERO_CLIENT_SECRET are set on the server' }),
    connected: z.boolean(),
    organisation: z.string().nullable().meta({ description: 'The Xero organisation connected' }),
    connectedAt: z.string().nullable(),
    bankAccountCode: z.string().nullable(),
    salesAccountCode: z.string().nullable(),
    lastSyncAt: z.string().nullable(),
    lastError: z.string().nullable().meta({ description: 'Why the last sync failed, until one succeeds' }),
    lastErrorAt: z.string().nullable(),
  })
  .meta({ id: 'XeroStatus' });
export type XeroStatus = z.infer<typeof xeroStatusSchema>;
