// A small adapter for Xero's Accounting API (docs/product.md §26): a custom connection's OAuth 2.0
// client credentials for an access token (kept until a minute before it expires), then contacts,
// invoices and payments. Every call carries the secret or the token, so none follows a redirect
// (`redirect: 'error'`) and each gives up after XERO_TIMEOUT_MS. Off unless XERO_CLIENT_ID and
// XERO_CLIENT_SECRET are set; tested against api/test/xero-fake.ts.
import type { Config } from '../platform/config';

export const XERO_TIMEOUT_MS = 15_000;
/** UK output VAT at the standard rate, and no VAT, as Xero names the tax types. */
export const XERO_TAX = { standard: 'OUTPUT2', none: 'NONE' } as const;

export class XeroUnavailable extends Error {}

export interface XeroContact {
  name: string;
  email: string;
  vatNumber: string | null;
  address: string | null;
}

export interface XeroLine {
  description: string;
  unitAmount: number;
  taxAmount: number;
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
}

export interface XeroPayment {
  invoiceId: string;
  date: string;
  amount: number;
  reference: string | null;
}

export interface XeroClient {
  createContact(contact: XeroContact, signal?: AbortSignal): Promise<string>;
  createInvoice(invoice: XeroInvoice, signal?: AbortSignal): Promise<string>;
  /** An authorised sales credit note, allocated to the invoice it corrects. */
  createCreditNote(note: Omit<XeroInvoice, 'reference' | 'dueDate'> & { invoiceId: string; amount: number }, signal?: AbortSignal): Promise<string>;
  createPayment(payment: XeroPayment, signal?: AbortSignal): Promise<string>;
}

type XeroConfig = NonNullable<Config['xero']>;

export function xeroClient(config: XeroConfig, now: () => Date): XeroClient {
  let token: { value: string; until: number } | undefined;

  async function send(url: string, init: RequestInit, signal?: AbortSignal): Promise<Response> {
    const timeout = AbortSignal.timeout(XERO_TIMEOUT_MS);
    try {
      return await fetch(url, { ...init, redirect: 'error', signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
    } catch (err) {
      throw new XeroUnavailable(`Xero could not be reached: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  async function accessToken(signal?: AbortSignal): Promise<string> {
    if (token && token.until > now().getTime()) return token.value;
    const basic = Buffer.from(`${config.clientId}:${config.clientSecret}`).toString('base64');
    const res = await send(
      config.tokenUrl,
      {
        method: 'POST',
        headers: { Authorization: `Basic ${basic}`, 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
        body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'accounting.transactions accounting.contacts' }).toString(),
      },
      signal,
    );
    if (!res.ok) throw new XeroUnavailable(`Xero refused the client credentials (${res.status})`);
    const body = (await res.json()) as { access_token?: string; expires_in?: number };
    if (!body.access_token) throw new XeroUnavailable('Xero gave no access token');
    // Renewed a minute early, so a token never expires between the check and the call.
    token = { value: body.access_token, until: now().getTime() + Math.max((body.expires_in ?? 1800) - 60, 0) * 1000 };
    return token.value;
  }

  async function call<T>(method: 'POST' | 'PUT', path: string, payload: unknown, signal?: AbortSignal): Promise<T> {
    const bearer = await accessToken(signal);
    const res = await send(
      `${config.apiUrl}${path}`,
      { method, headers: { Authorization: `Bearer ${bearer}`, 'Content-Type': 'application/json', Accept: 'application/json' }, body: JSON.stringify(payload) },
      signal,
    );
    if (res.status === 401) token = undefined;
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

  /** An invoice's or a credit note's lines as Xero takes them: one of each, net, with its tax. */
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
    async createContact(contact, signal) {
      const body = await call<{ Contacts?: { ContactID?: string }[] }>(
        'POST',
        '/Contacts',
        { Contacts: [{ Name: contact.name, EmailAddress: contact.email, TaxNumber: contact.vatNumber ?? undefined, Addresses: addressOf(contact.address) }] },
        signal,
      );
      const id = body.Contacts?.[0]?.ContactID;
      if (!id) throw new XeroUnavailable('Xero gave no ContactID');
      return id;
    },
    async createInvoice(invoice, signal) {
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
              LineAmountTypes: 'Exclusive',
              Status: 'AUTHORISED',
              CurrencyCode: 'GBP',
              LineItems: lineItems(invoice.lines),
            },
          ],
        },
        signal,
      );
      const id = body.Invoices?.[0]?.InvoiceID;
      if (!id) throw new XeroUnavailable('Xero gave no InvoiceID');
      return id;
    },
    async createCreditNote(note, signal) {
      const body = await call<{ CreditNotes?: { CreditNoteID?: string }[] }>(
        'POST',
        '/CreditNotes',
        {
          CreditNotes: [
            {
              Type: 'ACCRECCREDIT',
              Contact: { ContactID: note.contactId },
              CreditNoteNumber: note.number,
              Date: note.date,
              LineAmountTypes: 'Exclusive',
              Status: 'AUTHORISED',
              CurrencyCode: 'GBP',
              LineItems: lineItems(note.lines),
            },
          ],
        },
        signal,
      );
      const id = body.CreditNotes?.[0]?.CreditNoteID;
      if (!id) throw new XeroUnavailable('Xero gave no CreditNoteID');
      await call(
        'PUT',
        `/CreditNotes/${encodeURIComponent(id)}/Allocations`,
        { Allocations: [{ Invoice: { InvoiceID: note.invoiceId }, Amount: note.amount, Date: note.date }] },
        signal,
      );
      return id;
    },
    async createPayment(payment, signal) {
      const body = await call<{ Payments?: { PaymentID?: string }[] }>(
        'PUT',
        '/Payments',
        {
          Payments: [
            {
              Invoice: { InvoiceID: payment.invoiceId },
              Account: { Code: config.bankAccountCode },
              Date: payment.date,
              Amount: payment.amount,
              Reference: payment.reference ?? undefined,
            },
          ],
        },
        signal,
      );
      const id = body.Payments?.[0]?.PaymentID;
      if (!id) throw new XeroUnavailable('Xero gave no PaymentID');
      return id;
    },
  };
}
