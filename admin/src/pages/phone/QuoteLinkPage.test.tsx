// @vitest-environment jsdom
// The caller's page of a quote link (docs/product.md §25) against the contract, the API faked:
// the quote with its lines and validity, Book this recovery with Pay where a deposit is due, the
// booking posted with the reference and the page moving on to the checkout; an expired link with
// a call and a new quote; an unknown link.
import '../../test/dom';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QUOTE_LINK_EXPIRED, QUOTE_LINK_NOT_FOUND, type QuoteLinkView } from '#shared/phone-jobs';
import { fakeApi } from '../../test/dom';
import { renderRoutes } from '../../test/render';
import QuoteLinkPage from './QuoteLinkPage';

const TOKEN = 'Zq3kP0w9sX2bYd7LmN4rT1uV8aC5eF6g';

const view = (over: Partial<QuoteLinkView> = {}): QuoteLinkView => ({
  reference: 'AB3DEFGHJK',
  company: { name: 'Dana Recovery', phone: '+441214960123', primaryColour: '#1976D2', logoUrl: null, pageUrl: 'http://localhost/company/dana' },
  pickupPostcode: 'M1 1AE',
  destinationPostcode: 'M4 4BF',
  vehicleType: 'car',
  problemType: 'other',
  lines: [
    { label: 'Call-out Fee', amount: 50 },
    { label: 'Second vehicle', amount: 40 },
  ],
  totalPrice: 90,
  validUntil: new Date(Date.now() + 3_600_000).toISOString(),
  expired: false,
  offerBooking: true,
  payAtBooking: { amount: 18, kind: 'deposit' },
  booked: false,
  payNow: null,
  paid: false,
  ...over,
});

const open = () => renderRoutes([{ path: '/q/:token', element: <QuoteLinkPage /> }], `/q/${TOKEN}`);

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('<QuoteLinkPage>', () => {
  it('shows the quote’s lines, total and validity, and books it with Pay, going on to the checkout', async () => {
    const api = fakeApi({
      [`GET /api/quote-links/${TOKEN}`]: () => ({ json: view() }),
      'POST /api/bookings': () => ({
        status: 201,
        json: { checkoutUrl: 'http://localhost/pay/cs_local_x', jobUrl: `http://localhost/job/${TOKEN}`, jobToken: TOKEN },
      }),
    });
    vi.stubGlobal('fetch', api.fetchStub);
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    open();
    await screen.findByRole('heading', { name: 'Your recovery quote' });
    const lines = within(screen.getByRole('list', { name: 'Price lines' })).getAllByRole('listitem');
    expect(lines.map((line) => line.textContent)).toEqual(['Call-out Fee£50.00', 'Second vehicle£40.00']);
    expect(screen.getByText(/^Valid until /)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Call Dana Recovery on 0121 496 0123' }).getAttribute('href')).toBe('tel:+441214960123');

    await userEvent.click(screen.getByRole('button', { name: 'Book this recovery' }));
    await userEvent.type(screen.getByLabelText('Your name'), 'Jo Caller');
    await userEvent.type(screen.getByLabelText('Your mobile'), '07700 900555');
    await userEvent.type(screen.getByLabelText('Registration'), 'AB12 CDE');
    // The optional email says what it is for: the review request alone.
    const email = screen.getByLabelText('Email (optional)');
    expect(document.getElementById(email.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
      'Used only to ask for your review after the job, if Dana Recovery asks by email.',
    );
    await userEvent.type(email, 'jo@caller.example');
    await userEvent.click(screen.getByRole('button', { name: 'Pay £18.00' }));
    const posted = api.calls.find((call) => call.method === 'POST');
    expect(posted?.body).toMatchObject({
      quoteId: 'AB3DEFGHJK',
      name: 'Jo Caller',
      phone: '07700 900555',
      registration: 'AB12 CDE',
      email: 'jo@caller.example',
    });
    expect((posted?.body as { bookingKey?: string } | undefined)?.bookingKey).toMatch(/^[A-Za-z0-9_-]{22,64}$/);
    expect(assign).toHaveBeenCalledWith('http://localhost/pay/cs_local_x');
  });

  it('says an expired quote has expired and offers a call and a new quote, with no booking', async () => {
    vi.stubGlobal('fetch', fakeApi({ [`GET /api/quote-links/${TOKEN}`]: () => ({ json: view({ expired: true }) }) }).fetchStub);
    open();
    await screen.findByText(QUOTE_LINK_EXPIRED);
    expect(screen.getByRole('link', { name: 'Get a new quote' }).getAttribute('href')).toBe('http://localhost/company/dana');
    expect(screen.getByRole('link', { name: /^Call Dana Recovery/ })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Book this recovery' })).toBeNull();
  });

  it('is the payment link of a job booked for the caller: Pay opens the job’s checkout, even past the quote’s validity', async () => {
    const api = fakeApi({
      [`GET /api/quote-links/${TOKEN}`]: () => ({ json: view({ booked: true, expired: true, payAtBooking: null, payNow: { amount: 18, kind: 'deposit' } }) }),
      [`POST /api/quote-links/${TOKEN}/pay`]: () => ({ json: { checkoutUrl: 'http://localhost/pay/cs_local_y' } }),
    });
    vi.stubGlobal('fetch', api.fetchStub);
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    open();
    await screen.findByText('This quote is booked. Pay £18.00 for it here, or follow it from the link in your text message.');
    expect(screen.queryByText(QUOTE_LINK_EXPIRED)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Book this recovery' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Pay £18.00' }));
    expect(assign).toHaveBeenCalledWith('http://localhost/pay/cs_local_y');
  });

  it('says a booked job is paid, with nothing more to pay', async () => {
    vi.stubGlobal('fetch', fakeApi({ [`GET /api/quote-links/${TOKEN}`]: () => ({ json: view({ booked: true, paid: true }) }) }).fetchStub);
    open();
    await screen.findByText('This quote is booked and paid. Follow it from the link in your text message.');
    expect(screen.queryByRole('button', { name: /^Pay / })).toBeNull();
  });

  it('says an unknown link is not valid', async () => {
    vi.stubGlobal(
      'fetch',
      fakeApi({ [`GET /api/quote-links/${TOKEN}`]: () => ({ status: 404, json: { message: QUOTE_LINK_NOT_FOUND, code: 'NOT_FOUND' } }) }).fetchStub,
    );
    open();
    await screen.findByRole('heading', { name: 'Quote not found' });
    expect(screen.getByText(QUOTE_LINK_NOT_FOUND)).toBeTruthy();
  });
});
