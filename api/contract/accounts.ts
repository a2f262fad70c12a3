// Trade accounts (docs/product.md §26): the operator's account customers with their rate cards,
// quotes and jobs put on an account, the monthly invoices with their payments and credit notes,
// the statement, and the books (CSV exports in Xero's and QuickBooks Online's import columns, and
// the sync to Xero's Accounting API). Every route is the signed-in operator's, scoped to their
// company: the office (owner and dispatcher) lists accounts and quotes and books jobs on them; the
// account's terms, its invoices, payments and statements, and the books are the owner's.
import {
  accountCreateSchema,
  accountCreditSchema,
  accountInvoiceListSchema,
  accountInvoiceSchema,
  accountJobCreatedSchema,
  accountJobSchema,
  accountListSchema,
  accountPaymentSchema,
  accountSchema,
  accountUpdateSchema,
  invoiceRunSchema,
  statementSchema,
  xeroConnectSchema,
  xeroConnectUrlSchema,
  xeroStatusSchema,
  xeroSyncSchema,
} from '#shared/accounts';
import { quoteRequestSchema } from '#shared/schemas';
import { quoteResponseSchema } from '#shared/responses';
import { OFFICE, OWNER } from '#shared/roles';
import { body, error, json, parameter, route } from './define';

const idParameter = parameter('id', 'path', 'The account’s id', '7');
const numberParameter = parameter('number', 'path', 'The invoice’s number, as printed (000012)', '000012');
const accountMissing = error('No account of this company has this id: `code` NOT_FOUND');
const invoiceMissing = error('No invoice of this account has this number: `code` NOT_FOUND');
const pdf = (what: string) => ({
  description: `${what} as a PDF (Content-Disposition: attachment)`,
  content: { 'application/pdf': { schema: { type: 'string' as const, format: 'binary' } } },
});
const ACCOUNT_EXAMPLE = {
  name: 'Leeds Motors',
  billingAddress: '12 Kirkstall Road\nLeeds LS3 1LH',
  email: 'accounts@leedsmotors.example',
  vatNumber: 'GB123456789',
  paymentTermsDays: 30,
  creditLimit: 2000,
  poRequired: true,
  accountCode: '200',
  deliveryNotePrices: false,
  rateCard: { callOutFee: 45, percentOff: 0 },
};

export const accounts = {
  list: route({
    method: 'get',
    path: '/api/accounts',
    'x-access': 'operator',
    'x-roles': OFFICE,
    tags: ['Accounts'],
    summary: 'The operator’s trade accounts, by name, each with what it owes',
    responses: { 200: json(accountListSchema, 'The accounts') },
  }),
  create: route({
    method: 'post',
    path: '/api/accounts',
    'x-access': 'operator',
    'x-roles': OWNER,
    tags: ['Accounts'],
    summary: 'Adds a trade account: billing details, terms, credit limit, whether a PO is required, its code for the books and its rate card',
    request: { body: body(accountCreateSchema, ACCOUNT_EXAMPLE) },
    responses: { 201: json(accountSchema, 'The account') },
  }),
  update: route({
    method: 'put',
    path: '/api/accounts/{id}',
    'x-access': 'operator',
    'x-roles': OWNER,
    tags: ['Accounts'],
    summary: 'Changes the given fields of an account; `rateCard` null goes back to the company’s prices. Invoices issued keep what they printed',
    parameters: [idParameter],
    request: { body: body(accountUpdateSchema, { paymentTermsDays: 14 }) },
    responses: { 200: json(accountSchema, 'The account'), 404: accountMissing },
  }),
  quote: route({
    method: 'post',
    path: '/api/accounts/{id}/quotes',
    'x-access': 'operator',
    'x-roles': OFFICE,
    tags: ['Accounts'],
    summary: 'Prices a job for the account: the company’s prices with the account’s rate card laid over them, each changed line marked “(account rate)”',
    description:
      'The body is the quote request (`companyId` and `companySlug` are ignored: the company is the signed-in one). The quote is stored, tied to the account, and may then be booked on it.',
    parameters: [idParameter],
    request: {
      body: body(quoteRequestSchema, {
        pickupPostcode: 'M1 1AE',
        destinationPostcode: 'M4 4BF',
        vehicleType: 'car',
        gearboxType: 'manual',
        rollingStatus: 'rolling',
        passengerCount: 0,
        problemType: 'other',
        urgency: 'immediate',
      }),
    },
    responses: {
      200: json(quoteResponseSchema, 'The quote on the account’s rates'),
      404: accountMissing,
      422: error('A postcode our data does not know, or a pickup beyond the maximum radius'),
    },
  }),
  book: route({
    method: 'post',
    path: '/api/accounts/{id}/jobs',
    'x-access': 'operator',
    'x-roles': OFFICE,
    tags: ['Accounts'],
    summary:
      'Books a quote priced for the account as a job on account: no card is taken, the PO number is kept, and it runs through the Jobs list, driver and status pages',
    description:
      'A missing PO on an account that requires one: 400 PO_REQUIRED under `fields.poNumber`. A job that takes the account past its credit limit: 409 CREDIT_LIMIT_EXCEEDED until sent again with `confirmOverLimit: true`, when it is booked and recorded as over the limit.',
    parameters: [idParameter],
    request: {
      body: body(accountJobSchema, { quoteId: 'TQ-KJAECF76R', poNumber: 'PO-4411', name: 'Sam at Leeds Motors', registration: 'AB12 CDE' }),
    },
    responses: {
      201: json(accountJobCreatedSchema, 'Booked on account'),
      404: error('No account of this company has this id, or no quote of it has this reference'),
      409: error(
        'Over the credit limit and not confirmed (CREDIT_LIMIT_EXCEEDED), the quote is booked already (ALREADY_BOOKED), or it was not priced for this account (QUOTE_NOT_FOR_ACCOUNT)',
      ),
    },
  }),
  statement: route({
    method: 'get',
    path: '/api/accounts/{id}/statement',
    'x-access': 'operator',
    'x-roles': OWNER,
    tags: ['Accounts'],
    summary: 'The account’s statement: its invoices with what is paid, credited and left, what is overdue, and jobs not yet invoiced',
    parameters: [idParameter],
    responses: { 200: json(statementSchema, 'The statement'), 404: accountMissing },
  }),
  statementPdf: route({
    method: 'get',
    path: '/api/accounts/{id}/statement/pdf',
    'x-access': 'operator',
    'x-roles': OWNER,
    tags: ['Accounts'],
    summary: 'The account’s statement as a PDF',
    parameters: [idParameter],
    responses: { 200: pdf('The statement'), 404: accountMissing },
  }),
  invoicePdf: route({
    method: 'get',
    path: '/api/accounts/{id}/invoices/{number}/pdf',
    'x-access': 'operator',
    'x-roles': OWNER,
    tags: ['Accounts'],
    summary: 'One of the account’s invoices or credit notes as a PDF',
    parameters: [idParameter, numberParameter],
    responses: { 200: pdf('The document'), 404: invoiceMissing },
  }),
  pay: route({
    method: 'post',
    path: '/api/accounts/{id}/invoices/{number}/payments',
    'x-access': 'operator',
    'x-roles': OWNER,
    tags: ['Accounts'],
    summary: 'Records a payment of the invoice, in full or in part; the statement follows',
    parameters: [idParameter, numberParameter],
    request: { body: body(accountPaymentSchema, { amount: 162, paidOn: '2026-12-20', reference: 'BACS 881' }) },
    responses: {
      200: json(accountInvoiceSchema, 'The invoice after the payment'),
      400: error('Not an amount, or more than is left to pay (OVER_BALANCE under `fields.amount`)'),
      404: invoiceMissing,
    },
  }),
  credit: route({
    method: 'post',
    path: '/api/accounts/{id}/invoices/{number}/credit-notes',
    'x-access': 'operator',
    'x-roles': OWNER,
    tags: ['Accounts'],
    summary: 'Issues a credit note against the invoice (a correction): numbered in the company’s sequence and mailed to the account',
    parameters: [idParameter, numberParameter],
    request: { body: body(accountCreditSchema, { amount: 12, reason: 'Waiting time charged twice' }) },
    responses: {
      201: json(accountInvoiceSchema, 'The invoice after the credit'),
      400: error('Not an amount, or more than is left to credit (OVER_BALANCE under `fields.amount`)'),
      404: invoiceMissing,
    },
  }),
  invoices: route({
    method: 'get',
    path: '/api/account-invoices',
    'x-access': 'operator',
    'x-roles': OWNER,
    tags: ['Accounts'],
    summary: 'Every account invoice of the company, newest first',
    responses: { 200: json(accountInvoiceListSchema, 'The invoices') },
  }),
  runInvoices: route({
    method: 'post',
    path: '/api/account-invoices/run',
    'x-access': 'operator',
    'x-roles': OWNER,
    tags: ['Accounts'],
    summary: 'The month-end run on demand: one invoice per account of its completed jobs not yet invoiced up to the month’s end, each mailed with its PDF',
    request: { body: body(invoiceRunSchema, { month: '2026-11' }) },
    responses: {
      201: json(accountInvoiceListSchema, 'The invoices issued'),
      404: accountMissing,
      409: error('No completed jobs left to invoice for the month (NOTHING_TO_INVOICE)'),
    },
  }),
  exportBooks: route({
    method: 'get',
    path: '/api/books/export',
    'x-access': 'operator',
    'x-roles': OWNER,
    tags: ['Accounts'],
    summary: 'Invoices and credit notes (Xero’s sales invoice import or QuickBooks Online’s invoice import), or payments, as a CSV file, streamed',
    description:
      '`format`: `xero` (default) or `quickbooks`; `kind`: `invoices` (default) or `payments` (account payments and the card payments taken at booking); `month`: YYYY-MM of issue, absent for all.',
    parameters: [
      parameter('format', 'query', '`xero` or `quickbooks`', 'xero'),
      parameter('kind', 'query', '`invoices` or `payments`', 'invoices'),
      parameter('month', 'query', 'YYYY-MM: only what was issued or paid in it', '2026-11'),
    ],
    responses: {
      200: { description: 'The CSV file (Content-Disposition: attachment)', content: { 'text/csv': { schema: { type: 'string' as const } } } },
      400: error('An unknown format, kind or month'),
    },
  }),
  xeroSync: route({
    method: 'post',
    path: '/api/books/xero-sync',
    'x-access': 'operator',
    'x-roles': OWNER,
    tags: ['Accounts'],
    summary:
      'Sends what the company’s Xero organisation does not have yet: account contacts, invoices, credit notes and payments, and the jobs paid by card with their payments and refunds (the sync also runs every few minutes)',
    responses: {
      200: json(xeroSyncSchema, 'What was sent'),
      409: error('Xero is not set up on the server (XERO_NOT_CONFIGURED) or not connected by this company (XERO_NOT_CONNECTED)'),
      503: error('Xero could not be reached or refused (XERO_UNAVAILABLE): what was sent before stays sent, and the owner sees why'),
    },
  }),
  xeroStatus: route({
    method: 'get',
    path: '/api/books/xero',
    'x-access': 'operator',
    'x-roles': OWNER,
    tags: ['Accounts'],
    summary: 'The company’s Xero connection: whether Xero is set up on the server, the organisation connected, and the last sync’s failure if any',
    responses: { 200: json(xeroStatusSchema, 'The connection') },
  }),
  xeroConnect: route({
    method: 'post',
    path: '/api/books/xero/connect',
    'x-access': 'operator',
    'x-roles': OWNER,
    tags: ['Accounts'],
    summary:
      'Starts connecting the company’s own Xero organisation: Xero’s consent page with a single-use state (10 minutes), to which the browser goes; Xero sends it back to the callback',
    request: { body: body(xeroConnectSchema, { bankAccountCode: '090' }) },
    responses: {
      200: json(xeroConnectUrlSchema, 'Where the browser goes'),
      409: error('Xero is not set up on the server (XERO_NOT_CONFIGURED)'),
    },
  }),
  xeroCallback: route({
    method: 'get',
    path: '/api/books/xero/callback',
    'x-access': 'operator',
    'x-roles': OWNER,
    tags: ['Accounts'],
    summary:
      'Where Xero sends the owner back: the state must be one this company started, unexpired and unused; the code is exchanged for tokens, the organisation taken from Xero’s connections, and the browser sent to the Accounts tab',
    parameters: [
      parameter('state', 'query', 'The state the connect step made', 'k3J…'),
      parameter('code', 'query', 'Xero’s authorisation code', 'a1b2c3'),
      parameter('error', 'query', 'Xero’s refusal (the owner cancelled): nothing is connected', 'access_denied'),
    ],
    responses: {
      302: { description: 'To /dashboard?tab=accounts&xero=connected (or xero=cancelled)' },
      400: error('No state or code, or a state unknown, expired, used or another company’s (XERO_STATE_INVALID): nothing changed'),
      409: error('Xero is not set up on the server (XERO_NOT_CONFIGURED), or Xero refused the code or gave no organisation (XERO_REFUSED)'),
      503: error('Xero could not be reached (XERO_UNAVAILABLE): nothing connected'),
    },
  }),
  xeroDisconnect: route({
    method: 'delete',
    path: '/api/books/xero',
    'x-access': 'operator',
    'x-roles': OWNER,
    tags: ['Accounts'],
    summary: 'Disconnects the company’s Xero organisation: its refresh token is revoked at Xero and forgotten here; what was sent stays in Xero',
    responses: {
      200: json(xeroStatusSchema, 'The connection, now disconnected'),
      409: error('Xero is not set up on the server (XERO_NOT_CONFIGURED)'),
    },
  }),
};
