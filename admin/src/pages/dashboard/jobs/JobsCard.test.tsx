// @vitest-environment jsdom
// The Jobs card against the bookings contract, with the API faked: requested bookings first with
// the time left, accept with an ETA and a driver, decline with a reason, the checks before sending
// and the server's refusals, the driver's link, the history, and a new booking appearing by itself.
import '../../../test/dom';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Booking, BookingList } from '#shared/booking-responses';
import { fakeApi } from '../../../test/dom';
import { renderRoutes } from '../../../test/render';
import { JOBS_POLL_MS } from './api';
import { countdown } from './format';
import { CONFIRM_DECLINE, JobsCard, KEEP_BOOKING, waitingText } from './JobsCard';

const minutesFromNow = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();

const requested: Booking = {
  reference: 'KJAECF76R',
  status: 'requested',
  customerName: 'Jane Motorist',
  customerPhone: '+447700900123',
  registration: 'AB12 CDE',
  note: 'Hard shoulder, northbound, after junction 18',
  position: null,
  pickupPostcode: 'SW1A 1AA',
  destinationPostcode: 'EC1A 1BB',
  vehicleType: 'car',
  price: 143.75,
  createdAt: minutesFromNow(-3),
  respondBy: minutesFromNow(7),
  acceptedAt: null,
  eta: null,
  driverName: null,
  declineReason: null,
  driverUrl: null,
  history: [{ status: 'requested', at: minutesFromNow(-3) }],
  payment: null,
  balance: 143.75,
  balanceRecorded: null,
  payByLink: false,
  payLink: null,
  source: 'website',
  takenBy: null,

  scheduledFor: null,
  windowMinutes: null,
};
const DRIVER_URL = 'http://localhost/driver/Zq3kP0w9sX2bYd7LmN4rT1uV8aC5eF6g';
const accepted: Booking = {
  ...requested,
  status: 'accepted',
  acceptedAt: minutesFromNow(0),
  eta: { minutes: 25, at: minutesFromNow(25), fromPosition: false },
  driverName: 'Sam',
  driverUrl: DRIVER_URL,
  history: [...requested.history, { status: 'accepted', at: minutesFromNow(0) }],
};
const underWay: Booking = { ...accepted, reference: 'M3N4P5Q6R', customerName: 'Omar Stranded', status: 'on_the_way', driverUrl: `${DRIVER_URL}x` };
const declined: Booking = { ...requested, reference: 'ABCDEFGH', customerName: 'Late Larry', status: 'declined', declineReason: 'No truck free', history: [] };

type Route = (body: unknown) => { status?: number; json?: unknown };

function renderCard(routes: Record<string, Route>) {
  const api = fakeApi(routes);
  vi.stubGlobal('fetch', api.fetchStub);
  renderRoutes([{ path: '/dashboard', element: <JobsCard /> }], '/dashboard?tab=quotes');
  return api;
}

const list = (open: Booking[], recent: Booking[] = []): { json: BookingList } => ({ json: { open, recent } });
const job = (reference: string) => screen.getByRole('article', { name: new RegExp(`^TQ-${reference}`) });
const posts = (api: ReturnType<typeof fakeApi>) => api.calls.filter((call) => call.method === 'POST');

afterEach(() => {
  vi.useRealTimers();
});

describe('countdown', () => {
  it('counts minutes and seconds down to the deadline and stops at 0:00', () => {
    const deadline = '2026-11-26T10:10:00Z';
    expect(countdown(deadline, Date.parse('2026-11-26T10:00:00Z'))).toBe('10:00');
    expect(countdown(deadline, Date.parse('2026-11-26T10:02:55.500Z'))).toBe('7:05');
    expect(countdown(deadline, Date.parse('2026-11-26T10:11:00Z'))).toBe('0:00');
  });
});

describe('<JobsCard>', () => {
  it('shows requested bookings first with the time left, then jobs under way, and the finished ones apart', async () => {
    renderCard({ 'GET /api/bookings': () => list([requested, underWay], [declined]) });
    await screen.findByText(waitingText(1));
    const open = within(screen.getByRole('list', { name: 'Open jobs' })).getAllByRole('article');
    expect(open.map((item) => within(item).getByRole('heading').textContent)).toEqual(['TQ-KJAECF76R · Jane Motorist', 'TQ-M3N4P5Q6R · Omar Stranded']);
    const first = job('KJAECF76R');
    expect(within(first).getByRole('timer').textContent).toMatch(/^Answer within [67]:\d\d$/);
    expect(within(first).getByRole('link', { name: '07700 900123' }).getAttribute('href')).toBe('tel:+447700900123');
    expect(first.textContent).toContain('AB12 CDE · SW1A 1AA → EC1A 1BB · £143.75');
    expect(first.textContent).toContain('Note: Hard shoulder, northbound, after junction 18');
    expect(within(first).getByRole('form', { name: 'Accept TQ-KJAECF76R' })).toBeTruthy();
    expect(within(first).getByRole('form', { name: 'Decline TQ-KJAECF76R' })).toBeTruthy();

    const second = job('M3N4P5Q6R');
    expect(within(second).queryByRole('timer')).toBeNull();
    expect(within(second).queryByRole('form')).toBeNull();
    expect(second.textContent).toContain('On the way');
    expect(second.textContent).toMatch(/Expected at \d\d:\d\d \(25 min\) · Driver: Sam/);

    const finished = within(screen.getByRole('list', { name: 'Finished jobs' })).getByRole('article');
    expect(finished.textContent).toContain('Declined: No truck free');
  });

  it('marks where each job came from, and who took a phone job', async () => {
    const phoneJob: Booking = { ...underWay, source: 'phone', takenBy: 'Dana Driver' };
    renderCard({ 'GET /api/bookings': () => list([requested, phoneJob]) });
    await screen.findByText(waitingText(1));
    expect(within(job('KJAECF76R')).getByLabelText('From: website').textContent).toBe('website');
    expect(within(job('KJAECF76R')).queryByText(/^Taken by phone/)).toBeNull();
    expect(within(job('M3N4P5Q6R')).getByLabelText('From: phone').textContent).toBe('phone');
    expect(within(job('M3N4P5Q6R')).getByText('Taken by phone by Dana Driver')).toBeTruthy();
  });

  it('says when nothing waits, and keeps the card so the operator knows where bookings land', async () => {
    renderCard({ 'GET /api/bookings': () => list([]) });
    await screen.findByText('No bookings waiting for an answer.');
    expect(screen.getByRole('heading', { name: 'Jobs' })).toBeTruthy();
    expect(screen.queryByRole('list')).toBeNull();
  });

  it('accepts with an ETA and the driver’s name, then offers the driver’s link to copy or send by WhatsApp', async () => {
    let answered = false;
    const api = renderCard({
      'GET /api/bookings': () => list([answered ? accepted : requested]),
      'POST /api/bookings/KJAECF76R/accept': () => {
        answered = true;
        return { json: accepted };
      },
    });
    const form = await screen.findByRole('form', { name: 'Accept TQ-KJAECF76R' });
    fireEvent.change(within(form).getByLabelText('ETA (minutes)'), { target: { value: '25' } });
    fireEvent.change(within(form).getByLabelText('Driver’s name (optional)'), { target: { value: ' Sam ' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Accept' }));

    await waitFor(() => expect(within(job('KJAECF76R')).queryByRole('form')).toBeNull());
    expect(posts(api)).toEqual([{ method: 'POST', path: '/api/bookings/KJAECF76R/accept', body: { etaMinutes: 25, driverName: 'Sam' } }]);
    const item = job('KJAECF76R');
    expect(within(item).getAllByText('Accepted')).toHaveLength(2);
    expect(item.textContent).toMatch(/Expected at \d\d:\d\d \(25 min\) · Driver: Sam/);
    expect(within(item).queryByRole('timer')).toBeNull();
    expect(screen.getByText(waitingText(0))).toBeTruthy();

    expect((within(item).getByLabelText('Driver’s link for TQ-KJAECF76R') as HTMLInputElement).value).toBe(DRIVER_URL);
    const share = within(item).getByRole('link', { name: 'Send by WhatsApp' });
    const text = new URL(share.getAttribute('href') ?? '').searchParams.get('text');
    expect(share.getAttribute('href')).toMatch(/^https:\/\/wa\.me\/\?text=/);
    expect(text).toBe(`Job TQ-KJAECF76R, pickup SW1A 1AA: ${DRIVER_URL}`);

    const writeText = vi.fn(() => Promise.resolve());
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    fireEvent.click(within(item).getByRole('button', { name: 'Copy driver link' }));
    await within(item).findByText('Copied.');
    expect(writeText).toHaveBeenCalledWith(DRIVER_URL);
  });

  it('checks the ETA and the reason before sending anything', async () => {
    const api = renderCard({ 'GET /api/bookings': () => list([requested]) });
    const accept = await screen.findByRole('form', { name: 'Accept TQ-KJAECF76R' });
    fireEvent.click(within(accept).getByRole('button', { name: 'Accept' }));
    expect(await within(accept).findByText('ETA must be a number of minutes')).toBeTruthy();
    fireEvent.change(within(accept).getByLabelText('ETA (minutes)'), { target: { value: '601' } });
    fireEvent.click(within(accept).getByRole('button', { name: 'Accept' }));
    expect(await within(accept).findByText('ETA cannot exceed 600 minutes')).toBeTruthy();
    expect(within(accept).getByLabelText('ETA (minutes)').getAttribute('aria-invalid')).toBe('true');

    const decline = screen.getByRole('form', { name: 'Decline TQ-KJAECF76R' });
    fireEvent.click(within(decline).getByRole('button', { name: 'Decline' }));
    expect(await within(decline).findByText('Reason is required')).toBeTruthy();
    expect(posts(api)).toEqual([]);
  });

  it('declines with a reason, and the job moves to the finished ones', async () => {
    let answered = false;
    const gone = {
      ...requested,
      status: 'declined' as const,
      declineReason: 'No truck free',
      history: [...requested.history, { status: 'declined' as const, at: minutesFromNow(0) }],
    };
    const api = renderCard({
      'GET /api/bookings': () => (answered ? list([], [gone]) : list([requested])),
      'POST /api/bookings/KJAECF76R/decline': () => {
        answered = true;
        return { json: gone };
      },
    });
    const form = await screen.findByRole('form', { name: 'Decline TQ-KJAECF76R' });
    fireEvent.change(within(form).getByLabelText('Reason for declining'), { target: { value: 'No truck free' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Decline' }));
    await screen.findByRole('list', { name: 'Finished jobs' });
    expect(screen.queryByRole('list', { name: 'Open jobs' })).toBeNull();
    expect(posts(api)).toEqual([{ method: 'POST', path: '/api/bookings/KJAECF76R/decline', body: { reason: 'No truck free' } }]);
    const history = within(job('KJAECF76R')).getByRole('list', { name: 'History of TQ-KJAECF76R' });
    expect(
      within(history)
        .getAllByRole('listitem')
        .map((item) => item.textContent?.replace(/^.*\d\d:\d\d/, '')),
    ).toEqual(['Requested', 'Declined']);
  });

  it('asks before declining a job paid at booking, saying it refunds the customer; "Keep the booking" sends nothing', async () => {
    const paidRequested: Booking = { ...requested, payment: { kind: 'deposit', status: 'paid', amount: 37.44, refunded: 0, checkoutUrl: null } };
    const api = renderCard({
      'GET /api/bookings': () => list([paidRequested]),
      'POST /api/bookings/KJAECF76R/decline': () => ({ json: { ...paidRequested, status: 'declined', declineReason: 'No truck free' } }),
    });
    const form = await screen.findByRole('form', { name: 'Decline TQ-KJAECF76R' });
    fireEvent.change(within(form).getByLabelText('Reason for declining'), { target: { value: 'No truck free' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Decline' }));
    const ask = await screen.findByRole('alertdialog', { name: 'Decline TQ-KJAECF76R?' });
    expect(within(ask).getByText('The customer paid £37.44 at booking: declining refunds what is left of it in full.')).toBeTruthy();
    expect(posts(api)).toEqual([]);
    fireEvent.click(within(ask).getByRole('button', { name: KEEP_BOOKING }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(posts(api)).toEqual([]);
    fireEvent.click(within(form).getByRole('button', { name: 'Decline' }));
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: CONFIRM_DECLINE }));
    await waitFor(() => expect(posts(api)).toEqual([{ method: 'POST', path: '/api/bookings/KJAECF76R/decline', body: { reason: 'No truck free' } }]));
  });

  it('shows the server’s refusal, such as a booking that expired meanwhile, and its per-field messages', async () => {
    renderCard({
      'GET /api/bookings': () => list([requested]),
      'POST /api/bookings/KJAECF76R/accept': () => ({
        status: 409,
        json: { message: 'This job cannot move to that status now.', code: 'BOOKING_OUT_OF_ORDER', requestId: 'r1' },
      }),
      'POST /api/bookings/KJAECF76R/decline': () => ({
        status: 400,
        json: { message: 'Invalid request', code: 'VALIDATION_ERROR', fields: { reason: 'Reason contains characters that are not allowed' }, requestId: 'r2' },
      }),
    });
    const accept = await screen.findByRole('form', { name: 'Accept TQ-KJAECF76R' });
    fireEvent.change(within(accept).getByLabelText('ETA (minutes)'), { target: { value: '20' } });
    fireEvent.click(within(accept).getByRole('button', { name: 'Accept' }));
    expect((await within(job('KJAECF76R')).findByRole('alert')).textContent).toBe('This job cannot move to that status now.');

    const decline = screen.getByRole('form', { name: 'Decline TQ-KJAECF76R' });
    fireEvent.change(within(decline).getByLabelText('Reason for declining'), { target: { value: 'Busy' } });
    fireEvent.click(within(decline).getByRole('button', { name: 'Decline' }));
    expect(await within(decline).findByText('Reason contains characters that are not allowed')).toBeTruthy();
  });

  it('shows a new booking without a reload: the list is read again every few seconds', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let bookings: Booking[] = [];
    const api = renderCard({ 'GET /api/bookings': () => list(bookings) });
    await screen.findByText(waitingText(0));
    bookings = [requested];
    await act(async () => {
      await vi.advanceTimersByTimeAsync(JOBS_POLL_MS);
    });
    await screen.findByText(waitingText(1));
    expect(job('KJAECF76R')).toBeTruthy();
    expect(api.calls.filter((call) => call.path === '/api/bookings').length).toBeGreaterThanOrEqual(2);
  });
  it('shows what the motorist paid at booking, and refunds part of it, the bound said by the server', async () => {
    const paid: Booking = { ...accepted, payment: { kind: 'deposit', status: 'paid', amount: 37.44, refunded: 0, checkoutUrl: null } };
    const held: Booking = { ...underWay, payment: { kind: 'hold', status: 'held', amount: 187.2, refunded: 0, checkoutUrl: null } };
    const refunded: Booking = { ...paid, payment: { ...paid.payment!, status: 'partially_refunded', refunded: 7.44 } };
    let done = false;
    const api = renderCard({
      'GET /api/bookings': () => list([done ? refunded : paid, held]),
      'POST /api/bookings/KJAECF76R/refund': (body) => {
        if ((body as { amount?: number }).amount === 40) {
          return {
            status: 400,
            json: { message: 'Too much', code: 'VALIDATION_FAILED', fields: { amount: 'Refund can be at most £37.44, what is left of the payment' } },
          };
        }
        done = true;
        return { json: refunded };
      },
    });
    expect(await within(await screen.findByRole('article', { name: /^TQ-KJAECF76R/ })).findByText('Deposit paid £37.44')).toBeTruthy();
    // A hold has taken nothing yet: nothing to refund.
    expect(within(job('M3N4P5Q6R')).getByText('Held £187.20')).toBeTruthy();
    expect(within(job('M3N4P5Q6R')).queryByText('Refund the motorist')).toBeNull();

    const form = within(job('KJAECF76R')).getByRole('form', { name: 'Refund TQ-KJAECF76R' });
    expect(within(form).getByText('Up to £37.44. Leave blank to refund all of it.')).toBeTruthy();
    fireEvent.change(within(form).getByLabelText('Amount to refund (£)'), { target: { value: 'lots' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Refund' }));
    expect(await within(form).findByText('Refund must be an amount in pounds')).toBeTruthy();
    expect(posts(api)).toEqual([]);

    fireEvent.change(within(form).getByLabelText('Amount to refund (£)'), { target: { value: '40' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Refund' }));
    expect(await within(form).findByText('Refund can be at most £37.44, what is left of the payment')).toBeTruthy();
    fireEvent.change(within(form).getByLabelText('Amount to refund (£)'), { target: { value: '£7.44' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Refund' }));
    expect(await within(job('KJAECF76R')).findByText('Deposit paid £37.44, refunded £7.44')).toBeTruthy();
    expect(posts(api).map((call) => call.body)).toEqual([{ amount: 40 }, { amount: 7.44 }]);
  });
});

describe('a completed job’s balance by card', () => {
  const completed: Booking = {
    ...accepted,
    status: 'completed',
    driverUrl: null,
    payment: { kind: 'deposit', status: 'paid', amount: 37.44, refunded: 0, checkoutUrl: null },
    balance: 149.76,
    payByLink: true,
  };
  const link = 'http://localhost/balance/Zq3kP0w9sX2bYd7LmN4rT1uV8aC5eF6g';

  it('offers "Text the link", which makes the pay link and shows its QR code; the server’s refusal shows in place', async () => {
    let made = false;
    let refuse = true;
    const api = renderCard({
      'GET /api/bookings': () => list([], [made ? { ...completed, payLink: link } : completed]),
      'GET /api/bookings/KJAECF76R/documents': () => ({ json: [] }),
      'POST /api/bookings/KJAECF76R/pay-link': () => {
        if (refuse) {
          refuse = false;
          return {
            status: 409,
            json: { message: 'A pay link needs your payment account connected and ready: see Payments in the portal.', code: 'PAY_LINK_UNAVAILABLE' },
          };
        }
        made = true;
        return { json: { ...completed, payLink: link } };
      },
    });
    fireEvent.click(await screen.findByText('Finished in the last 24 hours (1)'));
    const card = job('KJAECF76R');
    expect(within(card).getByText('Take the balance by card: £149.76')).toBeTruthy();
    expect(within(card).getByText('Shows a QR code for the customer to scan, and texts them the link.')).toBeTruthy();
    fireEvent.click(within(card).getByRole('button', { name: 'Text the link' }));
    expect(await within(card).findByText('A pay link needs your payment account connected and ready: see Payments in the portal.')).toBeTruthy();
    fireEvent.click(within(card).getByRole('button', { name: 'Text the link' }));
    expect(await within(job('KJAECF76R')).findByRole('heading', { name: 'Scan to pay £149.76 by card' })).toBeTruthy();
    expect(within(job('KJAECF76R')).getByRole('link', { name: link }).getAttribute('href')).toBe(link);
    expect(within(job('KJAECF76R')).queryByRole('button', { name: 'Text the link' })).toBeNull();
    expect(posts(api).map((call) => call.path)).toEqual(['/api/bookings/KJAECF76R/pay-link', '/api/bookings/KJAECF76R/pay-link']);
  });

  it('offers nothing without a ready payment account, with nothing left to pay, or before completion', async () => {
    renderCard({
      'GET /api/bookings': () =>
        list(
          [{ ...accepted, payByLink: false }],
          [
            { ...completed, reference: 'NOACCOUNT1', payByLink: false },
            { ...completed, reference: 'PAIDINFULL', balance: 0, balanceRecorded: 'cash', payByLink: false },
          ],
        ),
      'GET /api/bookings/NOACCOUNT1/documents': () => ({ json: [] }),
      'GET /api/bookings/PAIDINFULL/documents': () => ({ json: [] }),
    });
    fireEvent.click(await screen.findByText('Finished in the last 24 hours (2)'));
    await screen.findByRole('article', { name: /^TQ-PAIDINFULL/ });
    expect(screen.queryByText(/Take the balance by card/)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Text the link' })).toBeNull();
  });
});

describe('a finished job’s documents', () => {
  it('links a completed paid job’s simplified VAT invoice as a PDF and issues a full one on request', async () => {
    const completed: Booking = {
      ...accepted,
      status: 'completed',
      driverUrl: null,
      payment: { kind: 'deposit', status: 'paid', amount: 37.44, refunded: 0, checkoutUrl: null },
    };
    const simplified = { number: '000001', kind: 'simplified_invoice', title: 'Simplified VAT invoice', issuedAt: minutesFromNow(0), total: 143.75 };
    const full = { number: '000002', kind: 'vat_invoice', title: 'VAT invoice', issuedAt: minutesFromNow(0), total: 143.75 };
    let documents = [simplified];
    const api = renderCard({
      'GET /api/bookings': () => ({ json: { open: [], recent: [completed] } satisfies BookingList }),
      [`GET /api/bookings/${completed.reference}/documents`]: () => ({ json: documents }),
      [`POST /api/bookings/${completed.reference}/full-invoice`]: () => {
        documents = [simplified, full];
        return { status: 201, json: full };
      },
    });
    fireEvent.click(await screen.findByText('Finished in the last 24 hours (1)'));
    const link = await within(job(completed.reference)).findByRole('link', { name: 'Simplified VAT invoice 000001 (£143.75, PDF)' });
    expect(link.getAttribute('href')).toBe(`/api/bookings/${completed.reference}/documents/000001`);
    fireEvent.click(within(job(completed.reference)).getByRole('button', { name: 'Issue full VAT invoice' }));
    // The customer's address first: a full VAT invoice shows it.
    const form = within(job(completed.reference)).getByRole('form', { name: `Full VAT invoice for TQ-${completed.reference}` });
    await act(async () => {
      fireEvent.click(within(form).getByRole('button', { name: 'Issue VAT invoice' }));
    });
    expect(within(form).getByText('Enter the customer’s address: a full VAT invoice shows it')).toBeTruthy();
    fireEvent.change(within(form).getByLabelText('Customer’s address'), { target: { value: '1 High Street\nLeeds LS1 1AA' } });
    await act(async () => {
      fireEvent.click(within(form).getByRole('button', { name: 'Issue VAT invoice' }));
    });
    expect(await within(job(completed.reference)).findByRole('link', { name: 'VAT invoice 000002 (£143.75, PDF)' })).toBeTruthy();
    expect(within(job(completed.reference)).queryByRole('button', { name: 'Issue full VAT invoice' })).toBeNull();
    expect(api.calls.filter((c) => c.method === 'POST').map((c) => [c.path, c.body])).toEqual([
      [`/api/bookings/${completed.reference}/full-invoice`, { customerAddress: '1 High Street\nLeeds LS1 1AA' }],
    ]);
  });
});
