// @vitest-environment jsdom
// The Quotes tab against decision 016's contract, with the API faked: the inbox, find by
// reference, the deep link, the status with its note, the filters and the export link.
import '../../../test/dom';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { LeadDetail, LeadNumbers, LeadSettings } from '#shared/types';
import { fakeApi } from '../../../test/dom';
import { renderRoutes } from '../../../test/render';
import { DriverPortal } from '../DriverPortal';
import QuotesTab from './QuotesTab';

// jsdom lays nothing out, so the chart would only warn of its zero size: the browser journey draws it.
vi.mock('./QuotesPerDayChart', () => ({ default: () => null }));

const lead: LeadDetail = {
  reference: '4XD8HBZSR7',
  createdAt: '2026-11-24T13:58:00Z',
  pickupPostcode: 'SW1A 1AA',
  destinationPostcode: 'EC1A 1BB',
  distance: 3.2,
  vehicleType: 'car',
  gearboxType: 'automatic',
  rollingStatus: 'rolling',
  passengerCount: 2,
  problemType: 'flat-tire',
  urgency: 'immediate',
  preferredDate: null,
  preferredTime: null,
  totalPrice: 1234.5,
  status: 'new',
  statusChangedAt: null,
  customerContact: { channel: 'whatsapp', at: '2026-11-24T14:02:00Z' },
  customerContacts: [{ channel: 'whatsapp', at: '2026-11-24T14:02:00Z' }],
  takenBy: null,
  lines: [
    { label: 'Vehicle Base Price', amount: 50 },
    { label: 'Call-out Fee', amount: 1184.5 },
  ],
  vat: { rate: 20, amount: 205.75 },
  validUntil: '2026-11-25T13:58:00Z',
  history: [],
};
const { lines: _lines, vat: _vat, validUntil: _validUntil, history: _history, ...listed } = lead;
const older = {
  ...listed,
  reference: 'K7Q2M3N4P',
  createdAt: '2026-11-20T09:00:00Z',
  urgency: 'later' as const,
  preferredDate: '2026-12-05',
  preferredTime: '14:30',
  customerContact: null,
  customerContacts: [],
  status: 'won' as const,
  takenBy: 'Dana Driver',
};
const oldest = { ...listed, reference: 'ABCDEFGH', createdAt: '2026-11-01T09:00:00Z', customerContact: null, customerContacts: [] };

const numbers: LeadNumbers = {
  today: 1,
  last7Days: 2,
  last30Days: 3,
  contactedShare: 1 / 3,
  wonShare: 1 / 3,
  medianTotal: 1234.5,
  perDay: [
    { date: '2026-11-23', count: 0 },
    { date: '2026-11-24', count: 1 },
  ],
  topDistricts: [{ district: 'SW1A', count: 3 }],
  bookings: 2,
  completedBookings: 1,
  medianAcceptanceSeconds: 245,
  moneyTaken: 37.44,
  phoneQuotes: 1,
  phoneBookings: 1,
  reviewRequests: 4,
};
const settings: LeadSettings = {
  alertMode: 'each',
  alertEmail: null,
  alertRecipient: 'jobs@rapid.example',
  retentionMonths: 24,
  mailConfigured: true,
  accountVerified: true,
  alertRecipientVerified: true,
};

type Route = (body: unknown) => { status?: number; json?: unknown };

function renderTab(url = '/dashboard?tab=quotes', routes: Record<string, Route> = {}, screenElement = <QuotesTab />) {
  const api = fakeApi({
    'GET /api/quotes/numbers': () => ({ json: numbers }),
    'GET /api/lead-settings': () => ({ json: settings }),
    'GET /api/alerts': () => ({ json: [] }),
    'GET /api/bookings': () => ({ json: { open: [], recent: [] } }),
    'GET /api/booking-settings': () => ({
      json: {
        responseMinutes: 10,
        smsNumber: null,
        smsNumberConfirmed: false,
        offerBooking: true,
        offerWhatsapp: true,
        offerCall: true,
        textIrishMobiles: false,
        bookingOrigins: [],
        smsConfigured: true,
      },
    }),
    'GET /api/invoice-settings': () => ({ json: { vatNumber: null, businessAddress: null, vatRegistered: false } }),
    'GET /api/proof-settings': () => ({ json: { photosBeforeLoaded: false, photosBeforeCompleted: false, checklist: ['Keys handed over'] } }),
    'GET /api/payments': () => ({
      json: {
        mode: 'local',
        account: { state: 'not_connected', label: 'Not connected', reason: null },
        rule: 'none',
        depositType: null,
        depositAmount: null,
        depositPercent: null,
        hold: false,
        active: false,
        offReason: null,
      },
    }),
    'GET /api/quotes': () => ({ json: { quotes: [listed, older], nextCursor: 'c2' } }),
    'GET /api/quotes?cursor=c2': () => ({ json: { quotes: [oldest], nextCursor: null } }),
    'GET /api/quotes/4XD8HBZSR7': () => ({ json: lead }),
    'GET /api/quotes/ZZZZZZZZZZ': () => ({ status: 404, json: { message: 'Quote not found', code: 'NOT_FOUND' } }),
    ...routes,
  });
  vi.stubGlobal('fetch', api.fetchStub);
  const router = renderRoutes([{ path: '/dashboard', element: screenElement }], url);
  return { api, router };
}

const rows = () => within(screen.getByRole('list', { name: 'Quotes' })).getAllByRole('listitem');
const gets = (api: ReturnType<typeof fakeApi>, path: string) => api.calls.filter((call) => call.method === 'GET' && call.path === path);

describe('<QuotesTab>', () => {
  it('lists quotes newest first with what the operator needs, and loads more by cursor', async () => {
    const { api } = renderTab();
    await screen.findByRole('list', { name: 'Quotes' });
    const [first, second] = rows();
    expect(within(first).getByRole('button', { name: 'Open quote TQ-4XD8HBZSR7' })).toBeTruthy();
    expect(first.textContent).toContain('24 Nov 2026, 13:58');
    expect(first.textContent).toContain('SW1A 1AA → EC1A 1BB, 3.2 miles');
    expect(first.textContent).toContain('Car · Automatic · Rolling · 2 passengers · Flat Tyre');
    expect(first.textContent).toContain('Now');
    expect(first.textContent).toContain('£1,234.50');
    expect(first.textContent).toContain('New');
    expect(first.textContent).toContain('Customer tapped WhatsApp at 14:02');
    expect(second.textContent).toContain('Scheduled: Sat, 5 Dec 2026 at 14:30');
    expect(second.textContent).toContain('Won');
    // A quote taken on the phone says so in words beside its icon; a web quote has no marker.
    expect(within(second).getByText('Taken by phone by Dana Driver')).toBeTruthy();
    expect(within(first).queryByText(/^Taken by phone/)).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(rows()[2].textContent).toContain('TQ-ABCDEFGH');
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Open quote TQ-ABCDEFGH'));
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    expect(gets(api, '/api/quotes?cursor=c2')).toHaveLength(1);
  });

  it('finds a quote by its reference however it is typed, and opens it with its lines', async () => {
    const { router } = renderTab();
    fireEvent.change(await screen.findByLabelText('Find by reference'), { target: { value: 'tq-4xd8h bzsr7' } });
    const dialog = await screen.findByRole('dialog', { name: 'Quote TQ-4XD8HBZSR7' });
    expect(router.state.location.search).toBe('?tab=quotes&quote=4XD8HBZSR7');
    const terms = within(dialog)
      .getAllByRole('term')
      .map((term) => term.textContent);
    expect(terms).toEqual(['Vehicle Base Price', 'Call-out Fee', 'Total']);
    expect(dialog.textContent).toContain('Includes VAT (20%): £205.75');
    expect(dialog.textContent).toContain('Valid until 25 Nov 2026, 13:58');
    expect(dialog.textContent).toContain('Customer tapped WhatsApp at 14:02');

    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(router.state.location.search).toBe('?tab=quotes');
  });

  it('opens an older 9-character reference on Find, not as it is typed (it may be the start of a 10-character one)', async () => {
    const { api } = renderTab('/dashboard?tab=quotes', { 'GET /api/quotes/K7Q2M3N4P': () => ({ json: { ...lead, reference: 'K7Q2M3N4P' } }) });
    const search = await screen.findByLabelText('Find by reference');
    fireEvent.change(search, { target: { value: 'tq-k7q2 m3n4p' } });
    expect(gets(api, '/api/quotes/K7Q2M3N4P')).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'Find' }));
    expect(await screen.findByRole('dialog', { name: 'Quote TQ-K7Q2M3N4P' })).toBeTruthy();
  });

  it('says so when no quote has the reference, or when the text cannot be one', async () => {
    renderTab();
    const search = await screen.findByLabelText('Find by reference');
    fireEvent.change(search, { target: { value: 'TQ-ZZZZZZZZZZ' } });
    expect((await screen.findByRole('alert')).textContent).toBe('No quote TQ-ZZZZZZZZZZ found');
    expect(screen.queryByRole('dialog')).toBeNull();

    fireEvent.change(search, { target: { value: 'hello' } });
    fireEvent.click(screen.getByRole('button', { name: 'Find' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Enter a quote reference, such as TQ-4XD8HBZSR7');
    expect(search.getAttribute('aria-invalid')).toBe('true');
  });

  it('opens the quote of a deep link', async () => {
    renderTab('/dashboard?tab=quotes&quote=TQ-4XD8HBZSR7');
    expect(await screen.findByRole('dialog', { name: 'Quote TQ-4XD8HBZSR7' })).toBeTruthy();
  });

  it('says a deep link’s quote is not found', async () => {
    renderTab('/dashboard?tab=quotes&quote=ZZZZZZZZZZ');
    const dialog = await screen.findByRole('dialog', { name: 'Quote TQ-ZZZZZZZZZZ' });
    expect((await within(dialog).findByRole('alert')).textContent).toContain('No quote TQ-ZZZZZZZZZZ found');
  });

  it('saves a status with a note, shows it in the history and refreshes the list and numbers', async () => {
    const won = {
      ...lead,
      status: 'won' as const,
      statusChangedAt: '2026-11-24T15:00:00Z',
      history: [{ status: 'won' as const, note: 'Booked for 3pm', at: '2026-11-24T15:00:00Z' }],
    };
    const { api } = renderTab('/dashboard?tab=quotes&quote=4XD8HBZSR7', { 'PUT /api/quotes/4XD8HBZSR7/status': () => ({ json: won }) });
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(await within(dialog).findByLabelText('Status'), { target: { value: 'won' } });
    fireEvent.change(within(dialog).getByLabelText('Note (optional)'), { target: { value: 'Booked for 3pm' } });
    expect(within(dialog).getByText('14/500 characters')).toBeTruthy();
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Save Status' }));
    });
    expect(await screen.findByText('Quote updated')).toBeTruthy();
    expect(within(dialog).getByRole('status').textContent).toBe('Saved: TQ-4XD8HBZSR7 is now Won');
    expect(api.calls.filter((call) => call.method === 'PUT').map((call) => call.body)).toEqual([{ status: 'won', note: 'Booked for 3pm' }]);
    const history = within(within(dialog).getByRole('region', { name: 'History' })).getAllByRole('listitem');
    expect(history.map((item) => item.textContent)).toEqual(['Quoted 24 Nov 2026, 13:58', 'Won24 Nov 2026, 15:00Booked for 3pm']);
    // The form starts again from what was saved.
    expect((within(dialog).getByLabelText('Note (optional)') as HTMLTextAreaElement).value).toBe('');
    await waitFor(() => expect(gets(api, '/api/quotes/numbers')).toHaveLength(2));
    expect(gets(api, '/api/quotes')).toHaveLength(2);
  });

  it('keeps what was typed when the save fails, with the server’s message under the field', async () => {
    const { api } = renderTab('/dashboard?tab=quotes&quote=4XD8HBZSR7', {
      'PUT /api/quotes/4XD8HBZSR7/status': () => ({
        status: 400,
        json: { message: 'Note must not contain control characters', code: 'VALIDATION_FAILED', fields: { note: 'Note must not contain control characters' } },
      }),
    });
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(await within(dialog).findByLabelText('Status'), { target: { value: 'contacted' } });
    fireEvent.change(within(dialog).getByLabelText('Note (optional)'), { target: { value: 'Rang back' } });
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Save Status' }));
    });
    expect(await screen.findByText('Error updating the quote')).toBeTruthy();
    expect(within(dialog).getByRole('alert').textContent).toBe('Not saved: Note must not contain control characters');
    expect(within(dialog).getByText('Note must not contain control characters')).toBeTruthy();
    expect((within(dialog).getByLabelText('Note (optional)') as HTMLTextAreaElement).value).toBe('Rang back');
    expect((within(dialog).getByLabelText('Status') as HTMLSelectElement).value).toBe('contacted');
    expect(api.calls.filter((call) => call.method === 'PUT')).toHaveLength(1);
  });

  it('refuses a note over 500 characters before sending it', async () => {
    const { api } = renderTab('/dashboard?tab=quotes&quote=4XD8HBZSR7');
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(await within(dialog).findByLabelText('Note (optional)'), { target: { value: 'x'.repeat(501) } });
    expect(within(dialog).getByText('501/500 characters')).toBeTruthy();
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Save Status' }));
    });
    expect(await within(dialog).findByText('Must be at most 500 characters')).toBeTruthy();
    expect(api.calls.filter((call) => call.method === 'PUT')).toEqual([]);
  });

  it('filters the list and the CSV export alike, and says when nothing matches', async () => {
    const { api } = renderTab('/dashboard?tab=quotes', {
      'GET /api/quotes?from=2026-11-01&status=lost&urgency=later': () => ({ json: { quotes: [], nextCursor: null } }),
    });
    await screen.findByRole('list', { name: 'Quotes' });
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-11-01' } });
    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'lost' } });
    fireEvent.change(screen.getByLabelText('Urgency'), { target: { value: 'later' } });
    expect(await screen.findByText('No quotes match these filters.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Download CSV' }).getAttribute('href')).toBe('/api/quotes/export.csv?from=2026-11-01&status=lost&urgency=later');

    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-10-01' } });
    expect(screen.getByText('To must not be before From')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Download CSV' })).toBeNull();
    expect(api.calls.some((call) => call.path.includes('to=2026-10-01'))).toBe(false);

    fireEvent.change(screen.getByLabelText('To'), { target: { value: '' } });
    fireEvent.click(await screen.findByRole('button', { name: 'Clear filters' }));
    expect(await screen.findByRole('list', { name: 'Quotes' })).toBeTruthy();
  });

  it('shows the numbers, the bookings’ funnel, with the chart in words and as a table', async () => {
    renderTab();
    await screen.findByText('Quotes today');
    const figures = screen.getAllByRole('term').map((term) => `${term.textContent}: ${term.nextElementSibling?.textContent}`);
    expect(figures).toEqual([
      'Quotes today: 1',
      'Last 7 days: 2',
      'Last 30 days: 3',
      'Contacted: 33%',
      'Won: 33%',
      'Median quote: £1,234.50',
      'Bookings: 2',
      'Median time to accept: 4 min',
      'Money taken: £37.44',
      'Phone quotes (30 days): 1',
      'Phone bookings (30 days): 1',
      'Review requests sent (30 days): 4',
    ]);
    const funnel = screen.getByRole('region', { name: 'From quote to job, last 30 days' });
    expect(
      within(funnel)
        .getAllByRole('listitem')
        .map((step) => step.textContent),
    ).toEqual(['3 quotes', '→2 booked (67%)', '→1 completed (50%)']);
    const chart = screen.getByRole('figure', { name: 'Quotes per day, last 30 days' });
    expect(chart.textContent).toContain('1 quote in the last 2 days; the busiest day was 24 Nov with 1.');
    expect(
      within(chart)
        .getAllByRole('row')
        .map((row) => row.textContent),
    ).toEqual(['DayQuotes', '23 Nov0', '24 Nov1']);
    expect(screen.getByRole('region', { name: 'Top pickup districts' }).textContent).toContain('SW1A3 quotes');
  });

  it('invites the first quote when there is none', async () => {
    renderTab('/dashboard?tab=quotes', { 'GET /api/quotes': () => ({ json: { quotes: [], nextCursor: null } }) });
    expect(await screen.findByText(/No quotes yet/)).toBeTruthy();
  });
});

describe('the Driver Portal’s fifth tab', () => {
  it('comes after the four settings tabs and loads nothing until opened', async () => {
    const { api } = renderTab('/dashboard', {}, <DriverPortal />);
    const tabs = screen.getAllByRole('tab').map((tab) => tab.textContent?.trim());
    // The owner's tabs follow it: Accounts (docs/product.md §26), Team and Audit log, each loaded only when opened.
    expect(tabs).toEqual(['Pricing & Rates', 'Custom Charges', 'Branding', 'Contact Info', 'Quotes', 'Accounts', 'Team', 'Audit log']);
    await screen.findByText('Unable to load your current rates. Saving will replace them.');
    expect(api.calls.some((call) => call.path.startsWith('/api/quotes'))).toBe(false);
    expect(api.calls.some((call) => call.path.startsWith('/api/account'))).toBe(false);
    // Radix tabs activate on mouse down (a click is a pointer sequence jsdom does not make whole).
    fireEvent.mouseDown(screen.getByRole('tab', { name: 'Quotes' }));
    expect(await screen.findByRole('list', { name: 'Quotes' })).toBeTruthy();
  });

  it('opens on the Quotes tab and the quote of an alert’s link', async () => {
    renderTab('/dashboard?tab=quotes&quote=4XD8HBZSR7', {}, <DriverPortal />);
    expect(await screen.findByRole('dialog', { name: 'Quote TQ-4XD8HBZSR7' })).toBeTruthy();
    // Behind the modal dialog, hidden from assistive technology until it closes.
    expect(screen.getByRole('tab', { name: 'Quotes', hidden: true }).getAttribute('aria-selected')).toBe('true');
  });
});
