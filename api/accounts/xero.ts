// A small adapter for Xero's Accounting API (docs/product.md §26): contacts, invoices, credit notes
// and payments in one company's own Xero organisation (its tenant), with the access token that
// company's connection gives (api/accounts/xero-connection.ts). Every call carries the token, so
// none follows a redirect (`redirect: 'error'`) and each gives up after XERO_TIMEOUT_MS. Every
// write carries an Idempotency-Key made from our own row, so a retry after a lost answer is
// answered with what Xero made the first time, never a second document. Tested against
// api/test/xero-fake.ts.

export const XERO_TIMEOUT_MS = 15_000;
/** UK output VAT at the standard rate, and no VAT, as Xero names the tax types. */
export const XERO_TAX = { standard: 'OUTPUT2', none: 'NONE' } as const;

export class XeroUnavailable extends Error {}

/** Every call to Xero, its identity server's and its API's: no redirect is followed, and each has a deadline. */
export async function xeroFetch(url: string, init: RequestInit, signal?: AbortSignal): Promise<Response> {
  const timeout = AbortSignal.timeout(XERO_TIMEOUT_MS);
  try {
    return await fetch(url, { ...init, redirect: 'error', signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
  } catch (err) {
    throw new XeroUnavailable(`Xero could not be reached: ${err instanceof Error ? err.message : String(err)}`);
  }
}

export interface XeroContact {
  name: string;
  email: string | null;
  vatNumber: string | null;
  address: string | null;
}

export interface XeroLine {
  description: string;
  unitAmount: number;
  /** The line's VAT, for amounts net of VAT; Xero works it out for amounts that include it. */
  taxAmount?: number;
  accountCode: string;
  taxType: string;
}

export interface XeroInvoice {
  contactId: string;
  number: string;
  reference: string;
  date: string;
  dueDate: string;
  lines: XeroLine[];
  /** Line amounts include VAT (a card job's price as the motorist paid it); net of it by default. */
  amountsIncludeVat?: boolean;
}

export interface XeroCreditNote {
  contactId: string;
  number: string;
  reference?: string;
  date: string;
  lines: XeroLine[];
  amountsIncludeVat?: boolean;
  /** Allocated to this invoice at once (a correction); without one the credit is left to be paid out (a refund). */
  allocate?: { invoiceId: string; amount: number };
}

/** Money into the bank account against an invoice, or out of it against a credit note (a refund). */
export interface XeroPayment {
  invoiceId?: string;
  creditNoteId?: string;
  date: string;
  amount: number;
  reference: string | null;
}

/** `key`: the Idempotency-Key, made from our own row and step; the same key is the same document. */
export interface XeroCall {
  key: string;
  signal?: AbortSignal;
}

export interface XeroClient {
  createContact(contact: XeroContact, call: XeroCall): Promise<string>;
  createInvoice(invoice: XeroInvoice, call: XeroCall): Promise<string>;
  /** An authorised sales credit note. */
  createCreditNote(note: XeroCreditNote, call: XeroCall): Promise<string>;
  createPayment(payment: XeroPayment, call: XeroCall): Promise<string>;
}

/** One company's organisation: where, which tenant, into which bank account, and its access token. */
export interface XeroOrganisation {
  apiUrl: string;
  tenantId: string;
  bankAccountCode: string;
  accessToken(signal?: AbortSignal): Promise<string>;
  /** Xero refused the token (401): the next call takes a fresh one. */
  tokenRefused(): void;
}

export function xeroClient(org: XeroOrganisation): XeroClient {
  async function call<T>(method: 'POST' | 'PUT', path: string, payload: unknown, { key, signal }: XeroCall): Promise<T> {
    const bearer = await org.accessToken(signal);
    const res = await xeroFetch(
      `${org.apiUrl}${path}`,
      {
        method,
        headers: {
          Authorization: `Bearer ${bearer}`,
          'xero-tenant-id': org.tenantId,
          'Idempotency-Key': key,
          'Content-Type': 'application/json',
          Accept: 'application/json',
        },
        body: JSON.stringify(payload),
      },
      signal,
    );
    if (res.status === 401) org.tokenRefused();
    if (!res.ok) throw new XeroUnavailable(`Xero answered ${res.status} to ${method} ${path}`);
    return (await res.json()) as T;
  }

  const addressOf = (address: string | null) => {
    const lines = address?.split(/\r?\n/).filter((l) => l.trim() !== '') ?? [];
    return lines.length === 0
      ? []
      : [
          {
            AddressType: 'POBOX',
            AddressLine1: lines[0] ?? '',
            AddressLine2: lines[1] ?? '',
            AddressLine3: lines[2] ?? '',
            AddressLine4: lines.slice(3).join(', '),
          },
        ];
  };

  /** An invoice's or a credit note's lines as Xero takes them: one of each, with its tax. */
  const lineItems = (lines: XeroLine[]) =>
    lines.map((l) => ({
      Description: l.description,
      Quantity: 1,
      UnitAmount: l.unitAmount,
      TaxAmount: l.taxAmount,
      AccountCode: l.accountCode,
      TaxType: l.taxType,
    }));

  return {
    async createContact(contact, options) {
      const body = await call<{ Contacts?: { ContactID?: string }[] }>(
        'POST',
        '/Contacts',
        {
          Contacts: [
            { Name: contact.name, EmailAddress: contact.email ?? undefined, TaxNumber: contact.vatNumber ?? undefined, Addresses: addressOf(contact.address) },
          ],
        },
        options,
      );
      const id = body.Contacts?.[0]?.ContactID;
      if (!id) throw new XeroUnavailable('Xero gave no ContactID');
      return id;
    },
    async createInvoice(invoice, options) {
      const body = await call<{ Invoices?: { InvoiceID?: string }[] }>(
        'POST',
        '/Invoices',
        {
          Invoices: [
            {
              Type: 'ACCREC',
              Contact: { ContactID: invoice.contactId },
              InvoiceNumber: invoice.number,
              Reference: invoice.reference,
              Date: invoice.date,
              DueDate: invoice.dueDate,
              LineAmountTypes: invoice.amountsIncludeVat ? 'Inclusive' : 'Exclusive',
              Status: 'AUTHORISED',
              CurrencyCode: 'GBP',
              LineItems: lineItems(invoice.lines),
            },
          ],
        },
        options,
      );
      const id = body.Invoices?.[0]?.InvoiceID;
      if (!id) throw new XeroUnavailable('Xero gave no InvoiceID');
      return id;
    },
    async createCreditNote(note, options) {
      const body = await call<{ CreditNotes?: { CreditNoteID?: string }[] }>(
        'POST',
        '/CreditNotes',
        {
          CreditNotes: [
            {
              Type: 'ACCRECCREDIT',
              Contact: { ContactID: note.contactId },
              CreditNoteNumber: note.number,
              Reference: note.reference,
              Date: note.date,
              LineAmountTypes: note.amountsIncludeVat ? 'Inclusive' : 'Exclusive',
              Status: 'AUTHORISED',
              CurrencyCode: 'GBP',
              LineItems: lineItems(note.lines),
            },
          ],
        },
        options,
      );
      const id = body.CreditNotes?.[0]?.CreditNoteID;
      if (!id) throw new XeroUnavailable('Xero gave no CreditNoteID');
      if (note.allocate) {
        await call(
          'PUT',
          `/CreditNotes/${encodeURIComponent(id)}/Allocations`,
          { Allocations: [{ Invoice: { InvoiceID: note.allocate.invoiceId }, Amount: note.allocate.amount, Date: note.date }] },
          { ...options, key: `${options.key}-allocation` },
        );
      }
      return id;
    },
    async createPayment(payment, options) {
      const body = await call<{ Payments?: { PaymentID?: string }[] }>(
        'PUT',
        '/Payments',
        {
          Payments: [
            {
              Invoice: payment.invoiceId ? { InvoiceID: payment.invoiceId } : undefined,
              CreditNote: payment.creditNoteId ? { CreditNoteID: payment.creditNoteId } : undefined,
              Account: { Code: org.bankAccountCode },
              Date: payment.date,
              Amount: payment.amount,
              Reference: payment.reference ?? undefined,
            },
          ],
        },
        options,
      );
      const id = body.Payments?.[0]?.PaymentID;
      if (!id) throw new XeroUnavailable('Xero gave no PaymentID');
      return id;
    },
  };
}
