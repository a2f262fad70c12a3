// The documents' arithmetic (docs/product.md §22): lines split into net, rate and VAT that add up
// to the penny to the quote's total and VAT, the simplified/full threshold, credit notes' VAT.
import { describe, expect, it } from 'vitest';
import { LINES_187_20 } from '../test/payment-fixtures';
import { creditLine, documentKindFor, documentLines, shareOut, totalsOf, type DocumentLine } from './vat';

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
const addsUp = (lines: DocumentLine[], total: number, vat: number) => {
  expect(sum(lines.map((l) => l.grossPence))).toBe(total);
  expect(sum(lines.map((l) => l.vatPence))).toBe(vat);
  for (const l of lines) expect(l.netPence + l.vatPence).toBe(l.grossPence);
};

describe('shareOut', () => {
  it('shares pennies in proportion and adds up exactly, the odd pennies to the largest remainders', () => {
    expect(shareOut(100, [1, 1, 1])).toEqual([34, 33, 33]);
    expect(shareOut(3120, [5000, 5000, 5600])).toEqual([1000, 1000, 1120]);
    expect(shareOut(7, [3, 3, 1])).toEqual([3, 3, 1]);
    expect(shareOut(5, [0, 0])).toEqual([5, 0]);
    for (let amount = 0; amount < 400; amount += 7) expect(sum(shareOut(amount, [333, 1, 17, 4999, 2]))).toBe(amount);
  });
});

describe('documentLines', () => {
  it('splits a quote whose prices exclude VAT: the VAT line shared over the net lines (the £187.20 example)', () => {
    const lines = documentLines({ lines: LINES_187_20, totalPence: 18720, vatPence: 3120, vatRatePercent: 20 });
    expect(lines).toEqual([
      { label: 'Vehicle Base Price', netPence: 5000, vatRatePercent: 20, vatPence: 1000, grossPence: 6000 },
      { label: 'Call-out Fee', netPence: 5000, vatRatePercent: 20, vatPence: 1000, grossPence: 6000 },
      { label: 'Distance (22.4 miles)', netPence: 5600, vatRatePercent: 20, vatPence: 1120, grossPence: 6720 },
    ]);
    addsUp(lines, 18720, 3120);
    expect(totalsOf(lines, 3744)).toEqual({ netPence: 15600, vatPence: 3120, grossPence: 18720, paidPence: 3744, balancePence: 14976 });
  });

  it('splits a quote whose prices include VAT: the VAT inside each gross line, adding up to the penny', () => {
    // £99.99 + £33.33 + £12.34 = £145.66 including VAT of £24.28 (the quote's own VAT, net of £121.38).
    const quote = [
      { label: 'Vehicle Base Price', amountPence: 9999 },
      { label: 'Call-out Fee', amountPence: 3333 },
      { label: 'Distance (4.9 miles)', amountPence: 1234 },
    ];
    const lines = documentLines({ lines: quote, totalPence: 14566, vatPence: 2428, vatRatePercent: 20 });
    addsUp(lines, 14566, 2428);
    expect(lines.map((l) => l.grossPence)).toEqual([9999, 3333, 1234]);
    expect(lines.map((l) => l.vatPence)).toEqual([1667, 555, 206]);
  });

  it('adds up for awkward amounts either way', () => {
    for (let a = 1; a < 3000; a += 97) {
      const net = [a, 2 * a + 1, 7];
      const netSum = sum(net);
      const vat = Math.round(netSum * 0.2);
      const exclusive = documentLines({
        lines: [...net.map((n, i) => ({ label: `L${i}`, amountPence: n })), { label: 'VAT (20%)', amountPence: vat }],
        totalPence: netSum + vat,
        vatPence: vat,
        vatRatePercent: 20,
      });
      addsUp(exclusive, netSum + vat, vat);
      const inclusive = documentLines({
        lines: net.map((n, i) => ({ label: `L${i}`, amountPence: n })),
        totalPence: netSum,
        vatPence: netSum - Math.round(netSum / 1.2),
        vatRatePercent: 20,
      });
      addsUp(inclusive, netSum, netSum - Math.round(netSum / 1.2));
    }
  });

  it('gives an operator without VAT its lines as they are, and a quote without lines one line of its total', () => {
    expect(documentLines({ lines: [{ label: 'Call-out Fee', amountPence: 5000 }], totalPence: 5000, vatPence: 0, vatRatePercent: 0 })).toEqual([
      { label: 'Call-out Fee', netPence: 5000, vatRatePercent: 0, vatPence: 0, grossPence: 5000 },
    ]);
    expect(documentLines({ lines: null, totalPence: 12000, vatPence: 2000, vatRatePercent: 20 })).toEqual([
      { label: 'Vehicle recovery', netPence: 10000, vatRatePercent: 20, vatPence: 2000, grossPence: 12000 },
    ]);
    // Lines that do not add up to the total are not trusted.
    expect(documentLines({ lines: [{ label: 'X', amountPence: 1 }], totalPence: 500, vatPence: 0, vatRatePercent: 0 })).toHaveLength(1);
  });
});

describe('documentKindFor', () => {
  it('issues a simplified VAT invoice up to £250 including VAT and a full one above it or when asked', () => {
    expect(documentKindFor(true, 25_000)).toBe('simplified_invoice');
    expect(documentKindFor(true, 25_001)).toBe('vat_invoice');
    expect(documentKindFor(true, 18_720, true)).toBe('vat_invoice');
    expect(documentKindFor(false, 99_999)).toBe('receipt');
  });
});

describe('creditLine', () => {
  it('credits VAT in proportion, so the credit notes of a full refund add up to the original’s VAT', () => {
    const original = { grossPence: 18720, vatPence: 3120 };
    const first = creditLine('Refund', 1001, 0, original, 20);
    const second = creditLine('Refund', 18720 - 1001, 1001, original, 20);
    expect(first).toEqual({ label: 'Refund', netPence: 834, vatRatePercent: 20, vatPence: 167, grossPence: 1001 });
    expect(first.vatPence + second.vatPence).toBe(3120);
    expect(first.netPence + second.netPence).toBe(15600);
    expect(creditLine('Refund', 500, 0, { grossPence: 5000, vatPence: 0 }, 0)).toMatchObject({ vatPence: 0, netPence: 500, vatRatePercent: 0 });
  });
});
