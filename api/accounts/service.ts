// Trade accounts' rules (docs/product.md §26): the accounts and their rate cards, quotes priced on
// an account (the quote service with the card laid over the company's prices: one engine), jobs
// on account (the bookings' own path, with the PO and the credit limit checked in its
// transaction), the month-end invoices numbered in the company's document sequence and mailed
// with their PDF through the outbox, payments and credit notes against them, and the statement.
import {
  ACCOUNT_NOT_FOUND,
  CREDIT_OVER_BALANCE,
  creditLimitMessage,
  INVOICE_NOT_FOUND,
  NOTHING_TO_INVOICE,
  OVER_BALANCE,
  PO_REQUIRED,
  QUOTE_NOT_FOR_ACCOUNT,
  type Account,
  type AccountInvoice,
  type Statement,
} from '#shared/accounts';
import type { z } from 'zod';
import type { accountCreateSchema, accountCreditSchema, accountJobSchema, accountPaymentSchema, accountUpdateSchema, rateCardSchema } from '#shared/accounts';
import { DOCUMENT_TITLES, documentNumber } from '#shared/documents';
import { formatPence, penceToPounds, poundsToPence } from '#shared/money';
import { ACCOUNT_MAIL_KIND, readReference } from '#shared/leads';
import { addDays, londonDate, londonMidnight } from '../engine/calendar/uk-calendar';
import type { RateCard } from '../engine/pricing/rate-card';
import { findCompanyById } from '../company/store';
import { getPricing } from '../company/pricing-store';
import { findUserByCompanyId } from '../auth/store';
import type { BookingService } from '../bookings/service';
import { quoteForBooking } from '../bookings/store';
import { insertDocument, type DocumentRow } from '../documents/store';
import { documentLines, creditLine, totalsOf, type DocumentLine, type QuoteLine } from '../documents/vat';
import { printedDate, renderDocumentPdf, type DocumentDetails, type PrintableDocument } from '../documents/pdf';
import { printable } from '../documents/service';
import { insertOutboxRows, type NewOutboxRow } from '../mail/store';
import { write } from '../platform/db/write';
import type { AppDeps } from '../platform/deps';
import { Conflict, NotFound, ValidationFailed } from '../platform/errors';
import { createQuoteService, type ValidQuoteRequest } from '../quotes/quote-service';
import {
  accountDocument,
  accountJobOf,
  accountOf,
  accountOfQuote,
  accountsOf,
  accountsWithJobsToInvoice,
  addPayment,
  insertAccount,
  insertAccountInvoice,
  insertAccountJob,
  invoiceByDocument,
  invoiceByNumber,
  invoicesOfAccount,
  invoicesOfCompany,
  jobsToInvoice,
  linkQuote,
  markInvoiced,
  openInvoicePence,
  uninvoicedPence,
  updateAccount,
  type AccountRow,
  type InvoiceWithTotals,
  type JobToInvoice,
} from './store';

type AccountCreate = z.output<typeof accountCreateSchema>;
type AccountUpdate = z.output<typeof accountUpdateSchema>;
type RateCardBody = z.output<typeof rateCardSchema>;
type AccountJobBody = z.output<typeof accountJobSchema>;

/** Mails of account documents one company may send in a UK day: a month-end run and its corrections, not a mailing list. */
export const ACCOUNT_MAILS_PER_DAY = 200;
export { ACCOUNT_MAIL_KIND };
export const NOT_SENT_UNVERIFIED = 'not sent: the owner’s account is not verified yet';
export const NOT_SENT_DAILY_LIMIT = 'not sent: daily limit of account mails reached';

const parse = <T>(json: string): T => JSON.parse(json) as T;
/** A path's id: digits only, else the same 404 as a missing row. */
const idOf = (typed: string): number | null => (/^\d{1,9}$/.test(typed) ? Number(typed) : null);
const monthName = (period: string) =>
  new Intl.DateTimeFormat('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${period}-15T12:00:00Z`));

/** The card as the engine takes it, in pence; as stored (JSON) too. */
function cardToPence(card: RateCardBody): RateCard {
  const rows = (list?: { name: string; price: number }[]) => list?.map((r) => ({ name: r.name, pricePence: poundsToPence(r.price) }));
  return {
    ...(card.callOutFee !== undefined ? { callOutFeePence: poundsToPence(card.callOutFee) } : {}),
    ...(card.mileRate !== undefined ? { mileRatePence: poundsToPence(card.mileRate) } : {}),
    ...(card.labourRate !== undefined ? { labourRatePence: poundsToPence(card.labourRate) } : {}),
    ...(card.vehicleTypes ? { vehicleTypes: rows(card.vehicleTypes) } : {}),
    ...(card.gearboxTypes ? { gearboxTypes: rows(card.gearboxTypes) } : {}),
    ...(card.rollingStatusTypes ? { rollingStatusTypes: rows(card.rollingStatusTypes) } : {}),
    ...(card.surcharges ? { surcharges: rows(card.surcharges) } : {}),
    ...(card.percentOff !== undefined ? { percentOff: card.percentOff } : {}),
  };
}

function cardToPounds(card: RateCard): Account['rateCard'] {
  const rows = (list?: { name: string; pricePence: number }[]) => list?.map((r) => ({ name: r.name, price: penceToPounds(r.pricePence) }));
  return {
    ...(card.callOutFeePence !== undefined ? { callOutFee: penceToPounds(card.callOutFeePence) } : {}),
    ...(card.mileRatePence !== undefined ? { mileRate: penceToPounds(card.mileRatePence) } : {}),
    ...(card.labourRatePence !== undefined ? { labourRate: penceToPounds(card.labourRatePence) } : {}),
    ...(card.vehicleTypes ? { vehicleTypes: rows(card.vehicleTypes) } : {}),
    ...(card.gearboxTypes ? { gearboxTypes: rows(card.gearboxTypes) } : {}),
    ...(card.rollingStatusTypes ? { rollingStatusTypes: rows(card.rollingStatusTypes) } : {}),
    ...(card.surcharges ? { surcharges: rows(card.surcharges) } : {}),
    ...(card.percentOff !== undefined ? { percentOff: card.percentOff } : {}),
  };
}

/** One job's line on the account's invoice: its quote's frozen lines summed into net, VAT and gross. */
export function jobLine(job: JobToInvoice): DocumentLine {
  const lines = documentLines({
    lines: job.lines ? parse<QuoteLine[]>(job.lines) : null,
    totalPence: job.totalPence,
    vatPence: job.vatPence,
    vatRatePercent: job.vatRatePercent,
  });
  const net = lines.reduce((a, l) => a + l.netPence, 0);
  const vat = lines.reduce((a, l) => a + l.vatPence, 0);
  const po = job.poNumber ? ` · PO ${job.poNumber}` : '';
  return {
    label: `TQ-${job.reference} · ${printedDate(londonDate(new Date(job.finishedAt)))}${po}`,
    detail: `${job.registration} (${job.vehicleType}) · ${job.pickupPostcode} to ${job.destinationPostcode}`,
    netPence: net,
    vatRatePercent: vat > 0 ? job.vatRatePercent : 0,
    vatPence: vat,
    grossPence: net + vat,
  };
}

export interface AccountServiceDeps extends Pick<AppDeps, 'db' | 'config' | 'now' | 'logger' | 'companyCache' | 'distance' | 'events'> {
  bookings: BookingService;
}

export function accountService(deps: AccountServiceDeps) {
  const { db, config, now, bookings } = deps;
  const quote = createQuoteService(deps);
  const mailReady = config.mail.smtpUrl !== undefined;

  function own(companyId: number, typed: string | number): AccountRow {
    const id = typeof typed === 'number' ? typed : idOf(typed);
    const account = id === null ? undefined : accountOf(db, companyId, id);
    if (!account) throw new NotFound(ACCOUNT_NOT_FOUND);
    return account;
  }

  const owedPence = (accountId: number) => uninvoicedPence(db, accountId) + openInvoicePence(db, accountId);

  const view = (a: AccountRow): Account => ({
    id: a.id,
    name: a.name,
    billingAddress: a.billingAddress,
    email: a.email,
    vatNumber: a.vatNumber,
    paymentTermsDays: a.paymentTermsDays,
    creditLimit: a.creditLimitPence === null ? null : penceToPounds(a.creditLimitPence),
    poRequired: a.poRequired,
    accountCode: a.accountCode,
    deliveryNotePrices: a.deliveryNotePrices,
    rateCard: a.rateCard ? cardToPounds(parse<RateCard>(a.rateCard)) : null,
    owed: penceToPounds(owedPence(a.id)),
  });

  const invoiceView = (i: InvoiceWithTotals, today: string): AccountInvoice => {
    const balance = Math.max(i.totalPence - i.creditedPence - i.paidPence, 0);
    return {
      number: documentNumber(i.number),
      title: DOCUMENT_TITLES[i.kind],
      account: i.accountName,
      accountId: i.accountId,
      period: i.period,
      issuedAt: i.issuedAt,
      dueDate: i.dueDate,
      total: penceToPounds(i.totalPence),
      vat: penceToPounds(parse<{ vatPence: number }>(i.totals).vatPence),
      credited: penceToPounds(i.creditedPence),
      paid: penceToPounds(i.paidPence),
      balance: penceToPounds(balance),
      overdue: balance > 0 && i.dueDate < today,
      // One line a job, as frozen: the count holds after retention has deleted the jobs themselves.
      jobs: parse<unknown[]>(i.lines).length,
    };
  };

  function ownInvoice(companyId: number, id: string, typed: string): { account: AccountRow; invoice: InvoiceWithTotals } {
    const account = own(companyId, id);
    const number = idOf(typed);
    const invoice = number === null ? undefined : invoiceByNumber(db, account.id, number);
    if (!invoice) throw new NotFound(INVOICE_NOT_FOUND);
    return { account, invoice };
  }

  /**
   * The account document's mail with its PDF, in the issuing transaction. Held (not sent) while
   * the owner's own address is unverified, and past the company's daily allowance of such mails.
   */
  function mailDocument(account: AccountRow, doc: DocumentRow, companyName: string, at: string): void {
    const title = DOCUMENT_TITLES[doc.kind];
    const owner = findUserByCompanyId(db, account.companyId);
    const verified = !owner || owner.emailVerifiedAt !== null;
    const day = londonDate(new Date(at));
    const sentToday = db.$client
      .prepare(`select count(*) from mail_outbox where company_id = ? and kind = ? and created_at >= ?`)
      .pluck()
      .get(account.companyId, ACCOUNT_MAIL_KIND, londonMidnight(day).toISOString()) as number;
    const withinAllowance = sentToday < ACCOUNT_MAILS_PER_DAY;
    const ready = verified && withinAllowance && mailReady;
    const number = documentNumber(doc.number);
    const total = formatPence(doc.totalPence);
    const text = `${title} ${number} from ${companyName} for ${account.name}: ${total}.\n\nThe ${title.toLowerCase()} is attached as a PDF.\n\n${companyName}`;
    const row: NewOutboxRow = {
      companyId: account.companyId,
      kind: ACCOUNT_MAIL_KIND,
      channel: 'email',
      dedupeKey: `account-document:${doc.id}`,
      to: account.email,
      subject: `${title} ${number} from ${companyName}`,
      text,
      html: `<p>${escapeHtml(`${title} ${number} from ${companyName} for ${account.name}: ${total}.`)}</p><p>The ${title.toLowerCase()} is attached as a PDF.</p><p>${escapeHtml(companyName)}</p>`,
      status: ready ? 'pending' : verified && withinAllowance ? 'unsent' : 'failed',
      attempts: 0,
      nextAttemptAt: ready ? at : null,
      lastError: !verified ? NOT_SENT_UNVERIFIED : !withinAllowance ? NOT_SENT_DAILY_LIMIT : ready ? null : 'not sent: no mail server configured',
      createdAt: at,
      documentId: doc.id,
    };
    insertOutboxRows(db, [row]);
  }

  function sellerOf(companyId: number, vatInvoice: boolean) {
    const company = findCompanyById(db, companyId);
    if (!company) throw new NotFound('Company not found');
    return {
      company,
      seller: {
        name: company.name,
        address: company.businessAddress,
        phone: company.phone,
        email: company.email,
        vatNumber: vatInvoice ? company.vatNumber : null,
      },
    };
  }

  /** Issues the account's invoice of its completed jobs finished before `endIso`, in one transaction with its number, its jobs marked and its mail. */
  async function issueInvoice(accountId: number, companyId: number, period: string, endIso: string): Promise<InvoiceWithTotals | undefined> {
    const documentId = await write(db, () => {
      const account = accountOf(db, companyId, accountId);
      // Read inside the transaction: a run at the same moment has taken them already.
      const jobs = account ? jobsToInvoice(db, accountId, endIso) : [];
      if (!account || jobs.length === 0) return undefined;
      const lines = jobs.map(jobLine);
      const totals = totalsOf(lines, 0);
      const vatInvoice = getPricing(db, companyId).vatRegistered && totals.vatPence > 0 && findCompanyById(db, companyId)?.vatNumber != null;
      const { company, seller } = sellerOf(companyId, vatInvoice);
      const at = now().toISOString();
      const issuedDay = londonDate(now());
      const dueDate = addDays(issuedDay, account.paymentTermsDays);
      const details: DocumentDetails = {
        seller,
        customerName: account.name,
        reference: '',
        registration: '',
        pickupPostcode: '',
        destinationPostcode: '',
        vehicleType: '',
        supplyDate: issuedDay,
        paidAs: null,
        original: null,
        account: {
          name: account.name,
          address: account.billingAddress,
          vatNumber: account.vatNumber,
          code: account.accountCode,
          dueDate,
          period: monthName(period),
        },
      };
      const doc = insertDocument(db, {
        companyId,
        bookingId: null,
        kind: vatInvoice ? 'vat_invoice' : 'invoice',
        originalId: null,
        issuedAt: at,
        totalPence: totals.grossPence,
        lines: JSON.stringify(lines),
        totals: JSON.stringify(totals),
        details: JSON.stringify(details),
      });
      insertAccountInvoice(db, { documentId: doc.id, companyId, accountId, period, dueDate });
      markInvoiced(
        db,
        jobs.map((j) => j.bookingId),
        doc.id,
      );
      mailDocument(account, doc, company.name, at);
      return doc.id;
    });
    if (documentId === undefined) return undefined;
    return invoiceByDocument(db, documentId);
  }

  /** The month's bounds: YYYY-MM and the first instant of the next month, UK time. */
  function monthBounds(month: string | undefined): { period: string; endIso: string } {
    const today = londonDate(now());
    const period = month ?? addDays(`${today.slice(0, 7)}-01`, -1).slice(0, 7);
    const [y, m] = period.split('-').map(Number);
    const next = m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, '0')}-01`;
    return { period, endIso: londonMidnight(next).toISOString() };
  }

  return {
    list(companyId: number): Account[] {
      return accountsOf(db, companyId).map(view);
    },

    async create(companyId: number, body: AccountCreate): Promise<Account> {
      const at = now().toISOString();
      const row = await write(db, () =>
        insertAccount(db, {
          companyId,
          name: body.name,
          billingAddress: body.billingAddress ?? null,
          email: body.email,
          vatNumber: body.vatNumber ?? null,
          paymentTermsDays: body.paymentTermsDays,
          creditLimitPence: body.creditLimit == null ? null : poundsToPence(body.creditLimit),
          poRequired: body.poRequired,
          accountCode: body.accountCode,
          deliveryNotePrices: body.deliveryNotePrices,
          rateCard: body.rateCard ? JSON.stringify(cardToPence(body.rateCard)) : null,
          createdAt: at,
          updatedAt: at,
        }),
      );
      return view(row);
    },

    async update(companyId: number, id: string, body: AccountUpdate): Promise<Account> {
      const account = own(companyId, id);
      const patch: Parameters<typeof updateAccount>[3] = {};
      if (body.name !== undefined) patch.name = body.name;
      if (body.billingAddress !== undefined) patch.billingAddress = body.billingAddress;
      if (body.email !== undefined) patch.email = body.email;
      if (body.vatNumber !== undefined) patch.vatNumber = body.vatNumber;
      if (body.paymentTermsDays !== undefined) patch.paymentTermsDays = body.paymentTermsDays;
      if (body.creditLimit !== undefined) patch.creditLimitPence = body.creditLimit === null ? null : poundsToPence(body.creditLimit);
      if (body.poRequired !== undefined) patch.poRequired = body.poRequired;
      if (body.accountCode !== undefined) patch.accountCode = body.accountCode;
      if (body.deliveryNotePrices !== undefined) patch.deliveryNotePrices = body.deliveryNotePrices;
      if (body.rateCard !== undefined) patch.rateCard = body.rateCard === null ? null : JSON.stringify(cardToPence(body.rateCard));
      if (Object.keys(patch).length === 0) return view(account);
      const row = await write(db, () => updateAccount(db, companyId, account.id, { ...patch, updatedAt: now().toISOString() }));
      if (!row) throw new NotFound(ACCOUNT_NOT_FOUND);
      return view(row);
    },

    /** The account's rate card for the quote service (none: the company's own prices); another company's account is a 404. */
    rateCardOf(companyId: number, id: number): RateCard {
      const account = own(companyId, id);
      return account.rateCard ? parse<RateCard>(account.rateCard) : {};
    },

    /** Ties a quote priced on the account's card to it, so it may be booked on it (inside the caller's write()). */
    tieQuote(companyId: number, id: number, quoteId: number): void {
      linkQuote(db, quoteId, own(companyId, id).id);
    },

    /** The account a quote was priced for, if any. */
    accountOfQuote(quoteId: number): number | undefined {
      return accountOfQuote(db, quoteId);
    },

    /** A quote on the account's rates, stored and tied to the account. */
    async quote(companyId: number, id: string, body: ValidQuoteRequest) {
      const account = own(companyId, id);
      const rateCard = account.rateCard ? parse<RateCard>(account.rateCard) : {};
      const answer = await quote({ ...body, companyId: undefined, companySlug: undefined }, { signedInCompanyId: companyId, rateCard });
      const stored = quoteForBooking(db, answer.quoteId);
      if (stored) await write(db, () => linkQuote(db, stored.id, account.id));
      return answer;
    },

    /** Books a quote priced for the account as a job on account (no card). */
    async book(companyId: number, id: string, body: AccountJobBody) {
      const account = own(companyId, id);
      if (account.poRequired && !body.poNumber) throw new ValidationFailed(PO_REQUIRED, { poNumber: PO_REQUIRED }, 'PO_REQUIRED');
      const reference = readReference(body.quoteId);
      const found = reference ? quoteForBooking(db, reference) : undefined;
      if (!found || found.companyId !== companyId) throw new NotFound('Quote not found');
      if (accountOfQuote(db, found.id) !== account.id) throw new Conflict(QUOTE_NOT_FOR_ACCOUNT, 'QUOTE_NOT_FOR_ACCOUNT');
      let overLimit = false;
      const { booking, jobUrl } = await bookings.bookOnAccount(found, body, (bookingId) => {
        // In the booking's transaction: two jobs at once cannot both slip under the limit.
        if (account.creditLimitPence !== null) {
          const owed = owedPence(account.id) + found.totalPricePence;
          if (owed > account.creditLimitPence) {
            if (!body.confirmOverLimit) {
              throw new Conflict(creditLimitMessage(account.name, formatPence(account.creditLimitPence), formatPence(owed)), 'CREDIT_LIMIT_EXCEEDED');
            }
            overLimit = true;
          }
        }
        insertAccountJob(db, { bookingId, companyId, accountId: account.id, poNumber: body.poNumber ?? null, overLimit });
      });
      return {
        reference: `TQ-${booking.reference}`,
        status: booking.status,
        poNumber: body.poNumber ?? null,
        overLimit,
        price: penceToPounds(booking.pricePence),
        jobUrl,
      };
    },

    /** The month-end run (or on demand): one invoice per account with completed jobs not yet invoiced up to the month's end. */
    async runInvoices(companyId: number | null, month?: string, accountId?: number): Promise<AccountInvoice[]> {
      const { period, endIso } = monthBounds(month);
      if (companyId !== null && accountId !== undefined) own(companyId, accountId);
      const due = accountsWithJobsToInvoice(db, companyId, endIso).filter((a) => accountId === undefined || a.id === accountId);
      const today = londonDate(now());
      const issued: AccountInvoice[] = [];
      for (const a of due) {
        const invoice = await issueInvoice(a.id, a.companyId, period, endIso);
        if (invoice) issued.push(invoiceView(invoice, today));
      }
      if (companyId !== null && issued.length === 0) throw new Conflict(NOTHING_TO_INVOICE, 'NOTHING_TO_INVOICE');
      return issued;
    },

    invoices(companyId: number): AccountInvoice[] {
      const today = londonDate(now());
      return invoicesOfCompany(db, companyId).map((i) => invoiceView(i, today));
    },

    async pay(companyId: number, id: string, typed: string, body: z.output<typeof accountPaymentSchema>): Promise<AccountInvoice> {
      const { account, invoice } = ownInvoice(companyId, id, typed);
      const amount = poundsToPence(body.amount);
      await write(db, () => {
        const current = invoiceByDocument(db, invoice.documentId);
        const left = current ? current.totalPence - current.creditedPence - current.paidPence : 0;
        if (amount > left) throw new ValidationFailed(OVER_BALANCE, { amount: OVER_BALANCE }, 'OVER_BALANCE');
        addPayment(db, {
          companyId,
          accountId: account.id,
          documentId: invoice.documentId,
          amountPence: amount,
          paidOn: body.paidOn ?? londonDate(now()),
          reference: body.reference || null,
          createdAt: now().toISOString(),
        });
      });
      const after = invoiceByDocument(db, invoice.documentId);
      if (!after) throw new NotFound(INVOICE_NOT_FOUND);
      return invoiceView(after, londonDate(now()));
    },

    async credit(companyId: number, id: string, typed: string, body: z.output<typeof accountCreditSchema>): Promise<AccountInvoice> {
      const { account, invoice } = ownInvoice(companyId, id, typed);
      const amount = poundsToPence(body.amount);
      await write(db, () => {
        const current = invoiceByDocument(db, invoice.documentId);
        const left = current ? current.totalPence - current.creditedPence - current.paidPence : 0;
        if (!current || amount > left) throw new ValidationFailed(CREDIT_OVER_BALANCE, { amount: CREDIT_OVER_BALANCE }, 'OVER_BALANCE');
        const originalLines = parse<DocumentLine[]>(current.lines);
        const originalTotals = parse<{ grossPence: number; vatPence: number }>(current.totals);
        const line = creditLine(
          body.reason,
          amount,
          current.creditedPence,
          originalTotals,
          originalLines.find((l) => l.vatRatePercent > 0)?.vatRatePercent ?? 0,
        );
        const originalDoc = accountDocument(db, account.id, current.number);
        const originalDetails = originalDoc ? parse<DocumentDetails>(originalDoc.details) : undefined;
        if (!originalDoc || !originalDetails) throw new NotFound(INVOICE_NOT_FOUND);
        const at = now().toISOString();
        const doc = insertDocument(db, {
          companyId,
          bookingId: null,
          kind: 'credit_note',
          originalId: current.documentId,
          issuedAt: at,
          totalPence: amount,
          lines: JSON.stringify([line]),
          totals: JSON.stringify(totalsOf([line], 0)),
          details: JSON.stringify({
            ...originalDetails,
            original: { title: DOCUMENT_TITLES[current.kind], number: current.number, issuedAt: current.issuedAt },
          } satisfies DocumentDetails),
        });
        mailDocument(account, doc, originalDetails.seller.name, at);
      });
      const after = invoiceByDocument(db, invoice.documentId);
      if (!after) throw new NotFound(INVOICE_NOT_FOUND);
      return invoiceView(after, londonDate(now()));
    },

    statement(companyId: number, id: string): Statement {
      const account = own(companyId, id);
      const today = londonDate(now());
      const invoices = invoicesOfAccount(db, account.id).map((i) => invoiceView(i, today));
      const open = invoices.reduce((a, i) => a + poundsToPence(i.balance), 0);
      const overdue = invoices.filter((i) => i.overdue).reduce((a, i) => a + poundsToPence(i.balance), 0);
      return {
        account: account.name,
        asOf: today,
        invoices,
        open: penceToPounds(open),
        overdue: penceToPounds(overdue),
        uninvoiced: penceToPounds(uninvoicedPence(db, account.id)),
      };
    },

    async statementPdf(companyId: number, id: string) {
      const account = own(companyId, id);
      const statement = this.statement(companyId, id);
      const { seller } = sellerOf(companyId, false);
      const lines: DocumentLine[] = statement.invoices
        .filter((i) => i.balance > 0)
        .map((i) => ({
          label: `${i.title} ${i.number} · issued ${printedDate(i.issuedAt)} · due ${printedDate(i.dueDate)}${i.overdue ? ' · OVERDUE' : ''}`,
          detail: `${formatPence(poundsToPence(i.total))} invoiced, ${formatPence(poundsToPence(i.credited))} credited, ${formatPence(poundsToPence(i.paid))} paid`,
          netPence: poundsToPence(i.balance),
          vatRatePercent: 0,
          vatPence: 0,
          grossPence: poundsToPence(i.balance),
        }));
      const doc: PrintableDocument = {
        kind: 'statement',
        number: 0,
        issuedAt: now().toISOString(),
        lines,
        // The statement's totals: what is left, and (in paidPence's place) what of it is overdue.
        totals: { netPence: 0, vatPence: 0, grossPence: 0, paidPence: poundsToPence(statement.overdue), balancePence: poundsToPence(statement.open) },
        details: {
          seller,
          customerName: null,
          reference: '',
          registration: '',
          pickupPostcode: '',
          destinationPostcode: '',
          vehicleType: '',
          supplyDate: statement.asOf,
          paidAs: null,
          original: null,
          account: {
            name: account.name,
            address: account.billingAddress,
            vatNumber: account.vatNumber,
            code: account.accountCode,
            dueDate: null,
            period: null,
          },
        },
      };
      return { bytes: await renderDocumentPdf(doc), filename: `statement-${account.accountCode.replaceAll(/[^A-Za-z0-9_-]/g, '-')}-${statement.asOf}.pdf` };
    },

    async documentPdf(companyId: number, id: string, typed: string) {
      const account = own(companyId, id);
      const number = idOf(typed);
      const row = number === null ? undefined : accountDocument(db, account.id, number);
      if (!row) throw new NotFound(INVOICE_NOT_FOUND);
      return {
        bytes: await renderDocumentPdf(printable(row)),
        filename: `${DOCUMENT_TITLES[row.kind].toLowerCase().replaceAll(' ', '-')}-${documentNumber(row.number)}.pdf`,
      };
    },

    /** A job on account's delivery note in place of a receipt, or undefined for a job not on account. */
    deliveryNote(bookingId: number): PrintableDocument | undefined {
      const job = accountJobOf(db, bookingId);
      if (!job) return undefined;
      const account = accountOf(db, job.companyId, job.accountId);
      const b = db.$client
        .prepare(
          `select b.status, b.finished_at as finishedAt, b.registration, b.price_pence as pricePence, q.public_id as reference, q.vehicle_type as vehicleType,
            q.pickup_postcode as pickupPostcode, q.destination_postcode as destinationPostcode, q.lines, q.vat_pence as vatPence, q.vat_rate_percent as vatRatePercent
           from bookings b join quotes q on q.id = b.quote_id where b.id = ?`,
        )
        .get(bookingId) as
        | (Pick<
            JobToInvoice,
            'registration' | 'reference' | 'vehicleType' | 'pickupPostcode' | 'destinationPostcode' | 'lines' | 'vatPence' | 'vatRatePercent'
          > & {
            status: string;
            finishedAt: string | null;
            pricePence: number;
          })
        | undefined;
      if (!account || !b || b.status !== 'completed') return undefined;
      const { seller } = sellerOf(job.companyId, false);
      const lines = documentLines({
        lines: b.lines ? parse<QuoteLine[]>(b.lines) : null,
        totalPence: b.pricePence,
        vatPence: b.vatPence,
        vatRatePercent: b.vatRatePercent,
      });
      const supplyDate = londonDate(b.finishedAt ? new Date(b.finishedAt) : now());
      return {
        kind: 'delivery_note',
        number: 0,
        issuedAt: b.finishedAt ?? now().toISOString(),
        lines,
        totals: totalsOf(lines, 0),
        details: {
          seller,
          customerName: null,
          reference: b.reference,
          registration: b.registration,
          pickupPostcode: b.pickupPostcode,
          destinationPostcode: b.destinationPostcode,
          vehicleType: b.vehicleType,
          supplyDate,
          paidAs: null,
          original: null,
          account: {
            name: account.name,
            address: account.billingAddress,
            vatNumber: null,
            code: account.accountCode,
            dueDate: null,
            period: null,
            po: job.poNumber,
          },
          withoutPrices: !account.deliveryNotePrices,
        },
      };
    },

    isOnAccount(bookingId: number): boolean {
      return accountJobOf(db, bookingId) !== undefined;
    },
  };
}

export type AccountService = ReturnType<typeof accountService>;

function escapeHtml(value: string): string {
  return value.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
}
