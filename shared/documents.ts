// Receipts, VAT invoices and credit notes (docs/product.md §22): their kinds, the words the pages
// and the PDF use, and the operator's invoice details. Written once for the server and the pages.
import { z } from 'zod';

/**
 * receipt: a paid job of an operator not registered for VAT (or with no VAT number set);
 * simplified_invoice: a VAT invoice up to £250 including VAT; vat_invoice: a full VAT invoice
 * (above £250, or asked for); credit_note: a refund against one of them (or a correction of an
 * account's invoice); invoice: a trade account's monthly invoice from an operator not registered
 * for VAT (a registered one's is a vat_invoice).
 */
export const DOCUMENT_KINDS = ['receipt', 'simplified_invoice', 'vat_invoice', 'credit_note', 'invoice'] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

/**
 * What a job's documents list: its numbered documents, its job report (docs/product.md, "Proof of
 * condition"), which has no number, and a job on account's delivery note in place of a receipt.
 */
export const LISTED_KINDS = [...DOCUMENT_KINDS, 'job_report', 'delivery_note'] as const;
export type ListedKind = (typeof LISTED_KINDS)[number];
/** The job report's place in the list and in the documents' paths (`…/documents/job-report`). */
export const JOB_REPORT_NUMBER = 'job-report';

export const DOCUMENT_TITLES: Record<ListedKind, string> = {
  receipt: 'Receipt',
  simplified_invoice: 'Simplified VAT invoice',
  vat_invoice: 'VAT invoice',
  credit_note: 'Credit note',
  invoice: 'Invoice',
  job_report: 'Job report',
  delivery_note: 'Delivery note',
};

/** A simplified VAT invoice may be given up to this total, VAT included (HMRC VAT Notice 700/21); above it, a full one. */
export const SIMPLIFIED_INVOICE_LIMIT_PENCE = 25_000;

/** The number as printed: six digits at least. */
export const documentNumber = (n: number) => String(n).padStart(6, '0');

export const DOCUMENT_NOT_ISSUED = 'The receipt is issued once the job is completed and paid.';
export const FULL_INVOICE_UNAVAILABLE = 'A full VAT invoice can only be issued for a job with a simplified VAT invoice.';
export const VAT_NUMBER_INVALID = 'Enter a UK VAT number, like GB123456789';
export const ADDRESS_TOO_LONG = 'Address must be 300 characters or fewer';

/** A UK VAT number: GB and 9 or 12 digits (or GBGD/GBHA and 3), spaces ignored; stored in capitals without spaces. */
const VAT_NUMBER = /^GB(?:\d{9}|\d{12}|GD\d{3}|HA\d{3})$/;

export const invoiceSettingsUpdateSchema = z.object({
  vatNumber: z
    .string({ error: VAT_NUMBER_INVALID })
    .transform((v) => v.replace(/\s+/g, '').toUpperCase())
    .refine((v) => v === '' || VAT_NUMBER.test(v), VAT_NUMBER_INVALID)
    .transform((v) => v || null)
    .nullable()
    .optional(),
  businessAddress: z
    .string({ error: ADDRESS_TOO_LONG })
    .max(300, ADDRESS_TOO_LONG)
    .transform((v) => v.trim() || null)
    .nullable()
    .optional(),
});
export type InvoiceSettingsUpdate = z.input<typeof invoiceSettingsUpdateSchema>;

/** A full VAT invoice names the customer's address (HMRC): asked for when the invoice is. */
export const CUSTOMER_ADDRESS_REQUIRED = 'Enter the customer’s address: a full VAT invoice shows it';
export const fullInvoiceSchema = z.object({
  customerAddress: z
    .string({ error: CUSTOMER_ADDRESS_REQUIRED })
    .max(300, ADDRESS_TOO_LONG)
    .transform((v) => v.trim())
    .refine((v) => v !== '', CUSTOMER_ADDRESS_REQUIRED),
});
export type FullInvoiceRequest = z.input<typeof fullInvoiceSchema>;

export const invoiceSettingsSchema = z
  .object({
    vatNumber: z.string().nullable().meta({ description: 'Printed on VAT invoices; without it a VAT-registered operator’s jobs get receipts' }),
    businessAddress: z.string().nullable().meta({ description: 'Printed on every document, lines separated by newlines' }),
    vatRegistered: z.boolean().meta({ description: 'From Pricing & Rates: VAT invoices are issued only when registered and a VAT number is set' }),
  })
  .meta({ id: 'InvoiceSettings' });
export type InvoiceSettings = z.infer<typeof invoiceSettingsSchema>;

export const DELIVERY_NOTE_TITLE = DOCUMENT_TITLES.delivery_note;

export const documentSummarySchema = z
  .object({
    number: z.string().meta({
      description:
        'Sequential per operator, as printed; `job-report` for the job report; empty for a delivery note, which has no number (download it as the job’s receipt)',
    }),
    kind: z.enum(LISTED_KINDS),
    title: z.string(),
    issuedAt: z.string(),
    total: z.number().nullable().meta({
      description:
        'Pounds, VAT included; a credit note’s amount credited; null for the job report, and on a delivery note its account has printed without prices',
    }),
  })
  .meta({ id: 'DocumentSummary' });
export const documentListSchema = z.array(documentSummarySchema);
export type DocumentSummary = z.infer<typeof documentSummarySchema>;
