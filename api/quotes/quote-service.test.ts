// The quote's stored snapshot of its lines is written by hand (linesJson); it must be exactly what
// JSON.stringify writes, whatever the labels hold.
import { describe, expect, it } from 'vitest';
import { linesJson } from './quote-service';

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
    [[{ label: '\ud800 lone surrogate', amountPence: Number.NaN }, { label: '', amountPence: Number.POSITIVE_INFINITY }]],
  ])('writes what JSON.stringify writes for %j', (lines) => {
    expect(linesJson(lines)).toBe(JSON.stringify(lines));
    // Twice: the second time the labels come from the cache.
    expect(linesJson(lines)).toBe(JSON.stringify(lines));
  });
});
