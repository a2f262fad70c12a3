// The quote's stored snapshot of its lines (linesJson) and the quote route's body (quoteResponseJson)
// are written by hand; each must be exactly what JSON.stringify writes, whatever they hold.
import { describe, expect, it } from 'vitest';
import type { QuoteResponse } from '#shared/types';
import { linesJson, quoteResponseJson } from './quote-service';

describe('linesJson', () => {
  it.each([
    [[]],
    [[{ label: 'Vehicle Base Price', amountPence: 5000 }]],
    [
      [
        { label: 'Vehicle Base Price', amountPence: 5000 },
        { label: 'Distance (12.3 miles)', amountPence: 3733 },
        { label: 'Minimum charge adjustment', amountPence: 0 },
        { label: 'Price rounding', amountPence: -0 },
      ],
    ],
    [[{ label: 'Winch "Out" \\ 4×4 — £\u0000\n\u2028 surcharge', amountPence: 1500 }]],
    [
      [
        { label: '\ud800 lone surrogate', amountPence: Number.NaN },
        { label: '', amountPence: Number.POSITIVE_INFINITY },
      ],
    ],
  ])('writes what JSON.stringify writes for %j', (lines) => {
    expect(linesJson(lines)).toBe(JSON.stringify(lines));
    // Twice: the second time the labels come from the cache.
    expect(linesJson(lines)).toBe(JSON.stringify(lines));
  });
});

describe('quoteResponseJson', () => {
  const answer: QuoteResponse = {
    totalPrice: 671.5,
    quoteId: 'ZC8KGFWED',
    distance: 202.6,
    breakdown: { vehicleBasePrice: 25, callOutFee: 50, distanceFee: 506.5, labourFee: 45, extraFees: 45, gearboxFee: 0, rollingStatusFee: 0, passengerFee: 0 },
    extras: [{ label: 'Engine Failure surcharge', amount: 45 }],
    lines: [
      { label: 'Vehicle Base Price', amount: 25 },
      { label: 'Distance (202.6 miles)', amount: 506.5 },
    ],
    vat: null,
    validUntil: '2026-11-27T10:31:40.554Z',
    currency: 'GBP',
  };

  it.each<[string, QuoteResponse]>([
    ['an answer as the route gives it', answer],
    ['with VAT', { ...answer, vat: { rate: 20, amount: 111.92, includedInPrices: true } }],
    ['with VAT added to prices', { ...answer, vat: { rate: 5, amount: 0.01, includedInPrices: false } }],
    ['without the optional fields', { ...answer, lines: undefined, vat: undefined, validUntil: undefined }],
    ['with no lines at all', { ...answer, extras: [], lines: [] }],
    [
      'with labels to escape and numbers JSON cannot hold',
      {
        ...answer,
        totalPrice: Number.NaN,
        distance: -0,
        breakdown: { ...answer.breakdown, labourFee: Number.POSITIVE_INFINITY, passengerFee: 1e21 },
        extras: [{ label: 'Winch "Out" \\ 4×4 — £\u0000\n\u2028 \ud800', amount: 1.5e-7 }],
      },
    ],
  ])('writes what JSON.stringify writes: %s', (_what, value) => {
    expect(quoteResponseJson(value)).toBe(JSON.stringify(value));
  });

  it('writes what JSON.stringify writes for 2,000 random answers', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) >>> 0) / 2 ** 32;
    const pounds = () => Math.round(random() * 100_000) / 100;
    const label = () =>
      ['Vehicle Base Price', 'Call-out Fee', 'Out-of-area fee', 'VAT (20%)', 'Price rounding', 'Bank holiday surcharge'][Math.floor(random() * 6)];
    const line = () => ({ label: label(), amount: pounds() });
    for (let i = 0; i < 2000; i++) {
      const value: QuoteResponse = {
        ...answer,
        totalPrice: pounds(),
        distance: Math.round(random() * 6000) / 10,
        breakdown: { ...answer.breakdown, callOutFee: pounds(), distanceFee: pounds(), extraFees: pounds() },
        extras: Array.from({ length: Math.floor(random() * 4) }, line),
        lines: Array.from({ length: 3 + Math.floor(random() * 6) }, line),
        vat: random() < 0.5 ? null : { rate: 20, amount: pounds(), includedInPrices: random() < 0.5 },
      };
      expect(quoteResponseJson(value)).toBe(JSON.stringify(value));
    }
  });
});
