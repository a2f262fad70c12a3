// @vitest-environment jsdom
// The quote form with the "More rules" answers (docs/product.md §10): the server's own lines (travel, minimum, VAT), how long
// the price holds, and a pickup beyond the operator's maximum radius.
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PublicCompany, QuoteResponse } from '#shared/types';
import { QuoteForm } from './QuoteForm';
import { formatValidUntil } from './QuoteResult';
import { company as testCompany } from './test-company';

// The shared test operator, with this file's display settings: the breakdown shown, no service
// area or features, no rounding, a phone to call.
const company = {
  ...testCompany,
  phone: '0161 496 0000',
  whatsapp: null,
  email: null,
  preferredContact: 'phone',
  showPriceBreakdown: true,
  companyDescription: null,
  showServiceArea: false,
  showFeatures: false,
  enablePriceRounding: false,
  passengerLimit: 5,
  vehicleTypes: [{ id: 1, companyId: 42, name: 'Car', basePrice: 25, enabled: true }],
  surcharges: [],
} satisfies PublicCompany & Record<string, unknown>;

const quote: QuoteResponse = {
  totalPrice: 240,
  quoteId: 'K7Q2ABCDE',
  distance: 10,
  breakdown: { vehicleBasePrice: 25, callOutFee: 50, distanceFee: 25, labourFee: 45, extraFees: 95, gearboxFee: 0, rollingStatusFee: 0, passengerFee: 0 },
  extras: [
    { label: 'Travel to you: 7.3 miles after 5 free', amount: 10.95 },
    { label: 'Minimum charge adjustment', amount: 44.05 },
    { label: 'VAT (20%)', amount: 40 },
  ],
  lines: [
    { label: 'Vehicle Base Price', amount: 25 },
    { label: 'Call-out Fee', amount: 50 },
    { label: 'Distance (10 miles)', amount: 25 },
    { label: 'Labour Fee', amount: 45 },
    { label: 'Travel to you: 7.3 miles after 5 free', amount: 10.95 },
    { label: 'Minimum charge adjustment', amount: 44.05 },
    { label: 'VAT (20%)', amount: 40 },
  ],
  vat: { rate: 20, amount: 40, includedInPrices: false },
  validUntil: '2026-07-02T13:30:00.000Z',
  currency: 'GBP',
};

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

function answerQuotesWith(response: () => Response) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      if (url.endsWith('/api/quotes/calculate')) return response();
      if (url.endsWith('/api/vehicle-types/42')) return json(company.vehicleTypes);
      if (url.endsWith('/api/surcharges/42')) return json([]);
      throw new Error(`unexpected request ${url}`);
    }),
  );
}

async function askForQuote() {
  const user = userEvent.setup();
  render(<QuoteForm company={company} />);
  await screen.findByRole('heading', { name: 'Acme Recovery' });
  await user.type(screen.getByLabelText('Pickup Location'), 'm11aa');
  await user.type(screen.getByLabelText('Destination'), 'ls14ap');
  await user.selectOptions(screen.getByLabelText('Vehicle Type'), 'Car');
  await user.selectOptions(screen.getByLabelText('Gearbox'), 'Manual');
  await user.selectOptions(screen.getByLabelText('Rolling Status'), 'Rolling');
  await user.selectOptions(screen.getByLabelText('Problem Description'), 'Other');
  await user.click(screen.getByRole('button', { name: 'Calculate Quote' }));
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('quote rules in the form', () => {
  it('shows the server’s lines, each rule on its own, and until when the price holds (UK time)', async () => {
    answerQuotesWith(() => json(quote));
    await askForQuote();
    await screen.findByRole('heading', { name: 'Quote Ready!' });
    expect(screen.getAllByRole('term').map((t) => t.textContent)).toEqual(quote.lines!.map((line) => line.label));
    expect(screen.getAllByRole('definition').map((d) => d.textContent)).toEqual(['£25.00', '£50.00', '£25.00', '£45.00', '£10.95', '£44.05', '£40.00']);
    // 13:30 UTC in July is 14:30 BST.
    expect(screen.getByText('Price valid until 2 July 2026 at 14:30')).toBeTruthy();
  });

  it.each([
    ['2026-01-15T00:05:00.000Z', '15 January 2026 at 00:05'],
    ['2026-10-24T23:30:00.000Z', '25 October 2026 at 00:30'],
    ['2026-10-25T01:30:00.000Z', '25 October 2026 at 01:30'],
  ])('formats %s as %s', (iso, text) => {
    expect(formatValidUntil(iso)).toBe(text);
  });

  it('a pickup outside the area shows the operator’s message with a Call button, not a price or a failure toast', async () => {
    const message = "This pickup is outside Acme Recovery's area. Please call us on 0161 496 0000.";
    answerQuotesWith(() => json({ message, code: 'OUTSIDE_SERVICE_AREA', phone: '+441614960000', requestId: 'r1' }, 422));
    await askForQuote();
    const alert = await screen.findByText(message);
    expect(alert.closest('[role="alert"]')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Call Now' }).getAttribute('href')).toBe('tel:01614960000');
    expect(screen.queryByText('Quote Calculation Failed')).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Quote Ready!' })).toBeNull();
  });
});
