// Test support: the £187.20 quote of docs/product.md §21's example (£156.00 and VAT at 20 % added,
// as a VAT-registered operator's quote shows it), for the payment tests of both modes.
import type { QuoteLine } from '../../shared/payments';
import type { NewQuote } from '../quotes/store';
import { storedQuote } from './harness';

export const LINES_187_20: QuoteLine[] = [
  { label: 'Vehicle Base Price', amountPence: 5000 },
  { label: 'Call-out Fee', amountPence: 5000 },
  { label: 'Distance (22.4 miles)', amountPence: 5600 },
  { label: 'VAT (20%)', amountPence: 3120 },
];

export const quote18720 = (companyId: number): NewQuote =>
  storedQuote(companyId, { totalPricePence: 18720, vatPence: 3120, vatRatePercent: 20, lines: JSON.stringify(LINES_187_20) });
