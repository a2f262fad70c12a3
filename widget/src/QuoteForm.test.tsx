// @vitest-environment jsdom
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PublicCompany, QuoteResponse } from '#shared/types';
import { BOOKING_EMAIL_INVALID } from '#shared/bookings';
import { QuoteForm } from './QuoteForm';
import { company } from './test-company';

const quote: QuoteResponse = {
  totalPrice: 211.5,
  quoteId: 'K7Q2',
  distance: 43.2,
  breakdown: {
    vehicleBasePrice: 25,
    callOutFee: 50,
    distanceFee: 108,
    labourFee: 45,
    extraFees: 0,
    gearboxFee: 0,
    rollingStatusFee: 0,
    passengerFee: 10,
  },
  extras: [],
  currency: 'GBP',
};

const vehicleRows = [
  { id: 1, companyId: 42, name: 'Car', basePrice: 50, enabled: true },
  { id: 2, companyId: 42, name: 'Luton Van', basePrice: 80, enabled: true },
  { id: 3, companyId: 42, name: 'Coach', basePrice: 500, enabled: false },
];
// The company's custom charges: its problem types (public reads list enabled rows only).
const surchargeRows = [
  { id: 1, companyId: 42, problemType: 'Flat Tyre', amount: 25, description: null, enabled: true },
  { id: 2, companyId: 42, problemType: 'Ditch Recovery', amount: 60, description: 'Winching out', enabled: true },
];

type Route = (url: string, init: RequestInit) => Response | Promise<Response>;
const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

let requests: { url: string; init: RequestInit }[];
function mockApi(routes: Record<string, Route>) {
  requests = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      requests.push({ url, init });
      const key = `${init.method ?? 'GET'} ${url}`;
      const route = routes[key];
      if (!route) throw new Error(`unexpected request ${key}`);
      return route(url, init);
    }),
  );
}
const notifications = () => screen.getByRole('region', { name: 'Notifications' });
const quoteBody = () => JSON.parse(String(requests.find((r) => r.url.endsWith('/api/quotes/calculate'))?.init.body));

beforeEach(() => mockApi({ 'POST /api/quotes/calculate': () => json(quote) }));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

async function fillValidForm(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByLabelText('Pickup Location'), 'm11aa');
  await user.type(screen.getByLabelText('Destination'), 'ls14ap');
  await user.selectOptions(screen.getByLabelText('Vehicle Type'), 'Car');
  await user.selectOptions(screen.getByLabelText('Gearbox'), 'Manual');
  await user.selectOptions(screen.getByLabelText('Rolling Status'), 'Not Rolling');
  await user.selectOptions(screen.getByLabelText('Problem Description'), 'Flat Tyre');
}

describe('demo mode', () => {
  it('shows the product’s fields with the sample data and no company', () => {
    render(<QuoteForm demo />);
    expect(screen.getByRole('heading', { name: 'RecoveryQuote' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Get Your Instant Recovery Quote' })).toBeTruthy();
    expect(screen.getByLabelText('Pickup Location').getAttribute('placeholder')).toBe('e.g. M1 1AA');
    const vehicles = within(screen.getByLabelText('Vehicle Type'))
      .getAllByRole('option')
      .map((o) => o.textContent);
    expect(vehicles).toEqual(['Select vehicle type', 'Car', 'Van', 'Motorcycle']);
    const gearboxes = within(screen.getByLabelText('Gearbox'))
      .getAllByRole('option')
      .map((o) => o.textContent);
    expect(gearboxes).toEqual(['Select gearbox', 'Automatic', 'Manual', 'Other']);
    const rolling = within(screen.getByLabelText('Rolling Status'))
      .getAllByRole('option')
      .map((o) => o.textContent);
    expect(rolling).toEqual(['Select rolling status', 'Rolling', 'Not Rolling', 'N/A']);
    expect(within(screen.getByLabelText('Problem Description')).getAllByRole('option')).toHaveLength(11);
    expect(screen.getByRole('radio', { name: 'Now (Emergency)' })).toHaveProperty('checked', true);
    expect(screen.getByRole('radio', { name: 'Later (Schedule)' })).toHaveProperty('checked', false);
    expect(requests).toHaveLength(0);
  });

  it('shows each field’s message under it and marks it invalid', async () => {
    const user = userEvent.setup();
    render(<QuoteForm demo />);
    await user.click(screen.getByRole('button', { name: 'Calculate Quote' }));
    const pickup = screen.getByLabelText('Pickup Location');
    expect(pickup.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(pickup.getAttribute('aria-describedby') ?? '')?.textContent).toBe('Pickup postcode is required');
    for (const message of [
      'Destination postcode is required',
      'Vehicle type is required',
      'Gearbox type is required',
      'Rolling status is required',
      'Problem type is required',
    ]) {
      expect(screen.getByText(message)).toBeTruthy();
    }
    expect(document.activeElement).toBe(pickup);
    expect(requests).toHaveLength(0);
  });

  it('toasts an invalid pickup postcode and formats postcodes on blur', async () => {
    const user = userEvent.setup();
    render(<QuoteForm demo />);
    const destination = screen.getByLabelText('Destination');
    await user.type(destination, ' ls14ap ');
    await user.tab();
    expect(destination).toHaveProperty('value', 'LS1 4AP');
    await user.type(screen.getByLabelText('Pickup Location'), 'ZZZ');
    await user.click(screen.getByRole('button', { name: 'Calculate Quote' }));
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('Invalid Pickup Postcode');
    expect(alert.textContent).toContain('Please enter a valid UK postcode for pickup location');
    // The toast says it, once: not a second time under the field.
    expect(screen.getAllByText(/Please enter a valid UK postcode for pickup location/)).toHaveLength(1);
    expect(document.activeElement).toBe(screen.getByLabelText('Pickup Location'));
  });

  it('leaves an incomplete postcode as typed on blur, its message under the field (before: "M16 0R" became "M1 60R")', async () => {
    const user = userEvent.setup();
    render(<QuoteForm demo />);
    const pickup = screen.getByLabelText('Pickup Location');
    await user.type(pickup, 'M16 0R');
    await user.tab();
    expect(pickup).toHaveProperty('value', 'M16 0R');
    expect(pickup.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(pickup.getAttribute('aria-describedby') ?? '')?.textContent).toBe('Please enter a valid UK postcode for pickup location');
  });

  it('toasts an invalid destination postcode', async () => {
    const user = userEvent.setup();
    render(<QuoteForm demo />);
    await user.type(screen.getByLabelText('Pickup Location'), 'M1 1AA');
    await user.type(screen.getByLabelText('Destination'), 'QQ');
    await user.click(screen.getByRole('button', { name: 'Calculate Quote' }));
    expect(screen.getByRole('alert').textContent).toContain('Invalid Destination PostcodePlease enter a valid UK postcode for destination');
    expect(screen.getAllByText(/Please enter a valid UK postcode for destination/)).toHaveLength(1);
  });

  it('sends company 1, shows the breakdown and disclaimer, and no toast', async () => {
    const user = userEvent.setup();
    const onQuote = vi.fn();
    render(<QuoteForm demo onQuote={onQuote} />);
    await fillValidForm(user);
    await user.click(screen.getByRole('button', { name: 'Calculate Quote' }));
    expect(await screen.findByRole('heading', { name: 'Quote Ready!' })).toBe(document.activeElement);
    expect(quoteBody()).toEqual({
      pickupPostcode: 'M1 1AA',
      destinationPostcode: 'LS1 4AP',
      vehicleType: 'car',
      gearboxType: 'manual',
      rollingStatus: 'not-rolling',
      passengerCount: 0,
      problemType: 'flat-tire',
      urgency: 'immediate',
      companyId: 1,
      // The optional Registration field, left blank: the server records none.
      registration: '',
    });
    expect(onQuote).toHaveBeenCalledWith(quote);
    expect(screen.getByText('Total Cost')).toBeTruthy();
    expect(screen.getByText('£211.50')).toBeTruthy();
    expect(screen.getByText('Quote ID: TQ-K7Q2')).toBeTruthy();
    const lines = screen.getAllByRole('term').map((t) => t.textContent);
    expect(lines).toEqual(['Vehicle Base Price', 'Call-out Fee', 'Distance (43.2 miles)', 'Labour Fee', 'Passenger Charge']);
    expect(screen.getByText(/The quoted price is an estimate and may vary/)).toBeTruthy();
    expect(notifications().textContent).toBe('');

    // The demo's quote is nobody's lead: a tap marks nothing.
    const whatsapp = screen.getByRole('button', { name: 'Contact via WhatsApp' });
    whatsapp.addEventListener('click', (event) => event.preventDefault());
    await user.click(whatsapp);
    expect(requests.map((r) => r.url)).toEqual(['/api/quotes/calculate']);
  });
});

describe('passenger stepper', () => {
  it('stays between 0 and the company limit', async () => {
    const user = userEvent.setup();
    mockApi({ 'GET /api/vehicle-types/42': () => json(vehicleRows), 'GET /api/surcharges/42': () => json(surchargeRows) });
    render(<QuoteForm company={company} />);
    const count = await screen.findByRole('group', { name: 'Number of Passengers' });
    const minus = screen.getByRole('button', { name: 'Fewer passengers' });
    const plus = screen.getByRole('button', { name: 'More passengers' });
    expect(within(count).getByRole('status').textContent).toBe('0');
    expect(minus.getAttribute('aria-disabled')).toBe('true');
    await user.click(minus);
    expect(within(count).getByRole('status').textContent).toBe('0');
    await user.click(plus);
    await user.click(plus);
    await user.click(plus);
    expect(within(count).getByRole('status').textContent).toBe('2');
    expect(plus.getAttribute('aria-disabled')).toBe('true');
    await user.click(minus);
    expect(within(count).getByRole('status').textContent).toBe('1');
  });

  it('defaults to 5 without a company', async () => {
    const user = userEvent.setup();
    render(<QuoteForm demo />);
    const plus = screen.getByRole('button', { name: 'More passengers' });
    for (let i = 0; i < 7; i++) await user.click(plus);
    expect(screen.getByRole('group', { name: 'Number of Passengers' }).textContent).toContain('5');
  });
});

describe('urgency choices', () => {
  it('show keyboard focus unlike the selected state, so a focused choice is not mistaken for the chosen one', () => {
    render(<QuoteForm demo />);
    const choice = screen.getByRole('radio', { name: 'Later (Schedule)' }).closest('label')!;
    const styles = (variant: string) =>
      new Set(
        choice.className
          .split(/\s+/)
          .filter((c) => c.startsWith(variant))
          .map((c) => c.slice(variant.length)),
      );
    const selected = styles('has-checked:');
    const focused = styles('has-focus-visible:');
    expect(focused.size).toBeGreaterThan(0);
    expect([...focused].filter((style) => selected.has(style) || style.startsWith('ring'))).toEqual([]);
  });
});

describe('scheduling', () => {
  it('reveals the date and time pickers and sends a 24-hour time', async () => {
    // A second before local midnight, with the clock held there: "today" is one known date for
    // the whole test, however long it runs and whenever it runs. Only Date is faked.
    vi.useFakeTimers({ toFake: ['Date'], now: new Date(2026, 2, 28, 23, 59, 59) });
    const iso = '2026-03-28';
    const user = userEvent.setup();
    render(<QuoteForm demo />);
    expect(screen.queryByLabelText('Preferred Date')).toBeNull();
    await user.click(screen.getByRole('radio', { name: 'Later (Schedule)' }));
    const date = screen.getByLabelText('Preferred Date');
    expect(date.getAttribute('min')).toBe(iso);
    expect(screen.getByText('Selected Time:').textContent).toBe('Selected Time: 12:00 PM');
    expect(
      within(screen.getByLabelText('Hour'))
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['01', '02', '03', '04', '05', '06', '07', '08', '09', '10', '11', '12']);
    expect(
      within(screen.getByLabelText('Min'))
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['00', '05', '10', '15', '20', '25', '30', '35', '40', '45', '50', '55']);
    await user.selectOptions(screen.getByLabelText('Min'), '35');
    await user.selectOptions(screen.getByLabelText('Period'), 'AM');
    expect(screen.getByText('Selected Time:').textContent).toBe('Selected Time: 12:35 AM');

    await fillValidForm(user);
    await user.click(screen.getByRole('button', { name: 'Calculate Quote' }));
    expect(screen.getByText('Preferred date is required')).toBeTruthy();
    await user.type(date, iso);
    await user.click(screen.getByRole('button', { name: 'Calculate Quote' }));
    await screen.findByRole('heading', { name: 'Quote Ready!' });
    expect(quoteBody()).toMatchObject({ urgency: 'later', preferredDate: iso, preferredTime: '00:35' });
  });
});

describe('a real company', () => {
  it('loads by slug, follows its display options and toasts the result', async () => {
    mockApi({
      // The public read carries the enabled rows the form offers: no further reads.
      'GET https://api.example/api/company/slug/acme': () =>
        json({ ...company, vehicleTypes: vehicleRows.filter((r) => r.enabled), surcharges: surchargeRows }),
      'POST https://api.example/api/quotes/calculate': () => json({ ...quote, breakdown: { ...quote.breakdown, extraFees: 45, gearboxFee: 10 } }),
      // The contact marker's failure is the operator's loss, never the customer's: nothing shows it.
      'POST https://api.example/api/quotes/K7Q2/contact': () => Promise.reject(new TypeError('Failed to fetch')),
    });
    const user = userEvent.setup();
    const onContact = vi.fn();
    render(<QuoteForm companySlug="acme" apiBase="https://api.example" onContact={onContact} />);
    expect(screen.getByText('Loading quote form...')).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'Acme Recovery' })).toBeTruthy();
    expect(screen.getByText('24/7 recovery across Greater Manchester')).toBeTruthy();
    const vehicles = within(screen.getByLabelText('Vehicle Type'))
      .getAllByRole('option')
      .map((o) => o.textContent);
    expect(vehicles).toEqual(['Select vehicle type', 'Car', 'Luton Van']);
    const problems = within(screen.getByLabelText('Problem Description')).getAllByRole('option');
    expect(problems.map((o) => [o.getAttribute('value'), o.textContent])).toEqual([
      ['', 'Select the problem'],
      ['flat-tyre', 'Flat Tyre'],
      ['ditch-recovery', 'Ditch Recovery'],
      ['other', 'Other'],
    ]);
    expect(requests.map((r) => r.url)).toEqual(['https://api.example/api/company/slug/acme']);

    await fillValidForm(user);
    await user.selectOptions(screen.getByLabelText('Vehicle Type'), 'Luton Van');
    await user.click(screen.getByRole('button', { name: 'Calculate Quote' }));
    await screen.findByRole('heading', { name: 'Quote Ready!' });
    expect(quoteBody()).toMatchObject({ vehicleType: 'luton van', companyId: 42 });
    expect(requests.every((r) => r.init.credentials === 'omit')).toBe(true);
    // showPriceBreakdown false and showPriceDisclaimer false: neither is shown.
    expect(screen.queryByRole('term')).toBeNull();
    expect(screen.queryByText(/The quoted price is an estimate/)).toBeNull();
    expect(within(notifications()).getByRole('status').textContent).toBe('Quote CalculatedYour recovery quote is £211.50');

    const whatsapp = screen.getByRole('button', { name: 'Contact via WhatsApp' });
    const url = new URL(whatsapp.getAttribute('href') ?? '');
    expect(url.origin + url.pathname).toBe('https://wa.me/+447700900456');
    expect(url.searchParams.get('text')).toContain('Vehicle: Luton Van');
    expect(whatsapp.getAttribute('target')).toBe('_blank');
    whatsapp.addEventListener('click', (event) => event.preventDefault());
    await user.click(whatsapp);
    expect(onContact).toHaveBeenCalledWith({ channel: 'whatsapp', quoteId: 'K7Q2' });
    const call = screen.getByRole('button', { name: 'Call Now' });
    expect(call.getAttribute('href')).toBe('tel:+441614960000');
    call.addEventListener('click', (event) => event.preventDefault());
    await user.click(call);
    // Each tap marks the quote in the operator's inbox: anonymous, and kept alive past the page.
    const markers = requests.filter((r) => r.url.endsWith('/contact'));
    expect(markers.map((r) => [r.url, r.init.method, r.init.body, r.init.keepalive, r.init.credentials])).toEqual([
      ['https://api.example/api/quotes/K7Q2/contact', 'POST', '{"channel":"whatsapp"}', true, 'omit'],
      ['https://api.example/api/quotes/K7Q2/contact', 'POST', '{"channel":"phone"}', true, 'omit'],
    ]);
    expect(notifications().textContent).toBe('Quote CalculatedYour recovery quote is £211.50');
  });

  it('shows the breakdown lines above zero when the company allows it', async () => {
    mockApi({
      'GET /api/vehicle-types/42': () => json(vehicleRows),
      'GET /api/surcharges/42': () => json(surchargeRows),
      'POST /api/quotes/calculate': () =>
        json({
          ...quote,
          breakdown: { ...quote.breakdown, extraFees: 45.3, gearboxFee: 10, rollingStatusFee: 20, passengerFee: 0 },
          extras: [
            { label: 'Flat Tire surcharge', amount: 25.1 },
            { label: 'After-hours fee', amount: 20.2 },
          ],
        }),
    });
    const user = userEvent.setup();
    render(<QuoteForm company={{ ...company, showPriceBreakdown: true, showPriceDisclaimer: true }} />);
    await screen.findByRole('heading', { name: 'Acme Recovery' });
    await fillValidForm(user);
    await user.click(screen.getByRole('button', { name: 'Calculate Quote' }));
    await screen.findByRole('heading', { name: 'Quote Ready!' });
    expect(screen.getAllByRole('term').map((t) => t.textContent)).toEqual([
      'Vehicle Base Price',
      'Call-out Fee',
      'Distance (43.2 miles)',
      'Labour Fee',
      'Flat Tire surcharge',
      'After-hours fee',
      'Gearbox Charge',
      'Rolling Status Charge',
    ]);
    expect(screen.getAllByRole('definition').map((d) => d.textContent)).toEqual([
      '£25.00',
      '£50.00',
      '£108.00',
      '£45.00',
      '£25.10',
      '£20.20',
      '£10.00',
      '£20.00',
    ]);
    expect(screen.getByText(/The quoted price is an estimate and may vary/)).toBeTruthy();
  });

  it('keeps a part of the extra fees the server did not itemise as Service Fees', async () => {
    mockApi({
      'GET /api/vehicle-types/42': () => json(vehicleRows),
      'GET /api/surcharges/42': () => json(surchargeRows),
      'POST /api/quotes/calculate': () =>
        json({ ...quote, breakdown: { ...quote.breakdown, extraFees: 40 }, extras: [{ label: 'Out-of-area fee', amount: 15 }] }),
    });
    const user = userEvent.setup();
    render(<QuoteForm company={{ ...company, showPriceBreakdown: true }} />);
    await screen.findByRole('heading', { name: 'Acme Recovery' });
    await fillValidForm(user);
    await user.click(screen.getByRole('button', { name: 'Calculate Quote' }));
    await screen.findByRole('heading', { name: 'Quote Ready!' });
    const terms = screen.getAllByRole('term').map((t) => t.textContent);
    expect(terms.slice(4)).toEqual(['Out-of-area fee', 'Service Fees', 'Passenger Charge']);
    expect(screen.getAllByRole('definition')[5].textContent).toBe('£25.00');
  });

  it('toasts the server’s message when the quote fails, and shows its field messages', async () => {
    let answer!: (response: Response) => void;
    mockApi({
      'GET /api/vehicle-types/42': () => json(vehicleRows),
      'GET /api/surcharges/42': () => json(surchargeRows),
      'POST /api/quotes/calculate': () => new Promise<Response>((resolve) => (answer = resolve)),
    });
    const user = userEvent.setup();
    render(<QuoteForm company={company} />);
    await screen.findByRole('heading', { name: 'Acme Recovery' });
    await fillValidForm(user);
    await user.click(screen.getByRole('button', { name: 'Calculate Quote' }));
    const pending = screen.getByRole('button', { name: 'Calculating...' });
    expect(pending).toHaveProperty('disabled', true);
    await act(async () => answer(json({ message: 'Postcode LS1 4AP was not found', fields: { destinationPostcode: 'Postcode LS1 4AP was not found' } }, 422)));
    const alert = await screen.findByText('Quote Calculation Failed');
    expect(alert.parentElement?.textContent).toBe('Quote Calculation FailedPostcode LS1 4AP was not found');
    expect(screen.getByLabelText('Destination').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByRole('button', { name: 'Calculate Quote' })).toHaveProperty('disabled', false);
    // Focus, dropped by the disabled button, goes to the field the server named.
    expect(document.activeElement).toBe(screen.getByLabelText('Destination'));
    expect(screen.queryByText(/We couldn't get a price/)).toBeNull();
  });

  it('falls back to a generic message when a 4xx gives none', async () => {
    mockApi({
      'GET /api/vehicle-types/42': () => json(vehicleRows),
      'GET /api/surcharges/42': () => json(surchargeRows),
      'POST /api/quotes/calculate': () => new Response('', { status: 400 }),
    });
    const user = userEvent.setup();
    render(<QuoteForm company={company} />);
    await screen.findByRole('heading', { name: 'Acme Recovery' });
    await fillValidForm(user);
    await user.click(screen.getByRole('button', { name: 'Calculate Quote' }));
    expect((await within(notifications()).findByRole('alert')).textContent).toContain('Please check your details and try again');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Calculate Quote' }));
    expect(screen.queryByText(/We couldn't get a price/)).toBeNull();
  });

  it('says so when the slug is unknown, without retrying', async () => {
    mockApi({ 'GET /api/company/slug/nobody': () => json({ message: 'Company not found' }, 404) });
    render(<QuoteForm companySlug="nobody" />);
    expect(await screen.findByRole('heading', { name: 'Company not found' })).toBeTruthy();
    expect(requests).toHaveLength(1);
  });

  it('names a lapsed company and says its quotes are paused, with its number and no form (not a wrong link)', async () => {
    const paused = { ...company, vehicleTypes: [], surcharges: [], onlineQuotes: 'paused', closedMessage: 'Online quotes from Acme Recovery are paused' };
    mockApi({ 'GET /api/company/slug/acme': () => json(paused) });
    render(<QuoteForm companySlug="acme" />);
    expect(await screen.findByRole('heading', { name: 'Online quotes from Acme Recovery are paused' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Acme Recovery' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Call Now' }).getAttribute('href')).toBe('tel:+441614960000');
    expect(screen.queryByRole('button', { name: 'Calculate Quote' })).toBeNull();
    expect(screen.queryByText(/check the link/)).toBeNull();
    expect(requests).toHaveLength(1);
  });

  it('says a company without a number has not set up online quotes yet, with no form', async () => {
    const silent = {
      ...company,
      phone: null,
      whatsapp: null,
      vehicleTypes: [],
      surcharges: [],
      onlineQuotes: 'not-set-up',
      closedMessage: 'Online quotes from Acme Recovery are not set up yet',
    };
    mockApi({ 'GET /api/company/slug/acme': () => json(silent) });
    render(<QuoteForm companySlug="acme" />);
    expect(await screen.findByRole('heading', { name: 'Online quotes from Acme Recovery are not set up yet' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Call Now' })).toBeNull();
    expect(screen.queryByLabelText('Pickup Location')).toBeNull();
  });

  it('retries the slug lookup 3 times a second apart, then offers to try again', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    mockApi({ 'GET /api/company/slug/acme': () => json({ message: 'Internal error' }, 500) });
    render(<QuoteForm companySlug="acme" />);
    await act(() => vi.advanceTimersByTimeAsync(3500));
    expect(await screen.findByRole('heading', { name: 'Unable to load the quote form' })).toBeTruthy();
    expect(requests).toHaveLength(4);
  });
});

describe('preview mode', () => {
  it('shows Loading preview... and offers the company’s surcharged problems plus other', async () => {
    mockApi({
      'GET /api/company': () => json(company),
      // The portal's own lists (all rows, disabled ones too): the public ones refuse a page that does not quote.
      'GET /api/vehicle-types': () => json(vehicleRows),
      'GET /api/surcharges': () =>
        json([
          { id: 1, companyId: 42, problemType: 'Engine Failure', amount: 45, description: null, enabled: true },
          { id: 2, companyId: 42, problemType: 'Other', amount: 0, description: null, enabled: true },
          { id: 3, companyId: 42, problemType: 'Jump Start', amount: 20, description: null, enabled: true },
          { id: 4, companyId: 42, problemType: 'Winching', amount: 60, description: null, enabled: false },
        ]),
    });
    render(<QuoteForm preview />);
    expect(screen.getByText('Loading preview...')).toBeTruthy();
    await screen.findByRole('heading', { name: 'Acme Recovery' });
    const problems = within(screen.getByLabelText('Problem Description')).getAllByRole('option');
    expect(problems.map((o) => [o.getAttribute('value'), o.textContent])).toEqual([
      ['', 'Select the problem'],
      ['engine-failure', 'Engine Failure'],
      ['jump-start', 'Jump Start'],
      ['other', 'Other'],
    ]);
    expect(requests[0].init.credentials).toBe('include');
    // The vehicle list leaves the disabled row out, as the public one would.
    const vehicles = within(screen.getByLabelText('Vehicle Type'))
      .getAllByRole('option')
      .map((o) => o.textContent);
    expect(vehicles).toEqual(['Select vehicle type', 'Car', 'Luton Van']);
  });

  it('reads the operator’s company again when the window regains focus, keeping what was typed', async () => {
    let name = 'Acme Recovery';
    mockApi({
      'GET /api/company': () => json({ ...company, name }),
      'GET /api/vehicle-types': () => json(vehicleRows),
      'GET /api/surcharges': () => json(surchargeRows),
    });
    const user = userEvent.setup();
    render(<QuoteForm preview />);
    await screen.findByRole('heading', { name: 'Acme Recovery' });
    await user.type(screen.getByLabelText('Pickup Location'), 'm11aa');

    name = 'Acme Recovery & Transport';
    act(() => {
      window.dispatchEvent(new Event('focus'));
    });
    expect(await screen.findByRole('heading', { name: 'Acme Recovery & Transport' })).toBeTruthy();
    expect(screen.getByLabelText('Pickup Location')).toHaveProperty('value', 'm11aa');
    expect(requests.filter((r) => r.url === '/api/company')).toHaveLength(2);
  });

  it('does not read a named company again on focus', async () => {
    mockApi({
      'GET /api/company/slug/acme': () => json({ ...company, vehicleTypes: vehicleRows, surcharges: surchargeRows }),
      'GET /api/company': () => json({ ...company, name: 'Own Company' }),
      'GET /api/vehicle-types': () => json(vehicleRows),
      'GET /api/surcharges': () => json(surchargeRows),
    });
    const reads = (url: string) => requests.filter((r) => r.url === url).length;
    // A preview form beside it reads again on the same focus event: once that read is seen, any
    // read the named form would make has been made too. No waiting for a time to pass.
    render(
      <>
        <QuoteForm companySlug="acme" />
        <QuoteForm preview />
      </>,
    );
    await screen.findByRole('heading', { name: 'Acme Recovery' });
    await screen.findByRole('heading', { name: 'Own Company' });
    act(() => {
      window.dispatchEvent(new Event('focus'));
    });
    await waitFor(() => expect(reads('/api/company')).toBe(2));
    expect(reads('/api/company/slug/acme')).toBe(1);
  });

  it('falls back to company 1 when nobody is signed in', async () => {
    mockApi({
      'GET /api/company': () => json({ message: 'Not signed in' }, 401),
      'GET /api/company/1': () => json({ ...company, id: 1, name: 'Demo Recovery' }),
      'GET /api/vehicle-types/1': () => json(vehicleRows),
      'GET /api/surcharges/1': () => json([]),
    });
    render(<QuoteForm />);
    expect(await screen.findByRole('heading', { name: 'Demo Recovery' })).toBeTruthy();
  });
});

describe('at the roadside', () => {
  const SAFETY = 'On a motorway or in a live lane? Get behind the barrier if it is safe, then call 999.';
  const UNREACHABLE = "We couldn't get a price just now. Please try again, or call Acme Recovery on 0161 496 0000.";
  const companyRoutes = { 'GET /api/vehicle-types/42': () => json(vehicleRows), 'GET /api/surcharges/42': () => json(surchargeRows) };
  const keys = () => requests.filter((r) => r.url.endsWith('/calculate')).map((r) => (r.init.headers as Record<string, string>)['Idempotency-Key']);

  async function renderAndFill(props: Partial<Parameters<typeof QuoteForm>[0]> = {}) {
    const user = userEvent.setup();
    render(<QuoteForm company={company} {...props} />);
    await screen.findByRole('heading', { name: props.company?.name ?? 'Acme Recovery' });
    await fillValidForm(user);
    return user;
  }

  it('shows the safety line above the form until it is dismissed', async () => {
    const user = userEvent.setup();
    render(<QuoteForm demo />);
    const safety = (_: string, element: Element | null) => element?.tagName === 'P' && element.textContent === SAFETY;
    const line = screen.getByText(safety);
    expect(line.compareDocumentPosition(screen.getByRole('heading', { name: 'Get Your Instant Recovery Quote' }))).toBe(Node.DOCUMENT_POSITION_FOLLOWING);
    await user.click(screen.getByRole('button', { name: 'Dismiss safety advice' }));
    expect(screen.queryByText(safety)).toBeNull();
  });

  it('a dropped connection is sent once more under the same key, then leaves a lasting message with a Call button', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let fail = true;
    mockApi({
      ...companyRoutes,
      'POST /api/quotes/calculate': () => (fail ? Promise.reject(new TypeError('Failed to fetch')) : json(quote)),
    });
    const user = await renderAndFill();
    await user.click(screen.getByRole('button', { name: 'Calculate Quote' }));
    const message = await screen.findByText(UNREACHABLE);
    expect(message.closest('[role="alert"]')).toBeTruthy();
    expect(within(notifications()).queryByRole('alert')?.textContent ?? '').not.toContain('check your details');
    expect(screen.getByRole('button', { name: 'Call Now' }).getAttribute('href')).toBe('tel:+441614960000');
    expect(keys()).toHaveLength(2);
    expect(keys()[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(keys()[1]).toBe(keys()[0]);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Calculate Quote' }));

    // Long after a toast would have gone, it is still there.
    await act(() => vi.advanceTimersByTimeAsync(60_000));
    expect(screen.getByText(UNREACHABLE)).toBeTruthy();

    // The next tap clears it, with a key of its own.
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Calculate Quote' }));
    await screen.findByRole('heading', { name: 'Quote Ready!' });
    expect(screen.queryByText(UNREACHABLE)).toBeNull();
    expect(keys()).toHaveLength(3);
    expect(keys()[2]).not.toBe(keys()[0]);
  });

  it('a 5xx is not retried and leads to the call', async () => {
    mockApi({ ...companyRoutes, 'POST /api/quotes/calculate': () => json({ message: 'Internal error' }, 503) });
    const user = await renderAndFill();
    await user.click(screen.getByRole('button', { name: 'Calculate Quote' }));
    expect(await screen.findByText(UNREACHABLE)).toBeTruthy();
    expect(keys()).toHaveLength(1);
    expect(screen.getByLabelText('Pickup Location').getAttribute('aria-invalid')).toBeNull();
  });

  it('gives up on a silent server after 15 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    mockApi({
      ...companyRoutes,
      'POST /api/quotes/calculate': (_url, init) =>
        new Promise((_resolve, reject) => init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')))),
    });
    const user = await renderAndFill();
    await user.click(screen.getByRole('button', { name: 'Calculate Quote' }));
    await act(() => vi.advanceTimersByTimeAsync(14_000));
    expect(screen.getByRole('button', { name: 'Calculating...' })).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    expect(await screen.findByText(UNREACHABLE)).toBeTruthy();
    expect(keys()).toHaveLength(1);
  });

  it('without a phone number the message only asks to try again', async () => {
    mockApi({ ...companyRoutes, 'POST /api/quotes/calculate': () => Promise.reject(new TypeError('Failed to fetch')) });
    const user = await renderAndFill({ company: { ...company, phone: null } });
    await user.click(screen.getByRole('button', { name: 'Calculate Quote' }));
    expect(await screen.findByText("We couldn't get a price just now. Please try again.")).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Call Now' })).toBeNull();
  });

  describe('Use my location', () => {
    const leeds = { coords: { latitude: 53.7965, longitude: -1.5478, accuracy: 10 }, timestamp: 0 };
    function stubGeolocation(answer: (ok: PositionCallback, fail: PositionErrorCallback) => void) {
      const getCurrentPosition = vi.fn((ok: PositionCallback, fail: PositionErrorCallback) => answer(ok, fail));
      vi.stubGlobal('navigator', { ...navigator, geolocation: { getCurrentPosition } });
      return getCurrentPosition;
    }
    const positionError = (code: number) => ({ code, message: '' }) as GeolocationPositionError;

    it('fills the pickup postcode from the nearest-postcode endpoint', async () => {
      mockApi({ ...companyRoutes, 'GET /api/postcodes/nearest?lat=53.7965&lng=-1.5478': () => json({ postcode: 'LS1 4AP', distanceMetres: 40 }) });
      let answer!: () => void;
      const asked = stubGeolocation((ok) => (answer = () => ok(leeds as unknown as GeolocationPosition)));
      const user = userEvent.setup();
      render(<QuoteForm company={company} />);
      const button = await screen.findByRole('button', { name: 'Use my location' });
      await user.click(button);
      // A second tap while the position is found asks nothing more, and keeps focus on the button.
      expect(button.getAttribute('aria-disabled')).toBe('true');
      await user.click(button);
      expect(asked).toHaveBeenCalledTimes(1);
      expect(document.activeElement).toBe(button);
      await act(async () => answer());
      await waitFor(() => expect(screen.getByLabelText('Pickup Location')).toHaveProperty('value', 'LS1 4AP'));
      expect(button.getAttribute('aria-disabled')).toBe('false');
    });

    it('leaves the field as it was with a message of its own for each failure', async () => {
      const sea = 'We could not find a UK postcode near you. Please type it.';
      mockApi({ ...companyRoutes, 'GET /api/postcodes/nearest?lat=53.7965&lng=-1.5478': () => json({ message: sea, code: 'NO_POSTCODE_NEAR' }, 404) });
      const user = userEvent.setup();
      render(<QuoteForm company={company} />);
      await user.type(await screen.findByLabelText('Pickup Location'), 'M1 1AA');
      const button = screen.getByRole('button', { name: 'Use my location' });
      const cases: [(ok: PositionCallback, fail: PositionErrorCallback) => void, string][] = [
        [(_ok, fail) => fail(positionError(1)), 'Location access is turned off. Please type the postcode.'],
        [(_ok, fail) => fail(positionError(3)), 'Finding your location took too long. Please type the postcode.'],
        [(ok) => ok(leeds as unknown as GeolocationPosition), sea],
      ];
      for (const [answer, message] of cases) {
        stubGeolocation(answer);
        await user.click(button);
        expect((await screen.findByText(message)).getAttribute('role')).toBe('status');
        expect(screen.getByLabelText('Pickup Location')).toHaveProperty('value', 'M1 1AA');
      }
      vi.stubGlobal('navigator', { ...navigator, geolocation: undefined });
      await user.click(button);
      expect(await screen.findByText('This browser cannot share your location. Please type the postcode.')).toBeTruthy();
      expect(screen.getByLabelText('Pickup Location')).toHaveProperty('value', 'M1 1AA');
    });
  });
});

describe('booking the recovery', () => {
  const booker: PublicCompany = { ...company, offerBooking: true, offerWhatsapp: true, offerCall: true, retentionMonths: 12 };
  const companyRoutes = { 'GET /api/vehicle-types/42': () => json(vehicleRows), 'GET /api/surcharges/42': () => json(surchargeRows) };
  const PRIVACY =
    'Acme Recovery receives your name, number, registration, note and any email to do this job; they are kept with the quote for 12 months, then deleted.';
  const created = {
    job: { reference: 'K7Q2', status: 'requested' },
    jobToken: 'Zq3kP0w9sX2bYd7LmN4rT1uV8aC5eF6g',
    jobUrl: 'https://quotes.example/job/Zq3kP0w9sX2bYd7LmN4rT1uV8aC5eF6g',
  };
  const bookings = () => requests.filter((r) => r.url === '/api/bookings').map((r) => JSON.parse(String(r.init.body)) as Record<string, unknown>);

  async function quoteWith(c: PublicCompany, routes: Record<string, Route> = {}) {
    mockApi({ ...companyRoutes, 'POST /api/quotes/calculate': () => json(quote), ...routes });
    const user = userEvent.setup();
    render(<QuoteForm company={c} />);
    await screen.findByRole('heading', { name: c.name });
    await fillValidForm(user);
    await user.click(screen.getByRole('button', { name: 'Calculate Quote' }));
    await screen.findByRole('heading', { name: 'Quote Ready!' });
    return user;
  }

  it('offers it beside WhatsApp and Call; the form says who gets the details and for how long, sends them with the quote, and a retry books once', {
    timeout: 40_000,
  }, async () => {
    const leeds = { coords: { latitude: 53.7965, longitude: -1.5478 } } as GeolocationPosition;
    vi.stubGlobal('navigator', { ...navigator, geolocation: { getCurrentPosition: (ok: PositionCallback) => ok(leeds) } });
    let fail = true;
    const user = await quoteWith(booker, {
      'GET /api/postcodes/nearest?lat=53.7965&lng=-1.5478': () => json({ postcode: 'LS1 4AP', distanceMetres: 40 }),
      // The first answer is lost on the way: the motorist taps again.
      'POST /api/bookings': () => {
        if (!fail) return json(created, 201);
        fail = false;
        return Promise.reject(new TypeError('Failed to fetch'));
      },
    });
    expect(screen.getByRole('button', { name: 'Contact via WhatsApp' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Call Now' })).toBeTruthy();
    // The position found by "Use my location" is offered: used after the quote here, as a motorist might.
    await user.click(screen.getByRole('button', { name: 'Use my location' }));
    await waitFor(() => expect(screen.getByLabelText('Pickup Location')).toHaveProperty('value', 'LS1 4AP'));
    await user.click(screen.getByRole('button', { name: 'Calculate Quote' }));
    await screen.findByRole('heading', { name: 'Quote Ready!' });

    await user.click(screen.getByRole('button', { name: 'Book this recovery' }));
    const form = await screen.findByRole('form', { name: 'Book this recovery' });
    // The line links to the operator's privacy page, in a new tab so the booking stays.
    const privacy = within(form).getByRole('link', { name: 'Privacy notice' });
    expect(privacy.parentElement?.textContent).toBe(`${PRIVACY} Privacy notice`);
    expect(privacy.getAttribute('href')).toBe('/privacy/acme');
    expect(privacy.getAttribute('target')).toBe('_blank');
    await user.type(within(form).getByLabelText('Your name'), 'Alex Driver');
    await user.type(within(form).getByLabelText('Mobile number'), '07700 900123');
    await user.type(within(form).getByLabelText('Registration'), 'ab12cde');
    await user.type(within(form).getByLabelText('Note (optional)'), 'Hard shoulder, northbound');
    await user.click(within(form).getByLabelText('Send my location with the booking'));
    await user.click(within(form).getByRole('button', { name: 'Send booking' }));
    expect(await within(form).findByRole('alert')).toHaveProperty('textContent', 'No connection. Please try again, or call.');
    await user.click(within(form).getByRole('button', { name: 'Send booking' }));

    expect(await screen.findByRole('heading', { name: 'Booking sent' })).toBeTruthy();
    const link = screen.getByRole('link', { name: 'Follow your recovery' });
    expect(link.getAttribute('href')).toBe(created.jobUrl);
    const [first, second] = bookings();
    expect(first).toEqual({
      quoteId: 'K7Q2',
      bookingKey: expect.stringMatching(/^[0-9a-f]{32}$/),
      name: 'Alex Driver',
      phone: '07700 900123',
      registration: 'ab12cde',
      note: 'Hard shoulder, northbound',
      position: { lat: 53.7965, lng: -1.5478 },
    });
    // The same form's repeat carries the same key: the server answers the booking it made.
    expect(second).toEqual(first);
    expect(requests.filter((r) => r.url === '/api/bookings').every((r) => r.init.credentials === 'omit')).toBe(true);
  });

  it('asks a booking that is paid at booking to be paid, with the checkout as its first action, not as sent', async () => {
    const checkoutUrl = 'https://checkout.stripe.com/c/pay/cs_test_Zq3kP0w9sX2bYd7L';
    const user = await quoteWith(booker, {
      'POST /api/bookings': () =>
        json(
          {
            ...created,
            job: { ...created.job, status: 'awaiting_payment', payment: { kind: 'deposit', status: 'awaiting', amount: 37.44, refunded: 0, checkoutUrl } },
            checkoutUrl,
          },
          201,
        ),
    });
    await user.click(screen.getByRole('button', { name: 'Book this recovery' }));
    const form = await screen.findByRole('form', { name: 'Book this recovery' });
    await user.type(within(form).getByLabelText('Your name'), 'Alex Driver');
    await user.type(within(form).getByLabelText('Mobile number'), '07700 900123');
    await user.click(within(form).getByRole('button', { name: 'Send booking' }));

    const heading = await screen.findByRole('heading', { name: 'Waiting for your payment' });
    expect(screen.queryByRole('heading', { name: 'Booking sent' })).toBeNull();
    const answer = heading.closest('section')!;
    expect(answer.textContent).toContain('Acme Recovery gets your booking TQ-K7Q2 once it is paid.');
    const links = within(answer).getAllByRole('link');
    expect(links.map((l) => [l.textContent, l.getAttribute('href')])).toEqual([
      ['Pay £37.44', checkoutUrl],
      ['Follow your recovery', created.jobUrl],
    ]);
  });

  it('offers no position without “Use my location”, and shows the server’s message under each field', async () => {
    const user = await quoteWith(booker, {
      'POST /api/bookings': () =>
        json(
          {
            message: 'Invalid booking',
            code: 'VALIDATION_FAILED',
            fields: { phone: 'Enter a valid mobile number, such as 07700 900123', registration: 'Registration is required' },
          },
          400,
        ),
    });
    await user.click(screen.getByRole('button', { name: 'Book this recovery' }));
    const form = await screen.findByRole('form', { name: 'Book this recovery' });
    // No "Use my location": nothing to offer.
    expect(within(form).queryByLabelText('Send my location with the booking')).toBeNull();
    await user.type(within(form).getByLabelText('Your name'), 'Alex');
    await user.type(within(form).getByLabelText('Mobile number'), '123');
    await user.click(within(form).getByRole('button', { name: 'Send booking' }));
    const phone = within(form).getByLabelText('Mobile number');
    await waitFor(() => expect(phone.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(phone.getAttribute('aria-describedby') ?? '')?.textContent).toBe('Enter a valid mobile number, such as 07700 900123');
    expect(within(form).getByText('Registration is required')).toBeTruthy();
    expect(bookings()[0]).not.toHaveProperty('position');
    expect(bookings()[0]).not.toHaveProperty('note');
  });

  it('takes an optional email, says what it is for, sends it only when typed, and shows the server’s message under it', async () => {
    let answers = 0;
    const user = await quoteWith(booker, {
      'POST /api/bookings': () =>
        (answers += 1) === 1
          ? json({ message: 'Invalid booking', code: 'VALIDATION_FAILED', fields: { email: BOOKING_EMAIL_INVALID } }, 400)
          : json(created, 201),
    });
    await user.click(screen.getByRole('button', { name: 'Book this recovery' }));
    const form = await screen.findByRole('form', { name: 'Book this recovery' });
    const email = within(form).getByLabelText('Email (optional)');
    expect(email.getAttribute('type')).toBe('email');
    expect(email.getAttribute('autocomplete')).toBe('email');
    const hint = 'Used only to ask for your review after the job, if Acme Recovery asks by email.';
    expect(document.getElementById(email.getAttribute('aria-describedby') ?? '')?.textContent).toBe(hint);
    await user.type(within(form).getByLabelText('Your name'), 'Alex Driver');
    await user.type(within(form).getByLabelText('Mobile number'), '07700 900123');
    await user.type(within(form).getByLabelText('Registration'), 'ab12cde');
    await user.type(email, 'alex@');
    await user.click(within(form).getByRole('button', { name: 'Send booking' }));
    await waitFor(() => expect(email.getAttribute('aria-invalid')).toBe('true'));
    // The hint stays read with the message.
    const described = (email.getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id)?.textContent);
    expect(described).toEqual([hint, BOOKING_EMAIL_INVALID]);
    await user.type(email, 'example.com');
    await user.click(within(form).getByRole('button', { name: 'Send booking' }));
    expect(await screen.findByRole('heading', { name: 'Booking sent' })).toBeTruthy();
    expect(bookings().map((b) => b.email)).toEqual(['alex@', 'alex@example.com']);
  });

  it('sends no email when none is typed', async () => {
    const user = await quoteWith(booker, { 'POST /api/bookings': () => json(created, 201) });
    await user.click(screen.getByRole('button', { name: 'Book this recovery' }));
    const form = await screen.findByRole('form', { name: 'Book this recovery' });
    await user.type(within(form).getByLabelText('Your name'), 'Alex Driver');
    await user.type(within(form).getByLabelText('Mobile number'), '07700 900123');
    await user.type(within(form).getByLabelText('Registration'), 'ab12cde');
    await user.type(within(form).getByLabelText('Email (optional)'), '   ');
    await user.click(within(form).getByRole('button', { name: 'Send booking' }));
    expect(await screen.findByRole('heading', { name: 'Booking sent' })).toBeTruthy();
    expect(bookings()[0]).not.toHaveProperty('email');
  });

  it('asks for a fresh quote when the price has expired, and the fresh quote can be booked', async () => {
    let quotes = 0;
    const user = await quoteWith(booker, {
      'POST /api/quotes/calculate': () => json({ ...quote, quoteId: `K7Q${++quotes}` }),
      'POST /api/bookings': () => json({ message: 'This price has expired. Please get a fresh quote to book.', code: 'QUOTE_EXPIRED' }, 409),
    });
    await user.click(screen.getByRole('button', { name: 'Book this recovery' }));
    const form = await screen.findByRole('form', { name: 'Book this recovery' });
    await user.click(within(form).getByRole('button', { name: 'Send booking' }));
    const alert = await within(form).findByRole('alert');
    expect(alert.textContent).toContain('This price has expired. Please get a fresh quote to book.');
    await user.click(within(alert).getByRole('button', { name: 'Get a fresh quote' }));
    await waitFor(() => expect(screen.getByText('Quote ID: TQ-K7Q2')).toBeTruthy());
    expect(screen.queryByRole('form', { name: 'Book this recovery' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Book this recovery' }));
    await user.click(within(await screen.findByRole('form', { name: 'Book this recovery' })).getByRole('button', { name: 'Send booking' }));
    await waitFor(() => expect(bookings().map((b) => b.quoteId)).toEqual(['K7Q1', 'K7Q2']));
  });

  it('offers the company’s own page when this website may not book for it, rather than a dead end', async () => {
    const user = await quoteWith(
      { ...booker, customSlug: 'acme-recovery' },
      {
        'POST /api/bookings': () =>
          json(
            {
              message: 'This website cannot take bookings for this company. Please finish your booking on the company’s own page.',
              code: 'BOOKING_ORIGIN_REFUSED',
            },
            403,
          ),
      },
    );
    await user.click(screen.getByRole('button', { name: 'Book this recovery' }));
    const form = await screen.findByRole('form', { name: 'Book this recovery' });
    await user.click(within(form).getByRole('button', { name: 'Send booking' }));
    const alert = await within(form).findByRole('alert');
    expect(alert.textContent).toContain('Please finish your booking on the company’s own page.');
    const link = within(alert).getByRole('link', { name: `Book on ${booker.name}’s page` });
    expect(link.getAttribute('href')).toMatch(/\/company\/acme-recovery$/);
    expect(link.getAttribute('target')).toBe('_blank');
  });

  it('follows the operator’s choice of buttons: no booking, no WhatsApp, only Call', async () => {
    await quoteWith({ ...booker, offerBooking: false, offerWhatsapp: false });
    expect(screen.queryByRole('button', { name: 'Book this recovery' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Contact via WhatsApp' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Call Now' })).toBeTruthy();
  });
});
