// Receipts, VAT invoices and credit notes (docs/product.md §22). A completed job with money taken
// at booking gets its document when it completes (and, should that fail, from the sweep job):
// a receipt, or for an operator issuing VAT invoices a simplified one up to £250 including VAT and
// a full one above it or when asked for. A refund gets a credit note against it. Each is numbered
// from the company's sequence in the transaction that stores it, with everything it prints
// frozen, and is never edited; the PDF is drawn from the frozen copy at each download.
import { eq } from 'drizzle-orm';
import {
  DELIVERY_NOTE_TITLE,
  DOCUMENT_NOT_ISSUED,
  DOCUMENT_TITLES,
  documentNumber,
  FULL_INVOICE_UNAVAILABLE,
  JOB_REPORT_NUMBER,
  type DocumentKind,
  type DocumentSummary,
  type InvoiceSettings,
} from '#shared/documents';
import { penceToPounds } from '#shared/money';
import { BALANCE_METHODS, balancePaidBy, wasTaken, type BalanceMethod } from '#shared/payments';
import { londonDate } from '../engine/calendar/uk-calendar';
import { payUrl } from '../bookings/job-link';
import { bookingById, type BookingWithQuote } from '../bookings/store';
import { bookingTokens } from '../bookings/tokens';
import { balanceDuePence } from '../bookings/views';
import { findCompanyById, updateCompany, type CompanyPatch } from '../company/store';
import { getPricing } from '../company/pricing-store';
import { paymentByBooking } from '../payments/store';
import { quotes } from '../platform/db/schema';
import { write } from '../platform/db/write';
import type { AppDeps } from '../platform/deps';
import { Conflict, NotFound } from '../platform/errors';
import { renderDocumentPdf, type DocumentDetails, type PrintableDocument } from './pdf';
import { bookingDocument, bookingDocuments, bookingsOwedDocuments, creditedPence, insertDocument, type DocumentRow } from './store';
import { creditLine, documentKindFor, documentLines, totalsOf, type DocumentLine, type DocumentTotals, type QuoteLine } from './vat';

const PAID_AS = { deposit: 'Deposit paid by card', full: 'Paid by card', hold: 'Paid by card' } as const;
/** How a balance was paid, after 'Paid' or 'balance'. */
const PAID_BY: Record<BalanceMethod, string> = { card: 'by card', cash: 'in cash', bank_transfer: 'by bank transfer', on_account: 'on account' };

/**
 * What the document prints beside what was paid: at booking only ('Deposit paid by card'), the
 * balance only ('Paid in cash'), or both ('Paid: deposit by card, balance in cash'); null when
 * nothing was paid.
 */
function paidWords(atBooking: keyof typeof PAID_AS | null, balance: BalanceMethod | null): string | null {
  const balancePaid = balance !== null && balancePaidBy(balance);
  if (atBooking && balancePaid) return `Paid: deposit by card, balance ${PAID_BY[balance]}`;
  if (atBooking) return PAID_AS[atBooking];
  return balancePaid ? `Paid ${PAID_BY[balance]}` : null;
}

export const DOCUMENT_NOT_FOUND = 'No document of this job has this number';

/** The job reports as the documents list and serve them. */
export interface JobReports {
  summary(bookingId: number): DocumentSummary | undefined;
  pdf(bookingId: number): Promise<{ bytes: Uint8Array; filename: string }>;
}

const parse = <T>(json: string): T => JSON.parse(json) as T;
export const printable = (row: DocumentRow): PrintableDocument => ({
  kind: row.kind,
  number: row.number,
  issuedAt: row.issuedAt,
  lines: parse<DocumentLine[]>(row.lines),
  totals: parse<DocumentTotals>(row.totals),
  details: parse<DocumentDetails>(row.details),
});

const summary = (row: DocumentRow): DocumentSummary => ({
  number: documentNumber(row.number),
  kind: row.kind,
  title: DOCUMENT_TITLES[row.kind],
  issuedAt: row.issuedAt,
  total: penceToPounds(row.totalPence),
});

/** A document's number as a path gives it ('000012' or '12'); null when it is not one. */
const numberOf = (typed: string): number | null => (/^\d{1,9}$/.test(typed) ? Number(typed) : null);

export function documentService(deps: Pick<AppDeps, 'db' | 'logger' | 'now' | 'events' | 'config'>) {
  const { db, logger, now, config } = deps;
  const tokens = bookingTokens(config.sessionSecret);
  /** A job on account's delivery note, which replaces its receipt (api/accounts/service.ts); attached once both are built. */
  let deliveryNoteOf: ((bookingId: number) => PrintableDocument | undefined) | undefined;
  /** A completed job's report, kept by proof of condition (api/proof/service.ts) and listed with the documents; attached once both are built. */
  let jobReports: JobReports | undefined;

  /**
   * The job's receipt or invoice as it stands: the newest (a balance paid later issues an updated
   * one, never an edit), a full invoice asked for standing in for a simplified one.
   */
  const primaryOf = (docs: DocumentRow[]) => {
    const issued = docs.filter((d) => d.kind !== 'credit_note').reverse();
    return issued.find((d) => d.kind === 'vat_invoice') ?? issued[0];
  };
  const balanceOf = (b: BookingWithQuote): BalanceMethod | null => BALANCE_METHODS.find((m) => m === b.balanceMethod) ?? null;

  function quoteOf(b: BookingWithQuote) {
    return db
      .select({ lines: quotes.lines, totalPence: quotes.totalPricePence, vatPence: quotes.vatPence, vatRatePercent: quotes.vatRatePercent })
      .from(quotes)
      .where(eq(quotes.id, b.quoteId))
      .get();
  }

  /**
   * The receipt or invoice of a completed job paid at booking or with its balance recorded, frozen
   * now: its kind, lines, totals and what else it prints.
   */
  function compose(b: BookingWithQuote, fullAskedFor: boolean) {
    const found = paymentByBooking(db, b.id);
    const payment = found && wasTaken(found.status) ? found : undefined;
    const balance = balanceOf(b);
    const quote = quoteOf(b);
    const company = findCompanyById(db, b.companyId);
    if (b.status !== 'completed' || (!payment && !balance) || !quote || !company) return undefined;
    const lines = documentLines({
      lines: quote.lines ? parse<QuoteLine[]>(quote.lines) : null,
      totalPence: quote.totalPence,
      vatPence: quote.vatPence,
      vatRatePercent: quote.vatRatePercent,
    });
    const gross = totalsOf(lines, 0).grossPence;
    // A balance recorded as paid pays the rest: the whole price is paid.
    const totals = totalsOf(lines, balancePaidBy(balance) ? gross : (payment?.amountPence ?? 0));
    const vatInvoice = getPricing(db, b.companyId).vatRegistered && company.vatNumber !== null && totals.vatPence > 0;
    const kind = documentKindFor(vatInvoice, totals.grossPence, fullAskedFor);
    const details: DocumentDetails = {
      seller: {
        name: company.name,
        address: company.businessAddress,
        phone: company.phone,
        email: company.email,
        vatNumber: vatInvoice ? company.vatNumber : null,
      },
      customerName: kind === 'vat_invoice' ? b.customerName : null,
      reference: b.reference,
      registration: b.registration,
      pickupPostcode: b.pickupPostcode,
      destinationPostcode: b.destinationPostcode,
      vehicleType: b.vehicleType,
      supplyDate: londonDate(b.finishedAt ? new Date(b.finishedAt) : now()),
      paidAs: paidWords(payment?.kind ?? null, balance),
      balanceAs: balance === 'on_account' ? 'Balance due on account' : null,
      original: null,
    };
    return { kind, lines, totals, details };
  }

  /**
   * Stores `kind` for the booking unless a document that `stands` is stored already (another
   * request, the sweep): the stored one wins.
   */
  async function issue(
    b: BookingWithQuote,
    kind: Exclude<DocumentKind, 'credit_note'>,
    composed: { lines: DocumentLine[]; totals: DocumentTotals; details: DocumentDetails },
    stands: (d: DocumentRow) => boolean,
  ) {
    return write(db, () => {
      const existing = bookingDocuments(db, b.id).find(stands);
      if (existing) return existing;
      return insertDocument(db, {
        companyId: b.companyId,
        bookingId: b.id,
        kind,
        originalId: null,
        issuedAt: now().toISOString(),
        totalPence: composed.totals.grossPence,
        lines: JSON.stringify(composed.lines),
        totals: JSON.stringify(composed.totals),
        details: JSON.stringify(composed.details),
      });
    });
  }

  /**
   * The job's receipt or invoice, issued if it is owed and not issued yet, or issued again when
   * what was paid has changed since (the balance recorded after completion): a new document with
   * its own number, the earlier one left as it was.
   */
  async function issueFor(bookingId: number): Promise<DocumentRow | undefined> {
    const b = bookingById(db, bookingId);
    if (!b) return undefined;
    const issued = primaryOf(bookingDocuments(db, b.id));
    const composed = compose(b, issued?.kind === 'vat_invoice');
    if (!composed) return issued;
    const current = (d: DocumentRow) =>
      d.kind !== 'credit_note' &&
      parse<DocumentTotals>(d.totals).paidPence === composed.totals.paidPence &&
      (parse<DocumentDetails>(d.details).balanceAs ?? null) === (composed.details.balanceAs ?? null);
    if (issued && current(issued)) return issued;
    return issue(b, composed.kind, composed, current);
  }

  /** A credit note for what was refunded past what the job's credit notes cover already. */
  async function creditsFor(bookingId: number): Promise<DocumentRow | undefined> {
    const payment = paymentByBooking(db, bookingId);
    if (!payment) return undefined;
    return write(db, () => {
      const docs = bookingDocuments(db, bookingId);
      const original = primaryOf(docs);
      const credited = creditedPence(db, bookingId);
      const refund = payment.refundedPence - credited;
      if (!original || refund <= 0) return undefined;
      const originalTotals = parse<DocumentTotals>(original.totals);
      const originalLines = parse<DocumentLine[]>(original.lines);
      const originalDetails = parse<DocumentDetails>(original.details);
      const line = creditLine('Refund to card', refund, credited, originalTotals, originalLines[0]?.vatRatePercent ?? 0);
      return insertDocument(db, {
        companyId: original.companyId,
        bookingId,
        kind: 'credit_note',
        originalId: original.id,
        issuedAt: now().toISOString(),
        totalPence: refund,
        lines: JSON.stringify([line]),
        totals: JSON.stringify(totalsOf([line], 0)),
        details: JSON.stringify({
          ...originalDetails,
          paidAs: null,
          original: { title: DOCUMENT_TITLES[original.kind], number: original.number, issuedAt: original.issuedAt },
        } satisfies DocumentDetails),
      });
    });
  }

  /** Whatever the job is owed: its receipt or invoice, then credit notes for its refunds. */
  async function settle(bookingId: number) {
    await issueFor(bookingId);
    await creditsFor(bookingId);
  }

  function documentOf(bookingId: number, typed: string): DocumentRow {
    const number = numberOf(typed);
    const row = number === null ? undefined : bookingDocument(db, bookingId, number);
    if (!row) throw new NotFound(DOCUMENT_NOT_FOUND);
    return row;
  }

  /**
   * The balance's pay link printed under an unpaid receipt or invoice (docs/product.md §22): not
   * frozen with the document (it holds a token, and stops once paid), put in as it is drawn.
   */
  function payLinkFor(row: DocumentRow): string | null {
    if (row.kind === 'credit_note' || parse<DocumentTotals>(row.totals).balancePence <= 0) return null;
    const b = row.bookingId === null ? undefined : bookingById(db, row.bookingId);
    if (!b?.paySalt || balanceDuePence(b) === 0) return null;
    return payUrl(config.publicUrl, tokens.payToken(b.id, b.paySalt));
  }

  const pdfOf = async (row: DocumentRow) => ({
    bytes: await renderDocumentPdf({ ...printable(row), payLink: payLinkFor(row) }),
    filename: `${DOCUMENT_TITLES[row.kind].toLowerCase().replaceAll(' ', '-')}-${documentNumber(row.number)}.pdf`,
  });

  // A completed job gets what it is owed, a balance recorded later its updated receipt (a new
  // edition, never an edit), a refund its credit note, as they happen (after the payments heard
  // the same change: a hold is captured first). Never fails the change: the sweep tries again.
  deps.events.on('job.changed', async ({ bookingId, kind }) => {
    if (kind !== 'completed' && kind !== 'balance' && kind !== 'refunded') return;
    try {
      if (kind === 'refunded') await creditsFor(bookingId);
      else await settle(bookingId);
    } catch (err) {
      const msg =
        kind === 'completed'
          ? 'Could not issue a job’s receipt; the sweep will'
          : kind === 'balance'
            ? 'Could not issue a job’s updated receipt; the sweep will'
            : 'Could not issue a refund’s credit note; the sweep will';
      logger.warn({ msg, bookingId, error: err instanceof Error ? err.message : String(err) });
    }
  });

  return {
    issueFor,
    creditsFor,

    /** The sweep (a job): documents owed and not yet issued, a receipt after a hold was captured late, credit notes after refunds. */
    async sweep(limit = 50): Promise<number> {
      const owed = bookingsOwedDocuments(db, limit);
      for (const id of owed) await settle(id);
      return owed.length;
    },

    /**
     * The job's documents, oldest first, then its job report once issued; for a job on account,
     * its delivery note in the receipt's place (made as it is downloaded, never stored).
     */
    list(bookingId: number): DocumentSummary[] {
      const report = jobReports?.summary(bookingId);
      const reports = report ? [report] : [];
      const note = deliveryNoteOf?.(bookingId);
      if (note) {
        return [
          {
            number: '',
            kind: 'delivery_note',
            title: DELIVERY_NOTE_TITLE,
            issuedAt: note.issuedAt,
            total: note.details.withoutPrices ? null : penceToPounds(note.totals.grossPence),
          },
          ...reports,
        ];
      }
      return [...bookingDocuments(db, bookingId).map(summary), ...reports];
    },

    attachDeliveryNotes(find: (bookingId: number) => PrintableDocument | undefined) {
      deliveryNoteOf = find;
    },

    attachJobReports(reports: JobReports) {
      jobReports = reports;
    },

    /** The job's receipt or invoice as a PDF (a job on account's delivery note); 409 before one is issued. */
    async receiptPdf(bookingId: number) {
      const note = deliveryNoteOf?.(bookingId);
      if (note) return { bytes: await renderDocumentPdf(note), filename: `delivery-note-TQ-${note.details.reference}.pdf` };
      const row = primaryOf(bookingDocuments(db, bookingId)) ?? (await issueFor(bookingId));
      if (!row) throw new Conflict(DOCUMENT_NOT_ISSUED, 'DOCUMENT_NOT_ISSUED');
      return pdfOf(row);
    },

    /** One of the job's documents by its number, or its job report by `job-report`. */
    async documentPdf(bookingId: number, typed: string): Promise<{ bytes: Uint8Array; filename: string }> {
      if (typed === JOB_REPORT_NUMBER && jobReports?.summary(bookingId)) return jobReports.pdf(bookingId);
      return pdfOf(documentOf(bookingId, typed));
    },

    /** A full VAT invoice for a job that got a simplified one (the customer asked for it, giving the address it shows). */
    async fullInvoice(bookingId: number, customerAddress: string): Promise<DocumentSummary> {
      const b = bookingById(db, bookingId);
      const docs = b ? bookingDocuments(db, b.id) : [];
      const full = docs.find((d) => d.kind === 'vat_invoice');
      if (full) return summary(full);
      const simplified = docs.find((d) => d.kind === 'simplified_invoice');
      if (!b || !simplified) throw new Conflict(FULL_INVOICE_UNAVAILABLE, 'FULL_INVOICE_UNAVAILABLE');
      // The same sale as the simplified invoice, with the customer's name and address added.
      const details = parse<DocumentDetails>(simplified.details);
      return summary(
        await issue(
          b,
          'vat_invoice',
          {
            lines: parse<DocumentLine[]>(simplified.lines),
            totals: parse<DocumentTotals>(simplified.totals),
            details: { ...details, customerName: b.customerName, customerAddress },
          },
          (d) => d.kind === 'vat_invoice',
        ),
      );
    },

    settings(companyId: number): InvoiceSettings {
      const company = findCompanyById(db, companyId);
      if (!company) throw new NotFound('Company not found');
      return { vatNumber: company.vatNumber, businessAddress: company.businessAddress, vatRegistered: getPricing(db, companyId).vatRegistered };
    },

    async updateSettings(companyId: number, body: { vatNumber?: string | null; businessAddress?: string | null }): Promise<InvoiceSettings> {
      const patch: CompanyPatch = {};
      if (body.vatNumber !== undefined) patch.vatNumber = body.vatNumber;
      if (body.businessAddress !== undefined) patch.businessAddress = body.businessAddress;
      if (Object.keys(patch).length > 0) await write(db, () => updateCompany(db, companyId, patch));
      return this.settings(companyId);
    },
  };
}

export type DocumentService = ReturnType<typeof documentService>;
