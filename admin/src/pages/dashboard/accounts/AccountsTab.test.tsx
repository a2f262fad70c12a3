// @vitest-environment jsdom
// The Accounts tab: an account added with its terms and a £45 call-out as its rate card, the list
// with what each owes, an invoice marked paid for its balance, and the company's Xero connection
// (connect, the last sync's failure, disconnect).
import '../../../test/dom';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import type { Account, AccountInvoice, XeroStatus } from '#shared/accounts';
import { Toaster } from '../../../components/toast';
import { createQueryClient } from '../../../lib/query';
import { fakeApi } from '../../../test/dom';
import AccountsTab from './AccountsTab';

const leeds: Account = {
  id: 7,
  name: 'Leeds Motors',
  billingAddress: null,
  email: 'accounts@leedsmotors.example',
  vatNumber: null,
  paymentTermsDays: 30,
  creditLimit: null,
  poRequired: true,
  accountCode: '4010',
  deliveryNotePrices: true,
  rateCard: { callOutFee: 45 },
  owed: 486,
};
const invoice: AccountInvoice = {
  number: '000012',
  title: 'VAT invoice',
  account: 'Leeds Motors',
  accountId: 7,
  period: '2026-11',
  issuedAt: '2026-12-01T07:00:00.000Z',
  dueDate: '2026-12-31',
  total: 486,
  vat: 81,
  credited: 0,
  paid: 0,
  balance: 486,
  overdue: false,
  jobs: 3,
};

const notConnected: XeroStatus = {
  configured: true,
  connected: false,
  organisation: null,
  connectedAt: null,
  bankAccountCode: '090',
  salesAccountCode: null,
  lastSyncAt: null,
  lastError: null,
  lastErrorAt: null,
};

function renderTab(xero: XeroStatus = notConnected) {
  const api = fakeApi({
    'GET /api/books/xero': () => ({ json: xero }),
    'POST /api/books/xero/connect': () => ({ json: { url: 'https://login.xero.example/identity/connect/authorize?state=s' } }),
    'DELETE /api/books/xero': () => ({ json: { ...xero, connected: false, organisation: null } }),
    'GET /api/accounts': () => ({ json: [leeds] }),
    'POST /api/accounts': (body) => ({ status: 201, json: { ...leeds, ...(body as object), id: 8 } }),
    'GET /api/account-invoices': () => ({ json: [invoice] }),
    'POST /api/accounts/7/invoices/000012/payments': () => ({ json: { ...invoice, paid: 486, balance: 0 } }),
  });
  vi.stubGlobal('fetch', api.fetchStub);
  render(
    <QueryClientProvider client={createQueryClient()}>
      <AccountsTab />
      <Toaster />
    </QueryClientProvider>,
  );
  return api;
}

describe('<AccountsTab>', () => {
  it('adds an account with its terms, PO rule and a £45 call-out on its rate card', async () => {
    const api = renderTab();
    expect(await screen.findByText('Owes £486.00')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Account name'), { target: { value: 'York Fleet' } });
    fireEvent.change(screen.getByLabelText('Invoice email'), { target: { value: 'ap@yorkfleet.example' } });
    fireEvent.change(screen.getByLabelText('Account code'), { target: { value: '4020' } });
    fireEvent.change(screen.getByLabelText('Call-out fee on account (£)'), { target: { value: '45' } });
    fireEvent.click(screen.getByLabelText('PO number required on every job'));
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Add account' }));
    });
    const posted = api.calls.filter((c) => c.method === 'POST' && c.path === '/api/accounts').map((c) => c.body);
    expect(posted).toEqual([
      expect.objectContaining({
        name: 'York Fleet',
        email: 'ap@yorkfleet.example',
        accountCode: '4020',
        paymentTermsDays: 30,
        poRequired: true,
        rateCard: { callOutFee: 45 },
      }),
    ]);
    expect(await screen.findByText('York Fleet added')).toBeTruthy();
  });

  it('marks an invoice paid for its balance', async () => {
    const api = renderTab();
    const markPaid = await screen.findByRole('button', { name: 'Mark paid' });
    await act(async () => {
      fireEvent.click(markPaid);
    });
    expect(api.calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([{ amount: 486 }]);
    expect(await screen.findByText('Invoice 000012 marked paid')).toBeTruthy();
  });

  it('connects Xero by sending the browser to Xero’s consent page', async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { href: window.location.href, assign });
    const api = renderTab();
    const connect = await screen.findByRole('button', { name: 'Connect Xero' });
    await act(async () => {
      fireEvent.click(connect);
    });
    expect(api.calls.filter((c) => c.path === '/api/books/xero/connect').map((c) => c.body)).toEqual([{}]);
    expect(assign).toHaveBeenCalledWith('https://login.xero.example/identity/connect/authorize?state=s');
  });

  it('shows the organisation connected and why the last sync failed, and disconnects', async () => {
    const api = renderTab({
      ...notConnected,
      connected: true,
      organisation: 'Smith Recovery Ltd',
      lastError: 'Xero answered 500 to PUT /Payments',
      lastErrorAt: '2026-12-03T09:02:00.000Z',
    });
    expect(await screen.findByText('Smith Recovery Ltd')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('Last sync failed: Xero answered 500 to PUT /Payments');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Disconnect' }));
    });
    expect(api.calls.some((c) => c.method === 'DELETE' && c.path === '/api/books/xero')).toBe(true);
    expect(await screen.findByRole('button', { name: 'Connect Xero' })).toBeTruthy();
  });
});
